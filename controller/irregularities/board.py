"""Board and burn readers: one burn per street (R38), irregular flops (R39), premature cards (RP-5).

A street's cards go to the engine (``DealBoard``) once all of them lie on the board. The
burn reader says whether the street had its one burn. Cards that land before the betting
round ended are premature: they are held back and the dealer is told the RP-5 procedure.
A fourth flop card before any flop action is a four-card flop: the floor is called and
the card the floor moves to the burn zone becomes the next burn (R39-A).
"""

from __future__ import annotations

from pokertable.controller.engine.cards import RANKS, SUITS
from pokertable.controller.engine.events import DealBoard, RepairReason, ReplaceBoard
from pokertable.controller.engine.model import HandState, Phase, Street, evolve
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.irregularities.alerts import alert, floor
from pokertable.controller.irregularities.dealing import close_deal
from pokertable.controller.irregularities.hand import Step, TrackedHand, apply_engine
from pokertable.controller.irregularities.killed import kill_hand
from pokertable.controller.irregularities.premature import burns_due_after, procedure
from pokertable.controller.rules import FlopIrregularity, RuleProfile

_PREMATURE = {Street.FLOP: "flop", Street.TURN: "turn", Street.RIVER: "river"}


def street_actions(hand: HandState, street: Street) -> int:
    return sum(1 for a in hand.actions if a.street is street)


def _next_street(hand: HandState) -> Street | None:
    return Street(hand.street + 1) if hand.street < Street.RIVER else None


def _with_burns(t: TrackedHand, street: Street, burns: int) -> TrackedHand:
    counts = list(t.board.burns)
    counts[street] = burns
    new = (counts[0], counts[1], counts[2], counts[3])
    return evolve(t, board=evolve(t.board, burns=new))


def _flop_repairable(t: TrackedHand) -> bool:
    return t.hand.street is Street.FLOP and street_actions(t.hand, Street.FLOP) == 0


def _card_rank(card: str) -> tuple[int, int]:
    return RANKS.index(card[0]), SUITS.index(card[1])


def _repair(
    t: TrackedHand, board: tuple[str, ...], reason: RepairReason, rules: RuleProfile
) -> tuple[TrackedHand | None, list[Ruling]]:
    """Replace the flop through the engine (a journaled ``ReplaceBoard``), never in place.

    The same three cards in another order need no repair. None: the engine refused it.
    """
    if set(board) == set(t.hand.board):
        return t, []
    flop = tuple(sorted(board, key=_card_rank, reverse=True))  # canonical order, as dealt
    repaired, said = apply_engine(t, ReplaceBoard(Street.FLOP, flop, reason), rules)
    if any(r.kind is RulingKind.REJECTED for r in said):
        return None, said
    return repaired, said


def burn_card(
    t: TrackedHand, card: str, from_board: bool, rules: RuleProfile, at_ms: int = 0
) -> Step:
    """A card arrived in the burn zone (``from_board``: it was just on the board)."""
    due = t.board.burn_due
    if due is not None and not from_board and at_ms - due[1] <= t.read_window_ms:
        # The street's board card was read first, within one read window: the readers'
        # order, not the dealer's. This is that street's burn.
        burns = t.board.burns[due[0]] + 1
        t = _with_burns(evolve(t, board=evolve(t.board, burn_due=None)), due[0], burns)
        return t, []
    if from_board and t.board.four_card_flop and _flop_repairable(t):
        board = t.ledger.in_zone("board")
        repaired, said = _repair(t, board, RepairReason.FOUR_CARD_FLOP, rules)
        if repaired is None:
            return t, said
        t = evolve(repaired, board=evolve(repaired.board, four_card_flop=False))
        t = _with_burns(t, Street.TURN, 1)
        return t, [
            *said,
            alert(
                rules,
                ("four_card_flop",),
                "four_card_flop_resolved",
                f"{card} is the next burn; the flop is {' '.join(board)} (R39-A). "
                "Do not burn again before the turn.",
                kind=RulingKind.INFO,
            )
        ]
    if from_board and t.board.flop_without_burn and _flop_repairable(t):
        t = _with_burns(t, Street.FLOP, 1)
        return t, [
            alert(
                rules,
                ("flop_no_burn",),
                "flop_no_burn_burned",
                f"{card} is the flop burn; complete the flop with the next card off "
                "the stub (R39-B)",
                kind=RulingKind.INFO,
            )
        ]
    nxt = _next_street(t.hand)
    if nxt is None:
        return t, [
            alert(
                rules,
                ("one_burn",),
                "burn_after_river",
                f"burn {card} read after the river: nothing is left to deal",
            )
        ]
    count = t.board.burns[nxt] + 1
    t = _with_burns(t, nxt, count)
    if nxt is Street.FLOP and count == 1:
        closing: list[Ruling] = []
        if not t.deal.closed:  # nobody acted (blinds all in): the flop burn ends the deal
            t, closing = close_deal(t, rules)
        t, folded = _button_short_at_flop(t, rules)
        if closing or folded:
            return t, [*closing, *folded]
    if count > t.board.burns_due[nxt]:
        which = "a second" if count == 2 else "an extra"
        return t, [
            alert(
                rules,
                ("one_burn",),
                "extra_burn",
                f"{which} burn ({card}) for the {nxt.name.lower()}: the burn is one "
                "card per street, never more (R38). Call the floor before dealing.",
            )
        ]
    return t, []


def _button_short_at_flop(t: TrackedHand, rules: RuleProfile) -> Step:
    """ACE R37: a short button must speak up before the burn and flop, else he is folded."""
    button = t.hand.button
    if not (
        rules.button_short_speak_before_flop
        and t.deal.button_short
        and t.hand.has_seat(button)
        and t.hand.seat(button).in_hand
    ):
        return t, []
    hand, out = kill_hand(t.hand, button, rules, refund_uncalled=True)
    t = evolve(t, hand=hand, killed=(*t.killed, button), deal=evolve(t.deal, button_short=False))
    return t, [
        alert(
            rules,
            ("button_short",),
            "button_short_folded",
            f"the button (seat {button}) still holds too few cards at the flop burn: he did not "
            "speak up before the burn and flop, so his hand is folded and play continues",
            seat=button,
            kind=RulingKind.BINDING,
        ),
        *out,
    ]


def board_card(t: TrackedHand, card: str, rules: RuleProfile, at_ms: int = 0) -> Step:
    """A new card landed on the board (already in the ledger)."""
    hand = t.hand
    on_board = t.ledger.in_zone("board")
    if (
        len(on_board) == 3
        and len(hand.board) == 3
        and _flop_repairable(t)
        and (set(on_board) != set(hand.board))
    ):
        # The flop was repaired (R39-B): one flop card became the burn, this one completes it.
        repaired, said = _repair(t, on_board, RepairReason.FLOP_NO_BURN, rules)
        if repaired is None:
            return t, said
        t = evolve(repaired, board=evolve(repaired.board, flop_without_burn=False))
        return t, [
            *said,
            alert(
                rules,
                ("flop_no_burn",),
                "flop_repaired",
                f"the flop is {' '.join(on_board)} (R39-B)",
                kind=RulingKind.INFO,
            )
        ]
    runout = t.read_window_ms and hand.phase is Phase.DEALING  # no flop betting: turn is due
    if (
        len(on_board) == 4
        and _flop_repairable(t)
        and t.board.burns[Street.TURN] == 0
        and not t.board.premature
        and not runout  # a turn read before its burn; no burn within the window is R38's
    ):
        t = evolve(t, board=evolve(t.board, four_card_flop=True))
        return t, [
            floor(
                rules,
                ("four_card_flop",),
                "four_card_flop",
                "Four cards on the flop: call the floor. Scramble the four cards face "
                "down; the floor picks one at random as the next burn and moves it to "
                "the burn; the other three are the flop (R39-A).",
                ("move_one_card_to_burn",),
            )
        ]
    if hand.phase is Phase.DEALING:
        if t.board.premature:
            step = procedure(rules.premature_cards_procedure, _next_street(hand) or Street.RIVER)
            return t, [
                alert(
                    rules,
                    ("premature_cards",),
                    "premature_still_out",
                    f"premature card(s) {' '.join(t.board.premature)} are still on the "
                    f"board: {step.still_out}; {card} is not dealt yet",
                )
            ]
        return _deal_street(t, card, on_board, rules, at_ms)
    if hand.phase is Phase.BETTING:
        nxt = _next_street(hand) or Street.RIVER
        step = procedure(rules.premature_cards_procedure, nxt)
        due = burns_due_after(t.board.burns_due, nxt, step)
        t = evolve(t, board=evolve(t.board, premature=(*t.board.premature, card), burns_due=due))
        name = _PREMATURE[nxt]
        return t, [
            alert(
                rules,
                ("premature_cards", "stub_reshuffle"),
                f"premature_{name}",
                f"Premature {name}: {card} was dealt before the betting round ended. {step.now}",
            )
        ]
    return t, [
        alert(
            rules,
            ("rabbit_hunting",),
            "board_card_no_street",
            f"board card {card} read when no street is due: take it off the board",
        )
    ]


def _deal_street(
    t: TrackedHand, card: str, on_board: tuple[str, ...], rules: RuleProfile, at_ms: int
) -> Step:
    nxt = _next_street(t.hand)
    if nxt is None:
        return t, []
    rulings: list[Ruling] = []
    first_card_of_street = len(on_board) == len(t.hand.board) + 1
    if first_card_of_street and t.board.burns[nxt] < t.board.burns_due[nxt]:
        if t.read_window_ms:
            # The burn may still be on its way through the readers: judged once the read
            # window has passed (``judge_burn``).
            t = evolve(t, board=evolve(t.board, burn_due=(nxt, at_ms)))
        else:
            t, rulings = _no_burn(t, nxt, rules)
    if len(on_board) == nxt.board_size:
        # The flop's cards land together and the antenna's read order is noise: deal them in
        # one canonical order (high card first), so a flop re-read after a restart looks the
        # same as it did the first time.
        new = tuple(
            sorted((c for c in on_board if c not in t.hand.board), key=_card_rank, reverse=True)
        )
        t, out = apply_engine(t, DealBoard(new), rules)
        rulings += out
    return t, rulings


def _no_burn(t: TrackedHand, nxt: Street, rules: RuleProfile) -> Step:
    """The street's first card landed and no burn came with it (R38, R39-B)."""
    rulings: list[Ruling] = []
    if nxt is Street.FLOP and rules.flop_irregularity is not FlopIrregularity.TDA_2024:
        # T11 R33 / NZ R39 prescribe only the 4-card flop: anything else is the floor's.
        t = evolve(t, board=evolve(t.board, flop_without_burn=True))
        rulings.append(
            floor(
                rules,
                ("flop_no_burn",),
                "flop_no_burn_floor",
                "The flop is being dealt without a burn. These rules prescribe "
                "no remedy: the floor decides whether to scramble and re-burn "
                "or to play the flop as dealt.",
                ("scramble_and_reburn", "play_as_dealt"),
            )
        )
    elif nxt is Street.FLOP:
        t = evolve(t, board=evolve(t.board, flop_without_burn=True))
        rulings.append(
            alert(
                rules,
                ("flop_no_burn", "one_burn"),
                "flop_no_burn",
                "The flop is being dealt without a burn. If no action has "
                "occurred on the flop: scramble the three flop cards face "
                "down, pick one as the burn (move it to the burn), and complete "
                "the flop with the next stub card. If any action (even one "
                "check) occurs first, play proceeds with these cards and only "
                "one card is burned for the turn (R39-B).",
            )
        )
    else:
        rulings.append(
            alert(
                rules,
                ("one_burn",),
                "missing_burn",
                f"the {nxt.name.lower()} was dealt without a burn: one burn "
                "per street (R38); call the floor",
            )
        )
    return t, rulings


def judge_burn(t: TrackedHand, rules: RuleProfile, at_ms: int) -> Step:
    """Decide a street's burn once the read window after its first card has passed; a flop
    already acted on stands (R39-B)."""
    due = t.board.burn_due
    if due is None or at_ms - due[1] <= t.read_window_ms:
        return t, []
    t = evolve(t, board=evolve(t.board, burn_due=None))
    if t.board.burns[due[0]] >= t.board.burns_due[due[0]]:
        return t, []
    t, rulings = _no_burn(t, due[0], rules)
    t, stands = after_action(t, rules)
    return t, rulings + stands


def board_card_removed(t: TrackedHand, card: str, rules: RuleProfile) -> Step:
    """A card left the board: a premature card going back, or a flop repair (R39)."""
    if card in t.board.premature:
        left = tuple(c for c in t.board.premature if c != card)
        t = evolve(t, board=evolve(t.board, premature=left))
        if left:
            return t, []
        step = procedure(rules.premature_cards_procedure, _next_street(t.hand) or Street.RIVER)
        return t, [
            alert(
                rules,
                ("premature_cards", "stub_reshuffle"),
                "premature_returned",
                step.returned,
                kind=RulingKind.INFO,
            )
        ]
    if (t.board.four_card_flop or t.board.flop_without_burn) and _flop_repairable(t):
        return t, []  # on its way to the burn zone
    if t.over:
        return t, []
    return t, [
        alert(
            rules,
            ("reader_fault",),
            "board_card_removed",
            f"board card {card} left the board during play: put it back; call the "
            "floor if it cannot be identified",
        )
    ]


def after_action(t: TrackedHand, rules: RuleProfile) -> Step:
    """R39-B: once anyone acts on a flop dealt without a burn, the flop stands."""
    if t.board.flop_without_burn and street_actions(t.hand, Street.FLOP) > 0:
        t = evolve(t, board=evolve(t.board, flop_without_burn=False))
        if rules.flop_irregularity is not FlopIrregularity.TDA_2024:
            return t, []
        return t, [
            alert(
                rules,
                ("flop_no_burn",),
                "flop_no_burn_stands",
                "action has occurred on the flop dealt without a burn: play proceeds "
                "with these cards; burn only one card for the turn (R39-B)",
                kind=RulingKind.INFO,
            )
        ]
    return t, []
