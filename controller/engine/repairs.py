"""Board repairs (R39, RP-5): a street's cards replaced, as an engine event with a history.

A four-card flop (R39-A), a flop dealt without a burn (R39-B) or a premature card
re-dealt (RP-5) ends with the street's cards replaced before anyone acted on them. The
repair is a public ``ReplaceBoard`` event: the journal and the hand history keep what was
replaced and why, instead of a board overwritten in place. Pure, like the engine.

>>> from pokertable.controller.engine import HandSetup, start_hand, step
>>> from pokertable.controller.engine.events import DealBoard, PlayerAction, ActionKind
>>> from pokertable.controller.engine.events import RepairReason
>>> from pokertable.controller.engine.model import Level, Street, Variant
>>> setup = HandSetup(hand_id="doc", variant=Variant.NLHE, level=Level(small_blind=50,
...     big_blind=100), button=2, small_blind_seat=2, big_blind_seat=1,
...     players=((1, "Ann", 1000), (2, "Bob", 1000)))
>>> state, _ = start_hand(setup)
>>> state, _ = step(state, PlayerAction(2, ActionKind.CALL))
>>> state, _ = step(state, PlayerAction(1, ActionKind.CHECK))
>>> state, _ = step(state, DealBoard(("As", "Kd", "7h")))
>>> state, rulings = step(state, ReplaceBoard(Street.FLOP, ("As", "Kd", "2c"),
...     RepairReason.FLOP_NO_BURN))
>>> state.board, state.board_repairs[0].replaced, rulings[0].rule_ids
(('As', 'Kd', '2c'), ('As', 'Kd', '7h'), ('TDA2024-39B',))
"""

from __future__ import annotations

from pokertable.controller.engine.cards import STANDARD_DECK
from pokertable.controller.engine.events import ReplaceBoard
from pokertable.controller.engine.model import BoardRepair, HandState, Phase, Street, evolve
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.rules import RuleProfile

__all__ = ["ReplaceBoard", "replace_board"]


def _reject(text: str, rule_id: str, code: str) -> tuple[Ruling, ...]:
    return (Ruling(RulingKind.REJECTED, (rule_id,), text, code=code),)


def _street_cards(state: HandState, street: Street) -> tuple[str, ...]:
    start = Street(street - 1).board_size if street > Street.FLOP else 0
    return state.board[start : street.board_size]


def check_repair(state: HandState, event: ReplaceBoard, rules: RuleProfile) -> tuple[Ruling, ...]:
    """Why the repair cannot be made (REJECTED rulings), or () when it can."""
    rule_id = rules.cite(str(event.reason))
    if state.phase is Phase.COMPLETE:
        return _reject("the hand is over: the board stands", rule_id, "repair_after_hand")
    if event.street is Street.PREFLOP or event.street != state.street:
        return _reject(
            f"only the current street's cards can be replaced (the {state.street.name.lower()}),"
            f" not the {event.street.name.lower()}",
            rule_id,
            "repair_wrong_street",
        )
    if any(a.street is event.street for a in state.actions):
        # R39-B: once anyone acted on the street, the cards stand.
        return _reject(
            f"action has occurred on the {event.street.name.lower()}: its cards stand",
            rule_id,
            "repair_after_action",
        )
    old = _street_cards(state, event.street)
    if len(event.cards) != len(old):
        return _reject(
            f"the {event.street.name.lower()} has {len(old)} card(s), the repair gave "
            f"{len(event.cards)}",
            rule_id,
            "repair_card_count",
        )
    unknown = [c for c in event.cards if c not in STANDARD_DECK]
    if unknown:
        return _reject(f"unknown card(s) {unknown}", rules.cite("nonstandard_card"), "unknown_card")
    kept = set(state.board) - set(old)
    in_hands = {c for s in state.seats for c in s.hole}
    dup = [c for i, c in enumerate(event.cards) if c in kept | in_hands or c in event.cards[:i]]
    if dup:
        return _reject(
            f"card(s) {dup} are already in play: fouled deck?",
            rules.cite("fouled_deck"),
            "duplicate_card",
        )
    return ()


def replace_board(
    state: HandState, event: ReplaceBoard, rules: RuleProfile
) -> tuple[HandState, tuple[Ruling, ...]]:
    """Replace the current street's cards; a refused repair leaves the state as it was."""
    refused = check_repair(state, event, rules)
    if refused:
        return state, refused
    old = _street_cards(state, event.street)
    start = len(state.board) - len(old)
    board = (*state.board[:start], *event.cards)
    rule_id = rules.cite(str(event.reason))
    repair = BoardRepair(event.street, old, tuple(event.cards), rule_id)
    state = evolve(state, board=board, board_repairs=(*state.board_repairs, repair))
    name = event.street.name.lower()
    return state, (
        Ruling(
            RulingKind.CORRECTED,
            (rule_id,),
            f"the {name} is repaired: {' '.join(event.cards)} replaces {' '.join(old)}",
            code="board_replaced",
        ),
    )
