"""An ante never put out, at the live table (issue #26, RP-11).

The engine posts the big blind ante (and, with per-player antes, each blind's ante) as dead
money; the table takes it as paid. When the readers have reported the poster's bet zone and
his ante's chips are not in it when the action reaches him, the dealer is told once, naming
the seat and the amount (code ``ante_owed``, citing RP-11): the ante may have gone straight
into the pot, or never out. Chips put out while he still posts make it up.
These tests drive ``TableSession`` with tagged chips, as the readers report them.
"""

from __future__ import annotations

from typing import Any

from pokertable.controller.engine.model import AnteFormat, Level
from tests.app.rules_table import RulesTable
from tests.app.test_bb_ante_zone import BBA, _table, _to_option
from tests.app.test_blind_zones import HOLES


def _owed(table: RulesTable) -> list[dict[str, Any]]:
    return [r for r in table.rulings() if "is not in his bet zone" in r["text"]
            and "ante" in r["text"]]


def test_RP11_the_big_blinds_ante_not_in_his_zone_is_told_once() -> None:
    """Bob puts only his blind out: when the action reaches him the dealer is told his
    ante of 200 is not in his bet zone, once, citing RP-11; his check stands."""
    table = _table()
    table.push(1, 100)
    table.push(2, 200)
    table.press("hand_start")
    _to_option(table)
    [told] = _owed(table)
    assert told["rule_ids"] == ["TDA2024-RP-11"] and told["seat"] == 2
    assert "ante of 200" in told["text"]
    table.press("check_call")
    assert len(_owed(table)) == 1


def test_RP11_an_ante_put_out_says_nothing() -> None:
    table = _table()
    table.push(1, 100)
    table.push(2, 200, 200)
    table.press("hand_start")
    _to_option(table)
    assert not _owed(table)


def test_RP11_a_zone_never_read_says_nothing() -> None:
    """Where the readers never reported his zone the table cannot know: nothing said."""
    table = RulesTable({1: 5000, 2: 5000, 3: 5000}, button=3, level=BBA)
    table.first_view(1, 3)
    table.push(1, 100)
    table.press("hand_start")
    table.deal(HOLES)
    table.push(3, 100, 100)
    table.push(1, 100)
    assert not _owed(table)


def test_RP11_an_empty_zone_chips_that_arrive_pay_blind_and_ante() -> None:
    """Bob's zone is read empty: both blind and ante are missing when the action reaches
    him; the dealer is told of the ante, and the 400 he then puts out are his blind and
    ante (TDA 2024: big blind first), nothing owed, no action."""
    table = _table()
    table.push(1, 100)
    table.press("hand_start")
    _to_option(table)
    [told] = _owed(table)
    assert "ante of 200" in told["text"]
    table.push(2, 200, 200)
    zone = table.session.pending.zone(2)
    assert (zone.ante_due, sum(c.denomination for c in zone.ante)) == (0, 200)
    assert len(_owed(table)) == 1


def test_RP11_per_player_antes_a_small_blind_without_her_ante_is_told() -> None:
    """Per-player antes of 25: Ann puts only her small blind out; when the action reaches
    her the dealer is told her ante of 25 is not in her zone; Bob's ante lies beside his
    blind, so nothing is said of him."""
    level = Level(small_blind=100, big_blind=200, ante=25, ante_format=AnteFormat.PER_PLAYER)
    table = RulesTable({1: 5000, 2: 5000, 3: 5000}, button=3, level=level)
    table.first_view(1, 2, 3)
    table.push(1, 100)
    table.push(2, 200, 25)
    table.press("hand_start")
    table.deal(HOLES)
    table.push(3, 100, 100)  # Cat calls: the action reaches Ann
    [told] = _owed(table)
    assert told["seat"] == 1 and "ante of 25" in told["text"]
    table.push(1, 100)  # Ann calls
    table.press("check_call")  # Bob checks: the round closes
    assert len(_owed(table)) == 1
