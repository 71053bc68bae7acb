"""Differential test for stud: PokerKit generates F7S, F7S/8 and FR hands; our replay agrees.

The corpus is PokerKit's alone (bench/stud_corpus.py never asks our engine). The expected
finishing stacks follow the rules where PokerKit departs from them (R20-B odd chips by
suit, R21 pots kept apart and a hi/lo pot without a low among its players going whole to
the high hand); a tie of showing hands that PokerKit breaks by seat (RP-10-D breaks it by
suit) is counted apart, and a raise R47-B forbids must be refused citing it. The full run
(2,000 hands per variant) is ``python -m pokertable.bench.stud_corpus``; docs/engine.md
has its last lines.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pokertable.bench.pokerkit_corpus import replay_json
from pokertable.bench.stud_corpus import VARIANTS, compare, generate
from tests.engine.helpers import corpus_agrees

pytestmark = pytest.mark.needs("pokerkit")

HANDS = 70  # per variant: 210 hands


@pytest.mark.parametrize("variant", VARIANTS)
def test_finishing_stacks_equal_pokerkit_or_the_rule_where_it_differs(variant: str) -> None:
    """R20-B, R20-C, R21, RP-10-D, R47-B: 0 mismatches on seeded PokerKit hands."""
    corpus_agrees(generate, compare, variant, HANDS, 0.8)


def test_pokertable_replay_reads_stud_phh_files(tmp_path: Path) -> None:
    """``pokertable replay --json`` reads PokerKit's stud PHH (``pb`` bring-ins, stud
    streets dealt with ``d dh``) and prints PokerKit's finishing stacks."""
    corpus = generate(6, seed=7)
    proc = replay_json(corpus.hands, tmp_path)
    results = [json.loads(line) for line in proc.stdout.splitlines()]
    assert proc.returncode == 0, proc.stderr
    assert [r["variant"] for r in results] == list(VARIANTS) * 2
    assert [r["finishing_stacks"] for r in results] == corpus.expected_stacks
    assert all(r["complete"] for r in results)
