"""Balancing, halting, breaking, the final table and late entries (TDA Rules 8-11, RP-9).

The room's model reads the tables' published states; where a move is applied, it is applied
to live tables (``TableSession`` through ``RulesTable``) with the same commands the room
service sends, and the tables' next hands show the result.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from pokertable.controller.engine.model import Phase
from pokertable.controller.rules.profiles import load_profile
from pokertable.controller.table.public_state import table_state
from pokertable.room.late_entry import late_stack, seat_late_entrant
from pokertable.room.seating import (
    balance,
    break_table,
    count_back,
    final_table,
    halts,
    seat_card_order,
    view,
)
from tests.app.rules_table import RulesTable

T24, T11 = load_profile("tda-2024"), load_profile("tda-2011")
NZ, ACE = load_profile("clubs-nz-2022"), load_profile("ace-league")
CARDS = "AsAdKsKdQsQdJsJdTsTd9s9d8s8d7s7d6s6d"


def state(
    seats: set[int],
    button: int | None = None,
    big_blind: int | None = None,
    max_seats: int = 9,
    stack: int = 10_000,
) -> dict[str, Any]:
    """A published table state (only what the room reads)."""
    return {
        "button": button,
        "big_blind_seat": big_blind,
        "street": "complete",
        "seats": [
            {
                "seat": s,
                "player": f"P{s}" if s in seats else None,
                "stack": stack * (s in seats),
                "bet": 0,
                "status": "active" if s in seats else "empty",
            }
            for s in range(1, max_seats + 1)
        ],
    }


def walk(table: RulesTable) -> None:
    """One hand: everyone folds to the big blind."""
    table.press("hand_start")
    seats = [s.seat for s in table.hand.seats]
    table.deal(
        {s: (CARDS[4 * i : 4 * i + 2], CARDS[4 * i + 2 : 4 * i + 4]) for i, s in enumerate(seats)}
    )
    while table.hand.phase is not Phase.COMPLETE:
        table.press("fold")


def live(players: dict[int, str], button: int, profile: str = "tda-2024") -> RulesTable:
    table = RulesTable({s: 10_000 for s in players}, button=button, profile=profile)
    walk(table)
    return table


def stacks(*tables: RulesTable) -> int:
    return sum(s.stack for t in tables for s in t.session.table.seats)


def test_TDA24_11A_player_due_big_blind_next_moves_to_the_single_big_blind() -> None:
    a = live({s: f"P{s}" for s in range(1, 9)}, button=8)  # SB 1, BB 2: seat 3 is BB next
    b = live({s: f"P{s}" for s in (1, 2, 4, 5, 6)}, button=6)  # SB 1, BB 2; seat 3 open
    before = stacks(a, b)
    views = [view("A", table_state(a.session, a.t)), view("B", table_state(b.session, b.t))]
    (move,) = balance(views, T24)
    assert (move.source, move.seat, move.destination, move.to_seat) == ("A", 3, "B", 3)
    assert move.rule_ids == ("TDA2024-11A", "TDA2024-11C")
    a.command("unseat_player", seat=move.seat, player=move.player, stack=move.stack)
    b.command("seat_player", seat=move.to_seat, player=move.player, stack=move.stack)
    assert all(r["ok"] for r in a.replies() + b.replies())
    assert stacks(a, b) == before  # he took his chips with him
    b.press("hand_start")
    assert b.hand.big_blind_seat == 3 and b.hand.seat(3).player == "P3"  # single big blind
    a.press("hand_start")
    assert not a.hand.has_seat(3) and len(a.hand.seats) == 7


def test_TDA24_11A_never_moves_into_the_small_blind_and_waits_for_a_hand_in_play() -> None:
    # The short table's open seats: 3 (right after last hand's big blind) and 9.
    b = view("B", state({1, 2, 4, 5, 6, 7}, button=1, big_blind=2))
    a = view("A", state(set(range(1, 10)), button=5, big_blind=7))
    (move,) = balance([a, b], T24)
    assert (move.seat, move.to_seat) == (8, 3)  # seat 2 (next hand's small blind) is taken
    table = live({s: f"P{s}" for s in range(1, 10)}, button=9)
    table.press("hand_start")  # a hand in play: the move waits for it
    table.command("unseat_player", seat=3, player="P3")
    assert table.replies()[-1]["ok"] is False and "in the hand" in table.replies()[-1]["error"]
    table.command("unseat_player", seat=4, player="Somebody")
    assert table.replies()[-1]["ok"] is False  # a stale move cannot take another player


def test_ACE_11_EX1_balancing_by_count_back() -> None:
    # Case a: short table button 6, open seat 3 (count 5, 4, 3: n = 3); the source table's
    # nine players, button 2: count 1, 9, 8 -> seat 8 moves.
    short = view("T1", state({1, 2, 4, 5, 6, 7}, button=6))
    source = view("T2", state(set(range(1, 10)), button=2))
    assert count_back(short, source) == (3, 8)
    (move,) = balance([short, source], ACE)
    assert (move.source, move.seat, move.to_seat) == ("T2", 8, 3)
    assert move.rule_ids == ("ACE-11A", "ACE-11C")
    # Case b: n = 7; source seats 1-7, button 4: 3, 2, 1, 7, 6, 5, 4 is the button -> seat 3.
    short_b = view("T3", state({2, 3, 4, 5, 6, 7, 8}, button=8))
    source_b = view("T4", state(set(range(1, 8)), button=4))
    assert count_back(short_b, source_b) == (1, 3)
    # Contrast T24 (R11-A): the source's next big blind (seat 5, two players after the
    # button's big blind) moves, to the seat after the short table's big blind.
    t24 = balance([short, source], T24)[0]
    assert (t24.seat, t24.to_seat) == (5, 3)


def test_TDA24_11D_EX1_halting_play_when_3_short() -> None:
    most = view("B", state(set(range(1, 9))))
    # Hand N: button 2, SB 3, BB 4; the next big blind (seat 5) is occupied: play goes on.
    after_n = view("A", state({1, 2, 3, 4, 5}, button=2, big_blind=4))
    assert halts([after_n, most], T24) == []
    # Hand N+1: BB 5; the next big blind would reach open seat 6: play halts.
    (halt,) = halts([view("A", state({1, 2, 3, 4, 5}, button=3, big_blind=5)), most], T24)
    assert (halt.table, halt.short_by, halt.rule_ids) == ("A", 3, ("TDA2024-11D",))
    # Variant: table B has 7 players, 2 short: no halt.
    seven = view("B", state(set(range(1, 8))))
    assert halts([view("A", state({1, 2, 3, 4, 5}, button=3, big_blind=5)), seven], T24) == []


def test_NZ22_11D_D1_room_halts_three_short_without_the_blinds_condition() -> None:
    most = view("B", state(set(range(1, 9))))
    after_n = view("A", state({1, 2, 3, 4, 5}, button=2, big_blind=4))  # next BB occupied
    assert [h.rule_ids for h in halts([after_n, most], NZ)] == [("NZ2022-11D",)]
    assert [h.rule_ids for h in halts([after_n, most], T11)] == [("TDA2011-8",)]
    assert halts([after_n, most], T24) == []


def test_TDA24_10_EX1_breaking_table_seat_cards_in_playing_card_order() -> None:
    shown = {"P1": "Kh", "P2": "Ac", "P3": "Ks", "P4": "7d", "P5": "As"}
    assert seat_card_order(shown) == ["P5", "P2", "P3", "P1", "P4"]
    tables = [
        view("A", state({1, 2, 3, 4, 5})),
        view("B", state({1, 2, 3, 4, 5, 6})),
        view("C", state({1, 2, 3, 4, 5, 6, 7})),
    ]
    broken = break_table(tables, "A", T24, random.Random(4))
    assert broken.rule_ids == ("TDA2024-10",)
    assert [m.player for m in broken.moves] == seat_card_order(broken.playing_cards)
    landed = {(m.destination, m.to_seat) for m in broken.moves}
    assert len(landed) == 5 and landed <= {("B", 7), ("B", 8), ("B", 9), ("C", 8), ("C", 9)}
    counts = {"B": 6, "C": 7}
    for m in broken.moves:
        counts[m.destination] += 1
    assert sorted(counts.values()) == [9, 9]  # the tables stay balanced
    again = break_table(tables, "A", T24, random.Random(4))
    assert again == broken  # the draw comes from the seed: a replay gets the same seats


def test_NZ22_10_EX1_breaking_by_table_card_draw_moved_player_waits_for_the_button() -> None:
    tables = [view("A", state({1, 2, 3})), view("B", state({1, 2, 3, 4, 5, 6}))]
    broken = break_table(tables, "A", NZ, random.Random(1))
    assert broken.playing_cards == {} and broken.rule_ids == ("NZ2022-10",)
    assert sorted(m.player for m in broken.moves) == ["P1", "P2", "P3"]
    # At the new table a moved player between the small blind and the button waits for the
    # button to pass (R10): button 6, SB 1, BB 2 last hand -> next button 1, SB 2.
    table = live({1: "P1", 2: "P2", 3: "P3", 4: "P4", 6: "P6"}, button=6, profile="clubs-nz-2022")
    table.command("seat_player", seat=5, player="Moved", stack=10_000)
    table.command("seat_player", seat=7, player="Also", stack=10_000)
    assert all(r["ok"] for r in table.replies())
    table.press("hand_start")
    assert table.hand.has_seat(5) and table.hand.has_seat(7)  # not between SB and button
    walk_rest(table)
    table.command("unseat_player", seat=4, player="P4")
    table.command("seat_player", seat=4, player="Late", stack=10_000)
    table.press("hand_start")  # button 2, SB 3: seat 4 is after the SB -> dealt in
    assert table.hand.has_seat(4)


def walk_rest(table: RulesTable) -> None:
    seats = [s.seat for s in table.hand.seats]
    table.deal(
        {s: (CARDS[4 * i : 4 * i + 2], CARDS[4 * i + 2 : 4 * i + 4]) for i, s in enumerate(seats)}
    )
    while table.hand.phase is not Phase.COMPLETE:
        table.press("fold")


def test_TDA24_RP9_final_table_redraw_nine_T11_ten_ACE_resets_the_button() -> None:
    ten = [view("A", state({1, 2, 3, 4, 5})), view("B", state({1, 2, 3, 4, 5}))]
    assert final_table(ten, T24, random.Random(1)) is None  # two tables of five: not yet
    nine = [view("A", state({1, 2, 3, 4, 5})), view("B", state({1, 2, 3, 4}))]
    drawn = final_table(nine, T24, random.Random(1))
    assert drawn is not None and drawn.table == "A" and drawn.button is None  # R34: kept
    assert sorted(m.to_seat for m in drawn.moves) == list(range(1, 10))
    assert drawn.rule_ids == ("TDA2024-RP-9", "TDA2024-7")
    ten_seats = [view(t, state({1, 2, 3, 4, 5}, max_seats=10)) for t in "AB"]
    t11 = final_table(ten_seats, T11, random.Random(1))
    assert t11 is not None and len(t11.moves) == 10  # TDA 2011 R9: ten in flop games
    ace = final_table(nine, ACE, random.Random(1))
    assert ace is not None and ace.button in {m.to_seat for m in ace.moves}  # ACE R10


def test_ACE_8_EX1_late_arrival_stack_reduction_seated_at_the_table() -> None:
    levels = [(100, 200), (200, 400), (300, 600)]
    assert late_stack(10_000, levels[:1], ACE).stack == 9_700  # arrives during 200-400
    during_third = late_stack(10_000, levels[:2], ACE)
    assert (during_third.stack, during_third.rule_ids) == (9_100, ("ACE-8A",))
    assert "A30" in during_third.note  # the formula is an interpretation
    assert late_stack(10_000, levels[:2], T24).stack == 10_000  # TDA 2024 R8-A: full stack
    table = live({1: "P1", 2: "P2", 3: "P3"}, button=3, profile="ace-league")
    other = live({1: "P1", 2: "P2", 3: "P3", 4: "P4"}, button=4, profile="ace-league")
    views = [
        view("short", table_state(table.session, table.t)),
        view("full", table_state(other.session, other.t)),
    ]
    move = seat_late_entrant(views, "Late", during_third.stack, ACE, random.Random(2))
    assert move.destination == "short" and move.to_seat not in (1, 2, 3)
    table.command("seat_player", seat=move.to_seat, player="Late", stack=move.stack)
    seat = next(s for s in table_state(table.session, table.t)["seats"] if s["player"] == "Late")
    assert seat["stack"] == 9_100  # frozen at his arrival


def test_T24_8_D1_new_player_between_the_button_and_the_small_blind_waits() -> None:
    # Hand 1: button 2, SB 3, BB 5 (seat 4 empty). Next hand: button 3, SB 5, BB 6.
    table = live({1: "P1", 2: "P2", 3: "P3", 5: "P5", 6: "P6"}, button=2)
    table.command("seat_player", seat=4, player="New", stack=10_000)
    table.press("hand_start")
    assert (table.hand.button, table.hand.small_blind_seat) == (3, 5)
    assert not table.hand.has_seat(4)  # R8-A / R10-A: not dealt in between SB and button
    walk_rest(table)
    table.press("hand_start")  # the button has passed seat 4
    assert table.hand.has_seat(4)


def test_TDA24_11A_worst_position_is_the_open_seat_after_the_big_blind_not_the_lowest() -> None:
    # The short table's open seats are 2, 7, 8 and 9; last hand's big blind was seat 6, so
    # seat 7 takes the big blind next hand: the worst position (R11-A), though 2 is lower.
    source = live({s: f"P{s}" for s in range(1, 10)}, button=8)  # SB 9, BB 1: seat 2 next
    short = RulesTable({s: 10_000 for s in (1, 3, 4, 5, 6)}, button=4)  # SB 5, BB 6
    walk(short)
    assert {s.seat for s in short.session.table.seats} == {1, 3, 4, 5, 6}
    views = [view("A", table_state(source.session, source.t)),
             view("B", table_state(short.session, short.t))]
    move = balance(views, T24)[0]
    assert (move.source, move.seat, move.destination, move.to_seat) == ("A", 2, "B", 7)
    assert move.rule_ids == ("TDA2024-11A", "TDA2024-11C")
    source.command("unseat_player", seat=move.seat, player=move.player, stack=move.stack)
    short.command("seat_player", seat=move.to_seat, player=move.player, stack=move.stack)
    assert all(r["ok"] for r in source.replies() + short.replies())
    short.press("hand_start")
    assert short.hand.big_blind_seat == 7 and short.hand.seat(7).player == "P2"


def test_TDA24_RP9_seven_handed_event_final_table_of_seven() -> None:
    eight = [view(t, state({1, 2, 3, 4}, max_seats=7)) for t in "AB"]
    assert final_table(eight, T24, random.Random(1)) is None  # two tables of four: not yet
    seven = [view("A", state({1, 2, 3, 4}, max_seats=7)), view("B", state({1, 2, 3},
                                                                        max_seats=7))]
    drawn = final_table(seven, T24, random.Random(1))
    assert drawn is not None and sorted(m.to_seat for m in drawn.moves) == list(range(1, 8))
    assert drawn.rule_ids == ("TDA2024-RP-9", "TDA2024-7")


def test_TDA24_RP9_six_handed_event_final_table_of_seven_needs_a_seventh_seat() -> None:
    six_max = [view("A", state({1, 2, 3, 4}, max_seats=6)), view("B", state({1, 2, 3},
                                                                          max_seats=6))]
    with pytest.raises(ValueError, match=r"7 players do not fit table A.s 6 seats.*RP-9"):
        final_table(six_max, T24, random.Random(1))  # RP-9: 7-handed, not the 6 seats
    with_final = [six_max[0], view("B", state({1, 2, 3}, max_seats=7))]
    drawn = final_table(with_final, T24, random.Random(1))
    assert drawn is not None and drawn.table == "B"
    assert sorted(m.to_seat for m in drawn.moves) == list(range(1, 8))
    t11 = final_table([view(t, state({1, 2, 3, 4}, max_seats=6)) for t in "AB"], T11,
                      random.Random(1))
    assert t11 is None  # TDA 2011 R9: a six-handed game's final table is 7 players: 8 wait
