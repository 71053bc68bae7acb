"""PHH replay of valid hands the engine once refused (issue #30, "rule slips")."""

from __future__ import annotations

from pathlib import Path

import pytest

from pokertable.controller.engine.model import Phase
from pokertable.controller.history.phh import load_hands
from pokertable.controller.history.replay import replay_hand

# Seat 3 folds; the small blind calls all in for exactly the big blind; PokerKit (and PHH)
# then asks the big blind to act, and he checks: nobody is left to bet against him.
SB_ALL_IN_FOR_THE_BIG_BLIND = """variant = 'NT'
ante_trimming_status = false
antes = [0, 0, 0]
blinds_or_straddles = [50, 100, 0]
min_bet = 100
starting_stacks = [100, 5000, 5000]
actions = ['d dh p1 Td6c', 'd dh p2 5c2c', 'd dh p3 8c5h', 'p3 f', 'p1 cc', 'p2 cc',
           'p1 sm Td6c', 'p2 sm 5c2c', 'd db 8s4d7h', 'd db 3s', 'd db 6d']
"""


def _replay(tmp_path: Path, text: str):  # type: ignore[no-untyped-def]
    path = tmp_path / "hand.phh"
    path.write_text(text)
    (hand,) = list(load_hands(path))
    return replay_hand(hand)


def test_PHH_big_blind_checks_after_the_small_blind_called_all_in_for_exactly_the_big_blind(
    tmp_path: Path,
) -> None:
    result = _replay(tmp_path, SB_ALL_IN_FOR_THE_BIG_BLIND)
    assert result.state.phase is Phase.COMPLETE
    # The big blind's 5-2 makes a straight on 8-4-7-3-6 and wins the small blind's 100.
    assert [result.state.seat(n).stack for n in (1, 2, 3)] == [0, 5100, 5000]
    checks = [a for a in result.state.actions if a.seat == 2]
    assert checks == []  # his check changed nothing: the engine records no action for it


@pytest.mark.needs("pokerkit")
def test_PHH_big_blind_check_after_exact_all_in_call_matches_pokerkit(tmp_path: Path) -> None:
    import pokerkit as pk

    final = list(pk.HandHistory.loads(SB_ALL_IN_FOR_THE_BIG_BLIND))[-1]
    result = _replay(tmp_path, SB_ALL_IN_FOR_THE_BIG_BLIND)
    assert [result.state.seat(n).stack for n in (1, 2, 3)] == list(final.stacks)
