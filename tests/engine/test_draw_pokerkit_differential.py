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
from tests.engine.helpers import corpus_agrees

pytestmark = pytest.mark.needs("pokerkit")

HANDS = 80  # per variant: 240 hands


@pytest.mark.parametrize("variant", VARIANTS)
def test_finishing_stacks_equal_pokerkit_or_the_rule_where_it_differs(variant: str) -> None:
    """R20-A, R21, R47, R35-A7 house rules: 0 mismatches on seeded PokerKit hands."""
    result = corpus_agrees(generate, compare, variant, HANDS, 0.9)
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


def test_draw_hands_export_as_phh_that_pokerkit_and_our_replay_play_alike() -> None:
    """history/render.py writes a replayed draw hand back as PHH (``sd`` and the drawn
    cards per draw): PokerKit's reader and ours reach the same finishing stacks."""
    import pokerkit as pk

    from pokertable.bench.draw_corpus import POKERKIT_HOUSE
    from pokertable.controller.history.phh import parse_hand
    from pokertable.controller.history.phh_toml import loads
    from pokertable.controller.history.render import hand_to_phh, replayed_stacks
    from pokertable.controller.history.replay import replay_hand

    corpus = generate(24, seed=11)
    for i, doc in enumerate(corpus.hands):
        if i in corpus.tda_illegal:
            continue
        result = replay_hand(parse_hand(loads(doc), f"draw#{i}"), POKERKIT_HOUSE)
        text = hand_to_phh(result.hand.setup, result.state, venue="v", table="t", seat_count=9,
                           number=i, started_ms=None)
        ours = [s.stack for s in sorted(result.state.seats, key=lambda s: s.seat)]
        assert list(replayed_stacks(text, f"export#{i}", POKERKIT_HOUSE)) == ours
        if ours == corpus.pokerkit_stacks[i]:
            *_, last = pk.HandHistory.loads(text)
            assert list(last.stacks) == ours, text
