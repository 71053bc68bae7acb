"""Differential test for Omaha hi-lo (FO/8, PO/8): PokerKit generates and writes the hands
(bench/phh_corpus_hilo.py never asks our engine), ``pokertable replay`` must give the
finishing stacks of the rule text: R20-C (odd unit of a pot to the high), R20-A (ties in
a half clockwise from the button), R21 (each pot split on its own contenders: no low
among them, the high takes it all). The full run (2,000 hands per variant) is
``python -m pokertable.bench.phh_corpus_hilo``; its last lines are in docs/engine.md.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pokertable.bench.phh_corpus_hilo import generate

pytestmark = pytest.mark.needs("pokerkit")


def test_R20C_R21_omaha_hi_lo_replays_equal_the_rule_text_on_pokerkit_hands(
    tmp_path: Path,
) -> None:
    from pokertable.bench.phh_corpus_hilo import compare

    corpus = generate(200, seed=30)
    results = compare(corpus, tmp_path)
    assert set(results) == {"FO/8", "PO/8"}
    for c in results.values():
        assert c.hands == 100
        assert not c.refused, c.refused[:3]
        assert not c.mismatches, c.mismatches[:3]
        assert c.equal == 100, c.line()
        assert not c.pokerkit_other, c.pokerkit_other[:3]  # PokerKit differs only as known
    # The rule text is exercised where PokerKit departs from it (R21 low half, R20 odd chips).
    assert sum(c.pokerkit_outside_low for c in results.values()) >= 1
    assert sum(c.pokerkit_odd_chips for c in results.values()) >= 1
