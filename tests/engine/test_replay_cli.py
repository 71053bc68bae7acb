"""``pokertable replay``: correct hands print their outcome, corrupted ones one error line each."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

GOOD = """variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [50, 100, 0]
min_bet = 100
starting_stacks = [1000, 2000, 3000]
actions = [{actions}]
"""
BASE = ['"d dh p1 AsAd"', '"d dh p2 KsKd"', '"d dh p3 2c7h"']


def _replay(tmp_path: Path, text: str, *args: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "hand.phh"
    path.write_text(text)
    return subprocess.run(
        [sys.executable, "-m", "pokertable.controller.cli", "replay", *args, str(path)],
        capture_output=True,
        text=True,
        check=False,
        cwd=REPO,
    )


def test_side_pot_example_from_the_readme(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "pokertable.controller.cli", "replay", "--json",
         "docs/examples/side-pot.phh"],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
    )
    result = json.loads(proc.stdout)
    assert result["finishing_stacks"] == [9200, 9600, 4200]
    assert result["pots"] == [
        {"amount": 9200, "eligible": ["Ann", "Bob", "Cat"]},
        {"amount": 9600, "eligible": ["Bob", "Cat"]},
    ]
    text = subprocess.run(
        [sys.executable, "-m", "pokertable.controller.cli", "replay", "docs/examples/side-pot.phh"],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
    ).stdout
    assert "[TDA2024-16]" in text and "side pot 1 9600 to seat 2" in text


def test_illegal_raise_size_is_one_line_naming_action_and_rule(tmp_path: Path) -> None:
    actions = ", ".join([*BASE, '"p3 cbr 150"'])
    proc = _replay(tmp_path, GOOD.format(actions=actions), "--json")
    assert proc.returncode == 1 and proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "action 3 ('p3 cbr 150')" in lines[0] and "below the minimum 200" in lines[0]
    assert "TDA2024-43A" in lines[0]


def test_action_out_of_turn_is_rejected(tmp_path: Path) -> None:
    actions = ", ".join([*BASE, '"p1 cc"'])
    proc = _replay(tmp_path, GOOD.format(actions=actions), "--json")
    assert proc.returncode == 1
    assert "action 3 ('p1 cc')" in proc.stderr and "action is on seat 3" in proc.stderr


def test_unknown_variant_is_rejected(tmp_path: Path) -> None:
    proc = _replay(tmp_path, GOOD.format(actions="").replace('"NT"', '"NS"'), "--json")
    assert proc.returncode == 1
    assert "unknown or unsupported variant 'NS'" in proc.stderr


def test_garbage_file_is_rejected(tmp_path: Path) -> None:
    proc = _replay(tmp_path, "this is = = not toml", "--json")
    assert proc.returncode == 1 and "cannot read PHH" in proc.stderr


def test_ci_runs_the_readme_test_command() -> None:
    readme = (REPO / "README.md").read_text()
    block = readme.split("## Quick start", 1)[1].split("```", 2)[1]
    commands = [line for line in block.splitlines()[1:] if line.strip()]
    assert len(commands) == 2
    ci = (REPO / ".ci" / "run").read_text()
    assert "README.md" in ci and "sed -n 2p" in ci  # CI extracts and runs the second command
    assert "pytest" in commands[1]


def test_a_hand_from_a_table_on_another_profile_is_replayed_under_that_profile(
    tmp_path: Path,
) -> None:
    text = GOOD.format(actions=", ".join([*BASE, '"p3 f"', '"p1 cbr 300"', '"p2 f"']))
    default = _replay(tmp_path, text, "--json", "--rulings")
    t11 = _replay(tmp_path, text, "--json", "--rulings", "--profile", "tda-2011")
    assert default.returncode == 0 and t11.returncode == 0, (default.stderr, t11.stderr)
    ids = {
        name: {i for r in json.loads(proc.stdout)["rulings"] for i in r["rule_ids"]}
        for name, proc in (("tda-2024", default), ("tda-2011", t11))
    }
    assert ids["tda-2024"] and all(i.startswith("TDA2024-") for i in ids["tda-2024"])
    assert ids["tda-2011"] and all(i.startswith("TDA2011") for i in ids["tda-2011"])
    bad = _replay(tmp_path, text, "--profile", "tda-2042")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "--profile" in bad.stderr


def test_an_incomplete_hand_says_so_and_fails_unless_partial_is_asked(tmp_path: Path) -> None:
    """A file that stops on the flop: the pot is named, not lost, and the exit says it."""
    actions = ", ".join([*BASE, '"p3 cc"', '"p1 cc"', '"p2 cc"', '"d db 2s3s4s"'])
    truncated = GOOD.format(actions=actions)
    proc = _replay(tmp_path, truncated)
    assert proc.returncode == 1
    assert "incomplete: the file stops in the flop" in proc.stdout
    assert "with 300 in the pot" in proc.stdout
    assert proc.stderr.count("\n") == 1 and "the hand is incomplete" in proc.stderr
    assert _replay(tmp_path, truncated, "--partial").returncode == 0
    as_json = _replay(tmp_path, truncated, "--json", "--partial")
    assert json.loads(as_json.stdout)["complete"] is False
