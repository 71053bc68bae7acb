"""Mixed games (issue #30): R11-B's frozen button through hold'em -> stud -> hold'em, the
player moved during stud, and the rotations by level and by orbit (RP-18: stud and stud/8
in any order). The clock's ``[mix]`` is tested in tests/room/test_clock_mix.py."""

from __future__ import annotations

import pytest

from pokertable.controller.engine import HandSetup, start_hand, step
from pokertable.controller.engine.cards import STANDARD_DECK
from pokertable.controller.engine.events import ActionKind, DealHole, PlayerAction
from pokertable.controller.engine.mixed_games import (
    ButtonPlan,
    after_stud_hand,
    button_at_game_change,
    frozen_positions,
    stud_hand,
)
from pokertable.controller.engine.model import AnteFormat, HandState, Level, Phase, Variant
from pokertable.controller.engine.rotation import (
    EIGHT_GAME,
    HORSE,
    Mix,
    Orbit,
    Rotation,
    mix_named,
)
from pokertable.controller.engine.seating import TableSeat, TableState, after_hand, next_hand
from pokertable.controller.rules.profiles import load_profile
from pokertable.room.seating import next_big_blind, view

LEVEL = Level(small_blind=50, big_blind=100, bring_in=50, ante=25,
              ante_format=AnteFormat.PER_PLAYER)
HOLDEM = Level(small_blind=50, big_blind=100)


def _fold_round(state: HandState) -> HandState:
    while state.phase is not Phase.COMPLETE:
        assert state.action_on is not None
        kind = ActionKind.BRING_IN if state.variant.is_stud and not state.call_to else (
            ActionKind.FOLD)
        state, rulings = step(state, PlayerAction(state.action_on, kind))
        assert all(r.kind != "rejected" for r in rulings), rulings
    return state


def _holdem(table: TableState, number: int, first_button: int | None = None) -> TableState:
    setup = next_hand(table, hand_id=f"h{number}", variant=Variant.FLHE, level=HOLDEM,
                      first_button=first_button)
    state, _ = start_hand(setup)
    return after_hand(table, _fold_round(state))


def _stud(table: TableState, number: int, variant: Variant = Variant.STUD) -> HandSetup:
    return stud_hand(table, hand_id=f"s{number}", variant=variant, level=LEVEL)


def _play_stud(table: TableState, setup: HandSetup) -> TableState:
    state, _ = start_hand(setup)
    deck = iter(sorted(STANDARD_DECK))
    for seat, _, _ in setup.players:
        state, _ = step(state, DealHole(seat, (next(deck), next(deck), next(deck))))
    return after_stud_hand(table, _fold_round(state))


def _table(*seats: int) -> TableState:
    return TableState(seats=tuple(TableSeat(s, f"p{s}", 10_000) for s in seats), max_seats=9)


def test_TDA24_11B_the_button_is_frozen_during_stud_and_resumes_where_frozen() -> None:
    """After the last hold'em hand the button moves to where the next hold'em hand has it
    and stays there for every stud hand (stud, razz, stud/8 in any order, RP-18); the
    first hold'em hand after stud starts there."""
    table = _holdem(_table(1, 3, 4, 6, 8), 1, first_button=1)
    table = _holdem(table, 2)
    assert table.button == 3
    frozen = frozen_positions(table, HOLDEM)
    assert frozen.button == 4 and frozen.big_blind_seat == 8
    assert button_at_game_change(Variant.FLHE, Variant.STUD) is ButtonPlan.FREEZE
    for number, variant in enumerate((Variant.STUD, Variant.RAZZ, Variant.STUD_HILO)):
        setup = _stud(table, number, variant)
        assert setup.button == frozen.button and setup.big_blind_seat == frozen.big_blind_seat
        assert {p[0] for p in setup.players} == {1, 3, 4, 6, 8}  # all dealt in
        table = _play_stud(table, setup)
    assert button_at_game_change(Variant.RAZZ, Variant.STUD_HILO) is ButtonPlan.STAYS_FROZEN
    assert button_at_game_change(Variant.STUD_HILO, Variant.FLHE) is ButtonPlan.RESUME
    resumed = next_hand(table, hand_id="h3", variant=Variant.FLHE, level=HOLDEM)
    assert (resumed.button, resumed.small_blind_seat, resumed.big_blind_seat) == (4, 6, 8)


def test_TDA24_11B_the_player_moved_during_stud_is_who_would_be_big_blind() -> None:
    """R11-B: balancing during stud moves the player who would be big blind if the game
    were hold'em; the stud hand carries him as its big blind, and the room's balancing
    (room/seating.next_big_blind) moves him from a stud table's published state."""
    table = _holdem(_table(2, 3, 5, 7), 1, first_button=2)
    setup = _stud(table, 1)
    table = _play_stud(table, setup)
    mover = frozen_positions(table, HOLDEM).big_blind_seat
    assert setup.big_blind_seat == mover == 7
    published = {"game": "F7S", "street": "complete", "button": setup.button,
                 "big_blind_seat": setup.big_blind_seat,
                 "seats": [{"seat": s.seat, "player": s.player, "stack": s.stack,
                            "status": "active"} for s in table.seats]}
    assert next_big_blind(view("t1", published)) == mover
    holdem = view("t1", {**published, "game": "FT"})  # a flop game: the seat after him
    assert next_big_blind(holdem) == 2
    table = _play_stud(table, _stud(table, 2))  # still him: the button does not move
    assert frozen_positions(table, HOLDEM).big_blind_seat == mover


def test_TDA24_11B_a_player_busted_during_stud_the_button_resumes_by_the_dead_button_rule(
) -> None:
    table = _holdem(_table(1, 2, 3, 4), 1, first_button=1)
    frozen = frozen_positions(table, HOLDEM)
    seats = tuple(s for s in table.seats if s.seat != frozen.small_blind_seat)
    table = TableState(seats=seats, max_seats=9, button=table.button,
                       small_blind_position=table.small_blind_position,
                       big_blind_seat=table.big_blind_seat,
                       big_blind_player=table.big_blind_player)  # he left during stud
    resumed = next_hand(table, hand_id="h2", variant=Variant.FLHE, level=HOLDEM)
    assert resumed.button == frozen.button and resumed.big_blind_seat == frozen.big_blind_seat


def test_TDA24_11B_cited_per_profile() -> None:
    assert load_profile("tda-2024").cite("mixed_game_button") == "TDA2024-11B"
    assert load_profile("tda-2011").cite("mixed_game_button") == "TDA2011-8"
    assert load_profile("clubs-nz-2022").cite("mixed_game_button") == "NZ2022-11B"


# --- rotations ------------------------------------------------------------------------------


def test_rotation_by_level_plays_the_next_game_of_the_mix_each_level() -> None:
    horse = mix_named("horse", Rotation.LEVEL)
    assert [horse.game_of_level(n) for n in range(1, 7)] == [*HORSE, "FT"]


def test_rotation_by_orbit_changes_game_after_as_many_hands_as_players_dealt() -> None:
    orbit = Orbit.start(mix_named("8-game", Rotation.ORBIT))
    games = []
    for players in (6, 6, 5, 5, 5, 5):  # a bust inside the orbit does not shorten it
        games.append(orbit.game)
        orbit = orbit.after_hand(players)
    assert games == ["F2L3D"] * 6 and orbit.game == EIGHT_GAME[1] and orbit.hands == 0


def test_dealers_choice_the_button_picks_each_orbits_game() -> None:
    orbit = Orbit.start(mix_named("dealers-choice", Rotation.ORBIT))
    assert orbit.game is None
    orbit = orbit.choose("FR")
    assert orbit.game == "FR"
    with pytest.raises(ValueError, match="before the orbit's first hand"):
        orbit.after_hand(3).choose("F7S")
    for _ in range(3):
        orbit = orbit.after_hand(3)
    assert orbit.game is None  # the next button picks again
    with pytest.raises(ValueError, match="not one of the games"):
        orbit.choose("XX")
    with pytest.raises(ValueError, match="rotation: dealer's choice"):
        mix_named("dealers-choice", Rotation.LEVEL)


def test_RP18_stud_and_stud8_need_not_be_consecutive() -> None:
    """RP-18: a house may keep stud and stud/8 apart; the mix takes any order."""
    mix = Mix(("F7S", "FT", "F7S/8", "FO/8", "FR"), Rotation.LEVEL)
    assert [mix.game_of_level(n) for n in (1, 2, 3)] == ["F7S", "FT", "F7S/8"]
