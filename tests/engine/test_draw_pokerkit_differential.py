"""Differential test for the draw games: PokerKit generates F2L3D, N2L1D and FB hands; our
replay agrees.

The corpus is PokerKit's alone (bench/draw_corpus.py never asks our engine). The replay
runs under TDA 2024 with PokerKit's two stub house rules (``POKERKIT_HOUSE``: the last
card dealt, everything outside the live hands reshuffled, R35-A7 leaving both to the
house); the hands PokerKit reshuffled are replayed under TDA 2024's own house rules too,
where a card that came back only by PokerKit's rule is refused. A raise R47 forbids must
be refused citing it. The full run (2,000 hands per variant) is
``python -m pokertable.bench.draw_corpus``; docs/engine.md has its last lines.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pokertable.bench.draw_corpus import VARIANTS, compare, generate
from pokertable.bench.pokerkit_corpus import replay_json

pytestmark = pytest.mark.needs("pokerkit")

HANDS = 80  # per variant: 240 hands


@pytest.mark.parametrize("variant", VARIANTS)
def test_finishing_stacks_equal_pokerkit_or_the_rule_where_it_differs(variant: str) -> None:
    """R20-A, R21, R47, R35-A7 house rules: 0 mismatches on seeded PokerKit hands."""
    corpus = generate(HANDS, seed=30, variants=(variant,))
    result = compare(corpus, variant)
    assert result.hands == HANDS
    assert not result.mismatches, result.mismatches
    assert result.equal_to_pokerkit > HANDS * 0.9, result.lines(variant)
    assert result.refused_by_house > 0, result.lines(variant)  # the house rules bite


def test_pokertable_replay_reads_draw_phh_files(tmp_path: Path) -> None:
    """``pokertable replay --json`` reads PokerKit's draw PHH (``sd`` stands pat or
    discards, the new cards dealt with ``d dh``) and prints the finishing stacks."""
    corpus = generate(30, seed=7)
    keep = [i for i in range(30) if i not in corpus.reshuffled and i not in corpus.tda_illegal]
    proc = replay_json([corpus.hands[i] for i in keep], tmp_path)
    results = [json.loads(line) for line in proc.stdout.splitlines()]
    assert proc.returncode == 0, proc.stderr
    assert [r["variant"] for r in results] == [corpus.variants[i] for i in keep]
    assert [r["finishing_stacks"] for r in results] == [corpus.expected_stacks[i] for i in keep]
    assert all(r["complete"] for r in results)
    assert {r["variant"] for r in results} == set(VARIANTS)
