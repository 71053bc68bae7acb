"""One action log per hand (issue #26): the engine's ``HandState.actions``.

The irregularities layer's actions for a rebuild and interpretation's street log for R52
amendments are read from it, so a correction that replays the street cannot leave a copy
telling another story. Driven through ``TableSession``.
"""

from __future__ import annotations

from dataclasses import fields

from pokertable.controller.engine.events import ActionKind
from pokertable.controller.engine.model import Level, Phase, Street
from pokertable.controller.interpretation.zones import LogEntry
from pokertable.controller.irregularities.hand import TrackedHand
from tests.app.rules_table import RulesTable

HOLES = {1: ("As", "Ad"), 2: ("Ks", "Kd"), 3: ("Qs", "Qd"), 4: ("Js", "Jd"), 5: ("Ts", "Td")}


def _flop() -> RulesTable:
    stacks = {s: 20000 for s in range(1, 6)}
    table = RulesTable(stacks, button=5, level=Level(small_blind=100, big_blind=200))
    table.press("hand_start")
    table.deal(HOLES)
    for _ in stacks:
        table.press("check_call")
    table.street("2s", "7c", "8d", "9h")
    assert table.hand.street is Street.FLOP and table.hand.phase is Phase.BETTING
    return table


def test_TDA24_52A_the_corrected_street_is_the_one_log_every_layer_reads() -> None:
    """R52-A replays the street with the underraise corrected to 1200: the actions the
    irregularities layer would rebuild from and the street log interpretation amends from are
    the engine's records of the replayed street, not the 1000 that was let stand."""
    table = _flop()
    table.press("bet_raise", 600)
    table.command("short_bet_stands", seat=2, amount=1000)
    table.press("check_call")
    table.press("check_call")
    table.press("fold")
    table.command("short_bet_noticed", seat=2)
    hand = table.hand
    assert table.session.tracked is not None
    played = table.session.tracked.played
    assert played == tuple(r.action for r in hand.actions)
    raises = [a for a in played if a.kind is ActionKind.RAISE]
    assert [(a.seat, a.amount) for a in raises] == [(2, 1200)]
    log = table.session.pending.log
    assert [e.action.seat for e in log] == [1, 2, 3, 4, 5]
    for entry in log:
        assert entry.action is hand.actions[len(entry.before.actions)].action


def test_no_layer_keeps_its_own_list_of_actions() -> None:
    """The copies are gone: the irregularities layer and interpretation hold no action of
    their own, only states of the engine (which carry its log)."""
    assert "played" not in {f.name for f in fields(TrackedHand)}
    assert "action" not in {f.name for f in fields(LogEntry)}
