"""The colour-up chip race (TDA Rule 24; TDA 2011 R20; Clubs NZ and ACE R24) from the chips
the stack zones read at a live table (``TableSession``), as the room service computes it."""

from __future__ import annotations

import random

from pokertable.controller.rules.profiles import load_profile
from pokertable.controller.table.inputs import ChipItem, ChipsMoved
from pokertable.controller.table.public_state import table_state
from pokertable.room.chip_race import chip_race
from tests.app.rules_table import RulesTable


def felt(stacks: dict[int, dict[int, int]], profile: str = "tda-2024") -> RulesTable:
    """A table whose stack zones hold ``stacks``: seat -> {denomination: count}."""
    table = RulesTable(
        {s: sum(d * n for d, n in chips.items()) for s, chips in stacks.items()},
        button=max(stacks),
        profile=profile,
    )
    for seat, chips in stacks.items():
        items = tuple(
            ChipItem(d, uid=f"s{seat}-{d}-{i}") for d, n in chips.items() for i in range(n)
        )
        table(ChipsMoved(f"seat{seat}.stack", seat, items, (), table.ms()))
    return table


def test_stack_zones_are_published_per_denomination_and_a_restart_does_not_double() -> None:
    table = felt({1: {25: 3, 100: 10}, 2: {100: 5}})
    seats = table_state(table.session, table.t)["seats"]
    assert seats[0]["stack_chips"] == {"25": 3, "100": 10}
    again = tuple(ChipItem(100, uid=f"s2-100-{i}") for i in range(5))
    table(ChipsMoved("seat2.stack", 2, again, (), table.ms(), complete=True))  # after a restart
    table(ChipsMoved("seat2.stack", 2, (), again[:2], table.ms()))  # two chips leave
    assert table_state(table.session, table.t)["seats"][1]["stack_chips"] == {"100": 3}


def test_TDA24_24A_race_from_seat_1_one_chip_a_player_and_nobody_raced_out() -> None:
    # Removing the 25s, lowest chip left 100. Odd chips: seat 1 75, seat 2 50 (all he has),
    # seat 3 25; 150 of odd chips -> 2 new chips raced (a half or more rounds up).
    table = felt({1: {25: 3, 100: 10}, 2: {25: 2}, 3: {25: 5, 100: 4}, 4: {100: 8}})
    state = table_state(table.session, table.t)
    race = chip_race("t1", state, {25}, 100, load_profile("tda-2024"), random.Random(5))
    lines = {line.seat: line for line in race.lines}
    assert race.chips_raced == 2 and race.rule_ids == ("TDA2024-24",)
    assert [len(lines[s].cards) for s in (1, 2, 3, 4)] == [3, 2, 1, 0]  # a card an odd chip
    deck = ["23456789TJQKA"[r] + "cdhs"[s] for r in range(13) for s in range(4)]
    random.Random(5).shuffle(deck)
    assert lines[1].cards[0] == deck[-1] and lines[2].cards[0] == deck[-2]  # seat 1 first
    assert sum(line.won for line in race.lines) == 2  # at most one chip each
    assert lines[3].exchanged == 1 and lines[4].exchanged == 0 and not lines[4].cards
    if not lines[2].won:
        assert lines[2].given and lines[2].new_chips == 1  # can't be raced out
    # The race is from the cards alone: a different draw gives the same chips raced.
    other = chip_race("t1", state, {25}, 100, load_profile("tda-2024"), random.Random(6))
    assert other.chips_raced == 2


def test_TDA24_24A_player_losing_his_last_chips_gets_one_chip() -> None:
    table = felt({1: {25: 3, 100: 10}, 2: {25: 1}})  # odd 100 -> one chip raced
    state = table_state(table.session, table.t)
    for seed in range(20):
        race = chip_race("t1", state, {25}, 100, load_profile("tda-2024"), random.Random(seed))
        two = race.lines[1]
        assert two.won or (two.given and two.new_chips == 1)
        if race.lines[0].won:
            assert two.given and race.change == (100 - 75) + (100 - 25)  # a chip made for him


def test_TDA24_24C_whole_chips_at_equal_value_leftovers_removed_without_compensation() -> None:
    table = felt({1: {25: 9, 100: 1}, 2: {25: 9, 100: 1}, 3: {25: 1, 100: 1}})
    state = table_state(table.session, table.t)
    race = chip_race("t1", state, {25}, 100, load_profile("tda-2024"), random.Random(0))
    for line in race.lines[:2]:
        assert (line.exchanged, line.odd) == (2, 25)  # 225: two 100s at equal value
    # 75 of odd chips: one chip raced; the odd chips that lose go without compensation.
    losers = [line for line in race.lines if line.odd and not line.won and not line.given]
    assert race.chips_raced == 1 and all(line.change == -line.odd for line in losers)


def test_NZ22_24_EXA_and_EXB_colour_up_rounds_up_at_the_table_T24_races() -> None:
    # SB 500, 100s removed, next lowest chip 500: 5x100 -> 1x500; 2x100 -> 1x500 (+300).
    table = felt({1: {100: 5, 500: 4}, 2: {100: 2, 500: 6}}, profile="clubs-nz-2022")
    state = table_state(table.session, table.t)
    nz = chip_race("t1", state, {100}, 500, load_profile("clubs-nz-2022"), random.Random(0))
    assert [(line.new_chips, line.change) for line in nz.lines] == [(1, 0), (1, 300)]
    assert nz.chips_raced == 0 and nz.rule_ids == ("NZ2022-24",) and not nz.floor
    ace = chip_race("t1", state, {100}, 500, load_profile("ace-league"), random.Random(0))
    assert [line.new_chips for line in ace.lines] == [1, 1]
    t24 = chip_race("t1", state, {100}, 500, load_profile("tda-2024"), random.Random(0))
    exact, short = t24.lines
    assert (exact.exchanged, exact.odd, exact.cards) == (1, 0, ())  # same as NZ: 1x500
    assert short.odd == 200 and len(short.cards) == 2  # T24: 200 goes to the race
    assert t24.chips_raced == 0 and short.change == -200  # 200 < 250: no chip raced (R24-C)


def test_NZ22_24_round_up_beyond_one_chip_goes_to_the_floor() -> None:
    table = felt({1: {100: 7, 500: 2}}, profile="clubs-nz-2022")
    state = table_state(table.session, table.t)
    nz = chip_race("t1", state, {100}, 500, load_profile("clubs-nz-2022"), random.Random(0))
    (call,) = nz.floor
    assert call["seat"] == 1 and call["options"] == ["round up to 2", "round down to 1"]


def test_TDA11_20_race_without_the_exchange_clause_says_so() -> None:
    table = felt({1: {25: 3, 100: 2}, 2: {25: 1, 100: 2}}, profile="tda-2011")
    state = table_state(table.session, table.t)
    race = chip_race("t1", state, {25}, 100, load_profile("tda-2011"), random.Random(0))
    assert race.rule_ids == ("TDA2011-20",) and race.chips_raced == 1
    assert any("no exchange clause" in note for note in race.notes)


def test_ACE_24_round_up_of_any_total_is_applied_without_the_TD() -> None:
    """ACE R24: "We do it individually by player and round up chips to the next available
    new denomination": 7x100 with 500s next is rounded up to 2x500 at once; only Clubs NZ,
    whose examples stop at one new chip, asks the TD beyond that (addendum NZ22-24-EXB)."""
    table = felt({1: {100: 7, 500: 2}, 2: {100: 12, 500: 1}}, profile="ace-league")
    state = table_state(table.session, table.t)
    ace = chip_race("t1", state, {100}, 500, load_profile("ace-league"), random.Random(0))
    assert ace.floor == ()
    assert [(line.new_chips, line.change) for line in ace.lines] == [(2, 300), (3, 300)]
    assert ace.rule_ids == ("ACE-24",) and ace.method == "round_up_no_race"
