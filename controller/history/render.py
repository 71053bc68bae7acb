"""Hands as PHH text, from the engine's own record: pure functions, no journal, no session.

``hand_to_phh`` writes one hand (the setup it was dealt with, its actions, board and shown
cards), ``render_phh`` and ``time_fields`` lay out the fields, ``replayed_stacks`` checks a
text by replaying it through the engine (``history.replay``). The table's export
(``app/journal_export.py``) and the room's archive (``room/hand_archive.py``) both use them.

PHH lists players in position order (``history.phh``): p1 the small blind, the last
player the button; heads-up p1 the big blind and p2 the button. With a dead small blind
(R32: last hand's big blind has left, nobody sits in the small-blind position) p1 is the
first player after the button, who posts the big blind: ``blinds_or_straddles`` reads
``[200, 0, ...]``, which PHH readers such as PokerKit play in the right order (p2 opens,
p1 closes the first round and opens the others). The small blind the level would have had
goes in the user-defined field ``_dead_small_blind`` (PHH: fields named with a leading
underscore are the writer's own; readers ignore them); a pot-limit preflop raise counts it.
A dead button (on an empty seat) needs nothing to replay: p1 and p2 post the blinds as
usual; the user-defined field ``_button_seat`` says which empty seat had it, for the tracker
formats (``history.tracker``), which name the button's seat.

Fields from the PHH spec's optional ones: ``level`` (the blind level's number), ``event``
(the tournament, when the caller names it), ``winnings`` (chips each player won from the
pots; an uncalled bet given back is not won), ``hand``, ``table``, ``seats``, the date and
time of the hand's start in UTC. A board repair (R39, RP-5: a four-card flop, a flop dealt
without a burn) has no PHH action: the street is written as dealt at the end (``d db``
with the cards that stood, which is what every reader replays), the action carries a PHH
comment (``# repaired R39-A: replaced 7c9hTh``) and the user-defined field
``_board_repairs`` lists each repair as ``"<street> <replaced> <cards> <rule id>"``.
The reader (``history.phh``) still takes the older pokertable action ``d rb``.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, time
from typing import Any

from pokertable.controller.engine import HandSetup, start_hand
from pokertable.controller.engine.cards import RANKS, SUITS
from pokertable.controller.engine.model import (
    AnteFormat,
    Betting,
    HandState,
    Phase,
    SeatState,
    Street,
)
from pokertable.controller.errors import ControllerError
from pokertable.controller.rules import TDA_2024, RuleProfile


class ExportError(ControllerError, ValueError):
    """A hand a hand-history format cannot express, or a file that is not one."""


DEAD_SMALL_BLIND = "_dead_small_blind"  # our user-defined PHH fields (see the module doc)
BUTTON_SEAT = "_button_seat"
BOARD_REPAIRS = "_board_repairs"
EXPOSED_CARDS = "_exposed_cards"  # stud: "<player> <card>" exposed by the dealer (RP-10-A/B)
PHH_LIMITS = "_phh_limits"  # "<rule id>: ..." what PokerKit cannot replay as the table played
_PHH_KIND = {"fold": "f", "check": "cc", "call": "cc", "bring_in": "pb"}


def action_words(hand: HandState, start: HandState) -> list[str]:
    """Each of ``hand.actions`` as PHH words: ``f``, ``cc``, ``pb``, ``cbr <to>``.

    A bet or raise that nobody left in the hand can call beyond the bet it raises (every
    other player all in for that or less) is written ``cc`` with a comment: its chips over
    the call come back uncalled, and PHH readers refuse it as a raise (PokerKit: "no reason
    to raise"), which the table does not. ``start`` is the hand after its forced bets."""
    behind = {s.seat: s.stack + s.bet for s in start.seats}  # chips for this street's bets
    bets = {s.seat: s.bet for s in start.seats}
    folded: set[int] = set()
    street = start.street
    words = []
    for a in hand.actions:
        if a.street is not street:
            behind = {n: behind[n] - bets[n] for n in behind}
            bets = dict.fromkeys(bets, 0)
            street = a.street
        high = max(bets.values())
        word = _PHH_KIND.get(a.kind, f"cbr {a.to}")
        if a.kind in ("bet", "raise") and not any(
            behind[n] > high for n in behind if n != a.seat and n not in folded
        ):
            word = f"cc # {a.kind} to {a.to}: nobody left can call more than {high}"
        words.append(word)
        if a.kind == "fold":
            folded.add(a.seat)
        elif a.kind != "check":
            bets[a.seat] = a.to
    return words


def position_order(hand: HandState) -> tuple[SeatState, ...]:
    """Dealt-in seats as PHH orders them; raises ExportError when PHH cannot say it."""
    if hand.variant.is_stud:  # no button: players in seat order (``history.phh``)
        return hand.seats
    if len(hand.seats) == 2:
        big = hand.seat(hand.big_blind_seat)
        other = next(s for s in hand.seats if s.seat != big.seat)
        if hand.small_blind_seat not in (None, other.seat):
            raise ExportError(f"hand {hand.hand_id}: heads-up small blind is not the button")
        return (big, other)
    order = hand.seats_clockwise_from(hand.button)
    if hand.small_blind_seat is None:
        # Dead small blind: nobody in its position (p1 the big blind), or a player dealt
        # in there who posts nothing (p1 posts 0, p2 the big blind).
        if hand.big_blind_seat not in (order[0].seat, order[1].seat):
            raise ExportError(
                f"hand {hand.hand_id}: dead small blind, but seats {order[0].seat} and "
                f"{order[1].seat} sit between the button and the big blind"
            )
        return order
    if (order[0].seat, order[1].seat) != (hand.small_blind_seat, hand.big_blind_seat):
        raise ExportError(f"hand {hand.hand_id}: blinds are not the two seats after the button")
    return order


def _antes(setup: HandSetup, hand: HandState, order: tuple[SeatState, ...]) -> list[int]:
    level = hand.level
    if setup.antes_by_seat is not None:
        by_seat = dict(setup.antes_by_seat)
    elif level.ante_format is AnteFormat.PER_PLAYER:
        by_seat = {s.seat: level.ante for s in order}
    elif level.ante_format is AnteFormat.BIG_BLIND_ANTE:
        by_seat = {hand.big_blind_seat: level.ante}
    else:
        by_seat = {}
    antes = [by_seat.get(s.seat, 0) for s in order]
    # Heads-up PokerKit reads antes like blinds, [small blind's, big blind's]: p2's first.
    return antes[::-1] if len(order) == 2 else antes


def _actions(
    hand: HandState, order: tuple[SeatState, ...], public: bool, words: list[str]
) -> list[str]:
    player = {s.seat: f"p{i + 1}" for i, s in enumerate(order)}
    lines = []
    for s in order:
        known = s.hole and (s.shown or not public)
        cards = "".join(s.hole) if known else "??" * hand.variant.hole_cards
        lines.append(f"d dh {player[s.seat]} {cards}")
    repaired = {r.street: r for r in hand.board_repairs}  # the last repair of a street
    for street in Street:
        if street is Street.SEVENTH:  # stud's fifth round: no board street
            break
        if street is not Street.PREFLOP:
            dealt = hand.board[Street(street - 1).board_size : street.board_size]
            if len(dealt) < street.board_size - Street(street - 1).board_size:
                break
            repair = repaired.get(street)
            note = (
                f" # repaired {repair.rule_id}: replaced {''.join(repair.replaced)}"
                if repair is not None
                else ""
            )
            lines.append(f"d db {''.join(dealt)}{note}")
        for a, word in zip(hand.actions, words, strict=True):
            if a.street is street:
                lines.append(f"{player[a.seat]} {word}")
    return lines + showdown_actions(hand, order, public)


def discard_order(cards: Sequence[str]) -> tuple[str, ...]:
    """A player's discards as PHH writes them: by rank, then suit, whatever order they
    reached the muck in (which only the table saw: the room's archive writes the same).

    >>> discard_order(["Kd", "2s", "Kc"])
    ('2s', 'Kc', 'Kd')
    """
    return tuple(sorted(cards, key=lambda c: (RANKS.index(c[0]), SUITS.index(c[1]))))


def dealt_before_draws(
    hole: Sequence[str], draws: Sequence[tuple[str, Sequence[str]]]
) -> list[str]:
    """The cards first dealt to a seat, as PHH writes them: his last hand with the draws
    (``("sd", discards)``, ``("dh", new cards)``, oldest first) undone, newest first, each
    draw's discards back at the end in ``discard_order``.

    >>> dealt_before_draws(["2c", "7s", "4h", "9s"], [("sd", ["Kd", "Kc"]), ("dh", ["4h", "9s"])])
    ['2c', '7s', 'Kc', 'Kd']
    """
    dealt = list(hole)
    for kind, cards in reversed(draws):
        dealt = ([c for c in dealt if c not in cards] if kind == "dh"
                 else [*dealt, *discard_order(cards)])
    return dealt


def _draw_actions(
    hand: HandState, order: tuple[SeatState, ...], public: bool, words: list[str]
) -> list[str]:
    """A draw game's actions: the deal, then each betting round followed by its draw, every
    player's ``sd`` (his discards, none to stand pat) in turn, then his new cards.

    ``public``: discards and drawn cards are never seen at the table, so every card of the
    deal and the draws is ``??`` and a tabled hand is known only from its ``sm``."""
    player = {s.seat: f"p{i + 1}" for i, s in enumerate(order)}
    log = hand.draw.log if hand.draw is not None else ()
    lines = []
    for s in order:
        dealt = dealt_before_draws(s.hole, [(k, c) for _, seat, k, c in log if seat == s.seat])
        lines.append(f"d dh {player[s.seat]} {'??' * len(dealt) if public else ''.join(dealt)}")
    for street in Street:
        lines += [
            f"{player[a.seat]} {word}"
            for a, word in zip(hand.actions, words, strict=True)
            if a.street is street
        ]
        draw = [e for e in log if e[0] == street + 1]
        for kinds in ("sd", "dh"):
            for _, seat, kind, cards in draw:
                if kind != kinds:
                    continue
                if kind == "sd":
                    cards = discard_order(cards)
                shown = "??" * len(cards) if public else "".join(cards)
                word = "d dh " + player[seat] if kind == "dh" else player[seat] + " sd"
                lines.append(f"{word} {shown}".rstrip())
        if street is hand.variant.last_street:
            break
    return lines + showdown_actions(hand, order, public)


def stud_fields(setup: HandSetup, hand: HandState) -> list[tuple[str, Any]]:
    """A stud hand's forced bets as PHH (and PokerKit) write them: antes per player in seat
    order and the bring-in; no blinds."""
    level = hand.level
    by_seat = dict(setup.antes_by_seat) if setup.antes_by_seat is not None else {}
    antes = [by_seat.get(s.seat, level.ante) for s in hand.seats]
    return [("ante_trimming_status", False), ("antes", antes), ("bring_in", level.bring_in)]


def stud_actions(
    hand: HandState, order: tuple[SeatState, ...], public: bool, words: list[str]
) -> list[str]:
    """Each street's cards (``d dh``; the short stub's community card ``d db``, RP-10-H),
    then its actions, then the showdown. Third street is written down, down, up: a downcard
    exposed on the deal (RP-10-A) is written as the upcard it became, so a reader finds the
    same bring-in; a seventh-street card exposed and replaced (RP-10-B) is not written (it
    is in ``_exposed_cards``), and a comment on the street says so."""
    player = {s.seat: f"p{i + 1}" for i, s in enumerate(order)}
    exposed = dict(hand.exposed)
    lines: list[str] = []
    for street in (Street.THIRD, Street.FOURTH, Street.FIFTH, Street.SIXTH, Street.SEVENTH):
        first = 0 if street is Street.THIRD else 2 + street
        last = 3 if street is Street.THIRD else 3 + street
        dealt = False
        for s in order:
            if len(s.hole) < last:
                continue
            cards = s.hole[first:last]
            known = s.shown or not public
            if not known:  # the downcards hidden, the upcards as everyone saw them
                cards = tuple(c if c in s.up else "??" for c in cards)
            note = ""
            if exposed.get(s.seat) is not None and exposed[s.seat] not in s.hole:
                if street is Street.SEVENTH:
                    note = f" # RP-10-B: {exposed[s.seat]} exposed and replaced"
            elif street is Street.THIRD and exposed.get(s.seat) in cards:
                note = f" # RP-10-A: exposed downcard {exposed[s.seat]} is the upcard"
            lines.append(f"d dh {player[s.seat]} {''.join(cards)}{note}")
            dealt = True
        if street is Street.SEVENTH and hand.board:
            lines.append(f"d db {''.join(hand.board)}")
            dealt = True
        if not dealt:
            break
        for a, word in zip(hand.actions, words, strict=True):
            if a.street is street:
                lines.append(f"{player[a.seat]} {word}")
    return lines + showdown_actions(hand, order, public)


def killed_out_of_turn(hand: HandState) -> list[int]:
    """Seats out of the hand without folding in turn: their hands were killed (a dead hand
    is not an action in turn, so the engine records no fold)."""
    folds = {a.seat for a in hand.actions if a.kind == "fold"}
    return [s.seat for s in hand.seats if not s.in_hand and s.seat not in folds]


def untabled_winner(hand: HandState) -> SeatState | None:
    """R17-B: the last live hand, which won uncontested when every other hand at the
    showdown was mucked, and was never tabled (None when there is no such hand)."""
    live = [s for s in hand.in_hand if not s.mucked]
    if len(live) == 1 and not live[0].shown and len(hand.in_hand) > 1:
        return live[0]
    return None


def showdown_actions(hand: HandState, order: tuple[SeatState, ...], public: bool) -> list[str]:
    """The showdown: the tabled hands, the mucks, then R17-B's last live hand.

    Shows before mucks: the engine awards the pots once the last live hand is decided. PHH
    readers award only shown hands (PokerKit kills a face-down one and burns its pot), so
    the last live hand that won untabled (R17-B) is written after the mucks with its cards
    from the deal and a comment saying it was not tabled; our replay takes a show after the
    award as nothing (``history.replay``), so it stays untabled there. The public history
    does not know those cards: it writes them ``??`` (PHH: neither shown nor mucked), which
    PokerKit cannot award (``phh_limits``)."""
    player = {s.seat: f"p{i + 1}" for i, s in enumerate(order)}
    lines = [f"{player[s.seat]} sm {''.join(s.hole)}" for s in order if s.shown and s.hole]
    lines += [f"{player[s.seat]} sm" for s in order if s.mucked and s.in_hand]
    winner = untabled_winner(hand)
    if winner is not None:
        cards = _untabled_cards(hand, winner, public)
        lines.append(f"{player[winner.seat]} sm {cards} # R17-B: won uncontested, not tabled")
    return lines


def _untabled_cards(hand: HandState, seat: SeatState, public: bool) -> str:
    """An untabled hand's cards as a history may write them: the public one only its
    upcards (stud), the others ``??``."""
    hole = seat.hole or ("??",) * hand.variant.hole_cards
    return "".join(c if not public or c in seat.up else "??" for c in hole)


def phh_limits(
    hand: HandState, order: tuple[SeatState, ...], public: bool, rules: RuleProfile
) -> list[str]:
    """What a reader that plays only PHH's own actions (PokerKit 0.7) cannot play as the
    table did, one line each with its rule id: the file then says so (``_phh_limits``)
    rather than pass for a hand such a reader replays to ``finishing_stacks``."""
    player = {s.seat: f"p{i + 1}" for i, s in enumerate(order)}
    out = []
    winner = untabled_winner(hand)
    plays_the_board = not hand.variant.omaha and len(hand.board) == 5  # hold'em: PokerKit
    # values a face-down hand by the board alone, so it still awards it
    if winner is not None and "??" in _untabled_cards(hand, winner, public) and not plays_the_board:
        out.append(
            f"{rules.cite('uncontested')}: {player[winner.seat]} won uncontested without "
            "tabling; his cards are not public, and PokerKit awards no face-down hand"
        )
    mucked_winners = {a.seat for a in hand.awards if hand.seat(a.seat).mucked}
    out += [
        f"{rules.cite('side_pots')}: {player[s.seat]} mucked at the showdown and still won "
        "the pot nobody else in it could win (they folded); PokerKit gives a mucked hand "
        "nothing"
        for s in order
        if s.seat in mucked_winners
    ]
    return out


def _toml(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, time):  # a TOML local time, unquoted
        return value.isoformat()
    return json.dumps(str(value), ensure_ascii=False)  # a JSON string is a TOML basic string


def render_phh(title: str, fields: Iterable[tuple[str, Any]]) -> str:
    """PHH text from its fields in order: one line each, the actions one per line."""
    lines = [f"# {title}"]
    for key, value in fields:
        if key == "actions":
            lines.append("actions = [")
            lines += [f"  {_toml(a)}," for a in value]
            lines.append("]")
        else:
            lines.append(f"{key} = {_toml(value)}")
    return "\n".join(lines) + "\n"


def time_fields(started_ms: int) -> list[tuple[str, Any]]:
    """PHH's date and time of a hand (UTC) from milliseconds since the epoch."""
    when = datetime.fromtimestamp(started_ms / 1000, tz=UTC)
    return [
        ("year", when.year),
        ("month", when.month),
        ("day", when.day),
        ("time", when.time().replace(microsecond=0)),
        ("time_zone", "UTC"),
    ]


def hand_to_phh(
    setup: HandSetup,
    hand: HandState,
    *,
    venue: str,
    table: str,
    seat_count: int,
    number: int,
    started_ms: int | None,
    public: bool = False,
    event: str | None = None,
    rules: RuleProfile = TDA_2024,
) -> str:
    """One completed hand as the text of a PHH file.

    ``public``: only the hole cards tabled at the table are written (the others as
    ``????``), for the public event stream; the room's archive adds the cards it may read.
    """
    if hand.phase is not Phase.COMPLETE:
        raise ExportError(f"hand {hand.hand_id} is not complete")
    killed = killed_out_of_turn(hand)
    if killed:
        raise ExportError(
            f"hand {hand.hand_id}: seat {', '.join(map(str, killed))} had his hand killed "
            "outside the turn order (R30 or R71-C at the deal, R66, R65-A, R37): PHH has no "
            "action for it, and a reader folds a hand only in turn"
        )
    order = position_order(hand)
    starting = dict((seat, stack) for seat, _, stack in setup.players)
    level = hand.level
    dead_small_blind = hand.small_blind_seat is None
    if dead_small_blind and len(order) > 2 and order[0].seat == hand.big_blind_seat:
        blinds = [level.big_blind] + [0] * (len(order) - 1)  # p1 posts the big blind
    else:
        # Heads-up too the list reads [small, big]: PokerKit swaps the two posts itself.
        small = 0 if dead_small_blind else level.small_blind
        blinds = [small, level.big_blind] + [0] * (len(order) - 2)
    stud = hand.variant.is_stud
    actions = stud_actions if stud else _draw_actions if hand.variant.is_draw else _actions
    fields: list[tuple[str, Any]] = [("variant", hand.variant.value)]
    if stud:
        fields += stud_fields(setup, hand)
    else:
        fields += [("antes", _antes(setup, hand, order)), ("blinds_or_straddles", blinds)]
    if hand.variant.betting is Betting.FIXED_LIMIT:
        fields += [("small_bet", level.big_blind), ("big_bet", 2 * level.big_blind)]
    else:
        fields.append(("min_bet", level.big_blind))
    fields += [
        ("starting_stacks", [starting[s.seat] for s in order]),
        ("actions", actions(hand, order, public, action_words(hand, start_hand(setup, rules)[0]))),
        ("finishing_stacks", [s.stack for s in order]),
        ("winnings", [sum(a.amount for a in hand.awards if a.seat == s.seat) for s in order]),
        ("players", [s.player for s in order]),
        ("seats", [s.seat for s in order]),
        ("seat_count", seat_count),
        ("venue", venue),
        ("table", table),
        ("hand", number),
        ("level", level.number),
    ]
    if event is not None:
        fields.append(("event", event))
    if dead_small_blind and not stud:
        fields.append((DEAD_SMALL_BLIND, level.small_blind))
    if stud and hand.exposed:
        player = {s.seat: f"p{i + 1}" for i, s in enumerate(order)}
        fields.append((EXPOSED_CARDS, [f"{player[seat]} {card}" for seat, card in hand.exposed]))
    if hand.button != order[-1].seat and not stud:  # a dead button (R32), on an empty seat
        fields.append((BUTTON_SEAT, hand.button))
    if hand.board_repairs:
        fields.append(
            (
                BOARD_REPAIRS,
                [
                    f"{r.street.name.lower()} {''.join(r.replaced)} {''.join(r.cards)} {r.rule_id}"
                    for r in hand.board_repairs
                ],
            )
        )
    limits = phh_limits(hand, order, public, rules)
    if limits:
        fields.append((PHH_LIMITS, limits))
    if started_ms is not None:
        fields += time_fields(started_ms)
    return render_phh(f"{venue}/{table} hand {hand.hand_id}", fields)


def replayed_stacks(text: str, name: str, rules: RuleProfile = TDA_2024) -> tuple[int, ...]:
    """Finishing stacks (p1..pN) of a PHH text replayed through the engine; PhhError if not."""
    from pokertable.controller.history.phh import PhhError, parse_hand
    from pokertable.controller.history.replay import replay_hand

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PhhError(f"{name}: {exc}") from exc
    hand = parse_hand(data, name)
    state = replay_hand(hand, rules).state
    return tuple(state.seat(i + 1).stack for i in range(hand.player_count))
