"""What the repository ships names only what it holds: a path written in the code, its
messages or the docs exists in the tree, and an open question of the rules cited as "open
question A<n>" is on docs/open-questions.md. (A newcomer once met a "rules-spec" that only
the project's authors had.)"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHIPPED = (
    "controller",
    "room",
    "mqtt",
    "hardware",
    "firmware",
    "bench",
    "deploy",
    "docs",
    "README.md",
    "pyproject.toml",
)
TEXT = (
    ".py",
    ".md",
    ".toml",
    ".js",
    ".html",
    ".css",
    ".sh",
    ".service",
    ".conf",
    ".ini",
    ".json",
    ".txt",
)
# A path from the repository's root, not part of a longer path (/opt/pokertable/deploy/...).
PATH = re.compile(
    r"(?<![\w/.-])((?:docs|deploy|controller|room|mqtt|hardware|firmware|bench|tests)"
    r"/[\w/.-]*\w\.(?:md|py|toml|sh|service|js|html|json|conf|phh|png|ini))\b"
)
QUESTION = re.compile(r"open questions? (A\d+(?:/A\d+)*)")


def _shipped() -> dict[str, str]:
    listed = subprocess.run(
        ["git", "ls-files", *SHIPPED], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.split()
    return {
        name: (REPO / name).read_text("utf-8")
        for name in listed
        if name.endswith(TEXT) and (REPO / name).is_file()
    }


def test_no_shipped_text_cites_a_rules_spec_the_repository_does_not_hold() -> None:
    cited = [
        name for name, text in _shipped().items() if "rules-spec" in text or "../shared/" in text
    ]  # the authors' own notes
    assert cited == []


def test_every_repository_path_named_in_shipped_text_exists() -> None:
    missing = sorted(
        {
            f"{name}: {path}"
            for name, text in _shipped().items()
            for path in PATH.findall(text)
            if not (REPO / path).exists()
        }
    )
    assert missing == [], "\n".join(missing)


def test_every_open_question_cited_is_on_the_open_questions_page() -> None:
    page = (REPO / "docs" / "open-questions.md").read_text("utf-8")
    listed = set(re.findall(r"^\| (A\d+) \|", page, re.MULTILINE))
    cited = {
        number
        for text in _shipped().values()
        for group in QUESTION.findall(text)
        for number in group.split("/")
    }
    assert cited and cited <= listed, sorted(cited - listed)
