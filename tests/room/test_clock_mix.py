"""The clock's ``[mix]`` (issue #30): a mixed-game event's games by level or by orbit,
named mixes (HORSE, 8-game, dealer's choice), RP-18's free order of stud and stud/8, the
stud levels' bring-in, and every bad value refused naming its field."""

from __future__ import annotations

import pytest

from pokertable.controller.engine.rotation import HORSE
from pokertable.room.clock import StructureError, TournamentClock, parse_structure


def test_RP18_a_structure_may_keep_stud_and_stud8_apart() -> None:
    structure = parse_structure(_STRUCTURE.replace('games = "horse"',
                                                   'games = ["F7S", "FT", "F7S/8"]'))
    assert [s.game for s in structure if not s.is_break] == ["F7S", "FT", "F7S/8"]


_STEP = """
[[step]]
small_blind = 100
big_blind = 200
bring_in = 50
ante = 30
minutes = 20
"""

_STRUCTURE = """
[mix]
games = "horse"
rotation = "level"
""" + _STEP * 3


def test_a_structure_mix_by_level_gives_each_level_its_game_and_bring_in() -> None:
    structure = parse_structure(_STRUCTURE)
    assert [s.game for s in structure] == ["FT", "FO/8", "FR"]
    assert structure[2].level_payload()["bring_in"] == 50
    assert "rotation" not in structure[0].level_payload()


def test_a_structure_mix_by_orbit_tells_the_tables_the_rotation() -> None:
    text = _STRUCTURE.replace('rotation = "level"', 'rotation = "orbit"').replace(
        "ante = 30", "stud_ante = 30")
    structure = parse_structure(text)
    clock = TournamentClock.start(structure, now_ms=0)
    level = clock.display(now_ms=0)["level"]
    assert "game" not in level and level["stud_ante"] == 30
    assert level["rotation"] == {"by": "orbit", "games": list(HORSE), "dealers_choice": False}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (('games = "horse"', 'games = "hose"'), "mix.games: unknown mix 'hose'"),
        (('games = "horse"', 'games = ["FT", "XX"]'), "mix.games: unknown game(s) ['XX']"),
        (('rotation = "level"', 'rotation = "hand"'), "mix.rotation: Input should be"),
        (('games = "horse"\nrotation = "level"', 'games = "dealers-choice"'),
         "mix.rotation: dealer's choice is chosen orbit by orbit"),
        ((_STEP * 3, _STEP * 2 + _STEP.replace("bring_in = 50\n", "")),
         "step 3.bring_in: a level with a stud game needs a bring-in"),
        (("bring_in = 50", "bring_in = 500"), "step 1: Value error, bring_in must not be"),
    ],
)
def test_a_bad_mix_is_refused_naming_the_field(change: tuple[str, str], message: str) -> None:
    with pytest.raises(StructureError) as error:
        parse_structure(_STRUCTURE.replace(*change, 1))
    assert message in str(error.value)
