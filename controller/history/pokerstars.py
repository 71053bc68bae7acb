"""Hands as PokerStars-style tournament hand histories: the text poker trackers import.

PokerTracker, Hold'em Manager and the hand-history parsers read PokerStars' English text
(docs/tournament-server.md shows a whole hand). Each hand is written from the engine's
replay of its PHH (``history.tracker``), so every post, call, raise, uncalled bet and pot is
the engine's. The shape follows PokerStars' own files line for line:

- the header: ``PokerStars Hand #<game>: Tournament #<number>, Freeroll  Hold'em No Limit -
  Level IV (100/200) - 2026/11/27 13:53:27 UTC`` (live chips carry no buy-in in the text;
  the number is ``game_number``: digits, as trackers read them);
- ``Table '<tournament> <table>' 6-max Seat #3 is the button``: a dead button (R32) names
  its empty seat, as PokerStars does;
- the seats with their stacks, the antes and blinds posted (a dead small blind is simply
  not posted), ``*** HOLE CARDS ***`` and a ``Dealt to`` line for every hand the archive
  read (a tracker treats each as a known hand; ``hero`` keeps only one player's);
- the actions, with ``raises X to Y`` and ``and is all-in``, each street's ``*** FLOP ***``
  line, ``Uncalled bet (X) returned to``, ``*** SHOW DOWN ***``, ``collected X from pot``
  (main pot, side pot-N);
- ``*** SUMMARY ***`` with the total pot, the board and a line per seat.

A board repair (R39) has no PokerStars notation: the text deals the cards that stood.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable

from pokertable.controller.engine.model import Street, Variant
from pokertable.controller.history.tracker import ExportContext, FinishedHand

_GAMES = {
    Variant.NLHE: "Hold'em No Limit",
    Variant.PLO: "Omaha Pot Limit",
    Variant.FLHE: "Hold'em Limit",
}
_HANDS = {  # the engine's category names as PokerStars words them
    "High Card": "high card",
    "Pair": "a pair",
    "Two Pair": "two pair",
    "Trips": "three of a kind",
    "Straight": "a straight",
    "Flush": "a flush",
    "Full House": "a full house",
    "Quads": "four of a kind",
    "Straight Flush": "a straight flush",
}
_STREET_NAMES = {Street.FLOP: "FLOP", Street.TURN: "TURN", Street.RIVER: "RIVER"}
_ROMAN = (
    (1000, "M"),
    (900, "CM"),
    (500, "D"),
    (400, "CD"),
    (100, "C"),
    (90, "XC"),
    (50, "L"),
    (40, "XL"),
    (10, "X"),
    (9, "IX"),
    (5, "V"),
    (4, "IV"),
    (1, "I"),
)


def roman(number: int) -> str:
    """PokerStars writes tournament levels in Roman numerals.

    >>> roman(14)
    'XIV'
    """
    out = ""
    for value, letters in _ROMAN:
        while number >= value:
            out += letters
            number -= value
    return out


def game_number(venue: str, table: str, session: str, hand_number: int) -> int:
    """A stable number for one hand: trackers key hands on PokerStars' digits.

    The same hand always gets the same number (a re-export does not duplicate hands in a
    tracker's database); ``table``'s hand number leads so a table's hands sort in order."""
    tag = zlib.crc32(f"{venue}/{table}/{session}".encode()) % 1_000_000
    return hand_number * 1_000_000 + tag


def _cards(cards: Iterable[str]) -> str:
    return "[" + " ".join(cards) + "]"


def hand_to_pokerstars(
    hand: FinishedHand, context: ExportContext, number: int, *, hero: str | None = None
) -> str:
    """One hand as PokerStars text (no trailing blank lines; ``join_hands`` adds them)."""
    end = hand.end
    name = {s.seat: s.player for s in end.seats}
    level = end.level
    game = _GAMES[end.variant]
    when = hand.when.strftime(" - %Y/%m/%d %H:%M:%S UTC") if hand.when else ""
    level_text = f" - Level {roman(hand.level_number)}" if hand.level_number else ""
    stakes = f"{level.small_blind}/{level.big_blind}"
    if end.variant is Variant.FLHE:  # a limit game is named by its bets, as PokerStars does
        stakes = f"{level.big_blind}/{2 * level.big_blind}"
    lines = [
        f"PokerStars Hand #{number}: Tournament #{context.tournament}, Freeroll  {game}"
        f"{level_text} ({stakes}){when}",
        f"Table '{context.tournament} {hand.table}' {hand.seat_count}-max "
        f"Seat #{hand.button_seat} is the button",
    ]
    seats = hand.by_table_seat()
    for s in seats:
        lines.append(
            f"Seat {hand.seat_of(s.seat)}: {s.player} ({hand.starting_stack(s.seat)} in chips)"
        )
    for s in seats:
        if hand.ante(s.seat):
            lines.append(f"{s.player}: posts the ante {hand.ante(s.seat)}")
    small, big = end.small_blind_seat, end.big_blind_seat
    for seat, what in ((small, "small"), (big, "big")):
        if seat is not None and hand.blind(seat):
            stack_after = hand.starting_stack(seat) - hand.ante(seat) - hand.blind(seat)
            all_in = " and is all-in" if stack_after == 0 else ""
            lines.append(f"{name[seat]}: posts {what} blind {hand.blind(seat)}{all_in}")
    lines.append("*** HOLE CARDS ***")
    for s in sorted(end.seats, key=lambda s: s.seat):  # dealt from the small blind round
        if s.hole and (hero is None or s.player == hero):
            lines.append(f"Dealt to {s.player} {_cards(s.hole)}")
    streets = hand.streets()
    last_street = max((st for st, _, acts in streets if acts), default=Street.PREFLOP)
    for street, dealt, actions in streets:
        if street is not Street.PREFLOP:
            before = end.board[: Street(street - 1).board_size]
            shown_before = f" {_cards(before)}" if street is not Street.FLOP else ""
            lines.append(f"*** {_STREET_NAMES[street]} ***{shown_before} {_cards(dealt)}")
        for played in actions:
            a, put, high = played.action, played.put, played.high
            all_in = " and is all-in" if a.all_in else ""
            who = name[a.seat]
            if a.kind == "fold":
                lines.append(f"{who}: folds")
            elif a.kind == "check":
                lines.append(f"{who}: checks")
            elif a.kind == "call":
                lines.append(f"{who}: calls {put}{all_in}")
            elif a.kind == "bet":
                lines.append(f"{who}: bets {put}{all_in}")
            else:
                lines.append(f"{who}: raises {a.to - high} to {a.to}{all_in}")
        if street is last_street:
            for seat, amount in end.returned:
                lines.append(f"Uncalled bet ({amount}) returned to {name[seat]}")
    live = [s for s in end.seats if s.in_hand]
    pots = end.pots
    if len(live) > 1:
        lines.append("*** SHOW DOWN ***")
        for s in live:
            if s.shown and s.hole:
                lines.append(f"{s.player}: shows {_cards(s.hole)} ({_hand(hand, s.seat)})")
            else:
                lines.append(f"{s.player}: mucks hand")
    for award in end.awards:
        pot = _pot_name(award.pot_index, len(pots))
        lines.append(f"{name[award.seat]} collected {award.amount} from {pot}")
    lines.append("*** SUMMARY ***")
    total = sum(p.amount for p in pots)
    split = ""
    if len(pots) > 1:
        split = f" Main pot {pots[0].amount}." + "".join(
            f" {_pot_name(i, len(pots)).capitalize()} {p.amount}." for i, p in enumerate(pots) if i
        )
    lines.append(f"Total pot {total}{split} | Rake 0")
    if end.board:
        lines.append(f"Board {_cards(end.board)}")
    for s in seats:
        lines.append(
            f"Seat {hand.seat_of(s.seat)}: {s.player}{_role(hand, s.seat)} "
            f"{_outcome(hand, s.seat, len(live) > 1)}"
        )
    return "\n".join(lines)


def _hand(hand: FinishedHand, seat: int) -> str:
    name = hand.hand_name(seat)
    return _HANDS.get(name, name) or "no hand"


def _pot_name(index: int, count: int) -> str:
    if count == 1:
        return "pot"
    if index == 0:
        return "main pot"
    return "side pot" if count == 2 else f"side pot-{index}"


def _role(hand: FinishedHand, seat: int) -> str:
    end = hand.end
    role = ""
    if hand.seat_of(seat) == hand.button_seat:
        role += " (button)"
    if seat == end.small_blind_seat:
        role += " (small blind)"
    if seat == end.big_blind_seat:
        role += " (big blind)"
    return role


def _outcome(hand: FinishedHand, seat: int, showdown: bool) -> str:
    state = hand.end.seat(seat)
    won = hand.won(seat)
    folded_on = hand.fold_street(seat)
    if not state.in_hand:
        if folded_on is None or folded_on is Street.PREFLOP:
            acted = any(a.seat == seat and a.chips_in for a in hand.end.actions)
            blind = hand.blind(seat) > 0
            return "folded before Flop" + ("" if acted or blind else " (didn't bet)")
        return f"folded on the {folded_on.name.capitalize()}"
    if showdown and state.shown and state.hole:
        cards = _cards(state.hole)
        name = _hand(hand, seat)
        if won:
            return f"showed {cards} and won ({won}) with {name}"
        return f"showed {cards} and lost with {name}"
    if won:
        return f"collected ({won})"
    return "mucked"


def join_hands(texts: Iterable[str]) -> str:
    """Hands in one file as PokerStars writes them: each followed by blank lines."""
    return "".join(f"{text}\n\n\n" for text in texts)
