"""Premature board cards (RP-5): each rulebook's procedure, as data.

A profile's ``premature_cards_procedure`` names one of these tables; the board tracker
(``board.py``) tells the dealer the street's instruction and expects the burns it sets,
so a burn the procedure calls for is not flagged as R38's extra burn and a street it deals
without a burn is not flagged as a missing one.

TDA 2024 RP-5 A-C: the burn stays as that street's burn, the premature card goes back into
the stub, the stub is reshuffled, the street is dealt without another burn. Clubs NZ 2022
RP-5-B differs for the turn only: the premature turn is put to the side, another card is
burned for the turn, and after the turn betting the set-aside card goes back into the stub,
which is reshuffled, and the river is dealt without a burn. TDA 2011 has no procedure (the
floor decides, Rule 1); the table still tells the dealer the usual one.

>>> from pokertable.controller.rules import PrematureCards
>>> nz = procedure(PrematureCards.SET_ASIDE_NZ, Street.TURN)
>>> (nz.letter, nz.burns_redealt, nz.burns_after)
('B', 2, 0)
>>> procedure(PrematureCards.RESHUFFLE_NO_BURN, Street.TURN).burns_redealt
1
"""

from __future__ import annotations

from dataclasses import dataclass

from pokertable.controller.engine.model import Street
from pokertable.controller.rules import PrematureCards

_NAMES = {Street.FLOP: "flop", Street.TURN: "turn", Street.RIVER: "river"}


@dataclass(frozen=True, slots=True)
class PrematureProcedure:
    """What RP-5 tells the dealer for one street's premature card(s)."""

    letter: str  # RP-5 paragraph
    now: str  # the dealer's instruction when the premature card is read
    returned: str  # once the card is off the board
    still_out: str  # the next street is due and the premature card is still on the board
    burns_redealt: int = 1  # burns the re-dealt street has in all (the premature burn counts)
    burns_after: int = 1  # burns of the street after it


def _reshuffle(street: Street, letter: str) -> PrematureProcedure:
    name = _NAMES[street]
    return PrematureProcedure(
        letter,
        f"Leave the burn as the {name} burn; return the premature card(s) to the stub and "
        "reshuffle the stub face down; after the round ends deal the "
        f"{name} without another burn (RP-5-{letter}, R39-D).",
        "premature card(s) back in the stub: reshuffle the stub face down; deal the street "
        "without another burn once the betting round ends (RP-5)",
        "return them to the stub and reshuffle before dealing (RP-5)",
    )


_TDA = {
    Street.FLOP: _reshuffle(Street.FLOP, "A"),
    Street.TURN: _reshuffle(Street.TURN, "B"),
    Street.RIVER: _reshuffle(Street.RIVER, "C"),
}
_NZ_TURN = PrematureProcedure(
    "B",
    "Take the premature turn off the board and put it to the side. When the flop round "
    "ends, burn another card and deal the next card as the turn. After the turn round, put "
    "the set-aside card back in the stub, reshuffle the stub and deal the river without "
    "another burn (RP-5-B).",
    "premature turn set aside: when the flop round ends burn another card and deal the "
    "turn; after the turn round reshuffle it into the stub and deal the river without a "
    "burn (RP-5-B)",
    "put it to the side, burn another card and deal the turn (RP-5-B)",
    burns_redealt=2,
    burns_after=0,
)
PROCEDURES: dict[PrematureCards, dict[Street, PrematureProcedure]] = {
    PrematureCards.RESHUFFLE_NO_BURN: _TDA,
    PrematureCards.SET_ASIDE_NZ: {**_TDA, Street.TURN: _NZ_TURN},
    PrematureCards.FLOOR: _TDA,
}


def procedure(rule: PrematureCards, street: Street) -> PrematureProcedure:
    return PROCEDURES[rule][street]


def burns_due_after(
    burns_due: tuple[int, int, int, int], street: Street, step: PrematureProcedure
) -> tuple[int, int, int, int]:
    """The burns each street should have once ``street``'s premature card is handled."""
    due = list(burns_due)
    due[street] = step.burns_redealt
    if street < Street.RIVER:
        due[street + 1] = step.burns_after
    return (due[0], due[1], due[2], due[3])
