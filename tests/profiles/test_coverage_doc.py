"""docs/rules-coverage.md cannot rot: every TDA 2024 rule has one row, every test it names
exists, every floor row names a ruling code the controller really raises."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rules-coverage.md"
STATUSES = {"implemented", "floor", "profile only", "out of scope"}
RULES = [str(n) for n in range(1, 72)] + [f"RP-{n}" for n in range(1, 23)]


def _rows() -> dict[str, list[str]]:
    rows: dict[str, list[str]] = {}
    for line in DOC.read_text("utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 6 and re.fullmatch(r"\d{1,2}|RP-\d{1,2}", cells[0]):
            assert cells[0] not in rows, f"rule {cells[0]} listed twice"
            rows[cells[0]] = cells
    return rows


def _test_names() -> set[str]:
    names: set[str] = set()
    for path in (ROOT / "tests").rglob("test_*.py"):
        names |= set(re.findall(r"^def (test_\w+)", path.read_text("utf-8"), re.M))
    return names


def _controller_text() -> str:
    return "\n".join(p.read_text("utf-8") for p in (ROOT / "controller").rglob("*.py"))


def test_every_rule_and_procedure_has_exactly_one_row() -> None:
    rows = _rows()
    assert sorted(rows, key=RULES.index) == RULES, set(RULES) ^ set(rows)


def test_every_status_is_known_and_explained() -> None:
    for rule, cells in _rows().items():
        status = cells[2]
        assert status in STATUSES, (rule, status)
        if status == "out of scope":
            assert len(cells[5]) > 10, f"rule {rule}: out of scope needs a reason"
        if status in ("implemented", "floor", "profile only"):
            assert "`test_" in cells[4], f"rule {rule}: {status} needs a test"
        if status == "profile only":
            assert "future" in cells[3], f"rule {rule}: say which module will read it"


def test_every_named_test_exists() -> None:
    names = _test_names()
    for rule, cells in _rows().items():
        for name in re.findall(r"`(test_\w+)`", cells[4]):
            assert name in names, f"rule {rule}: {name} not found under tests/"


def test_every_floor_row_names_a_code_the_controller_raises() -> None:
    source = _controller_text()
    for rule, cells in _rows().items():
        if cells[2] != "floor":
            continue
        found = re.search(r"codes? ((?:`\w+`(?: / )?)+)", cells[5])
        assert found, f"rule {rule}: a floor row names its ruling code"
        for code in re.findall(r"`(\w+)`", found.group(1)):
            prefix = code.rsplit("_", 1)[0]
            assert f'"{code}"' in source or f'"{prefix}_{{' in source, (rule, code)


def test_every_parameter_named_in_the_doc_exists() -> None:
    from pokertable.controller.app.config import ReadingSection
    from pokertable.controller.rules.profiles import parameter_names

    known = set(parameter_names()) | set(ReadingSection.model_fields)  # or table.toml's
    text, source = DOC.read_text("utf-8"), _controller_text()
    for name in re.findall(r"`([a-z]+(?:_[a-z0-9]+)+)`", text):
        prefix = name.rsplit("_", 1)[0]
        if (name.startswith("test_") or f'"{name}"' in source or f'"{prefix}_{{' in source
                or f"def {name}(" in source):
            continue  # a test id, a ruling code or a function
        assert name in known, name
