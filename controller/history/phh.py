"""Import of PHH, the uoftcprg Poker Hand History standard (NT, PO, FT, FO/8, PO/8; stud
F7S, F7S/8, FR; draw F2L3D, N2L1D, FB with the ``sd`` stand-pat-or-discard action).

PHH lists players in position order: p1 is the small blind, the last player has the
button; heads-up, p1 is the big blind and p2 the button/small blind (as PokerKit plays it).
A dead small blind (``controller.history.render``) reads ``blinds_or_straddles = [big blind,
0, ...]``: p1 posts the big blind and nobody the small one, whose amount is in the
user-defined field ``_dead_small_blind``.
We seat player ``pN`` in seat N, so a hand replays through the same engine the table uses.

A ``.phh`` file holds one hand; a ``.phhs`` file holds several as TOML tables.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import repeat
from operator import itemgetter
from pathlib import Path
from typing import Any

from pokertable.controller.engine import HandSetup
from pokertable.controller.engine.cards import STANDARD_DECK
from pokertable.controller.engine.events import (
    ActionKind,
    DealBoard,
    DealHole,
    Discard,
    Event,
    MuckHand,
    PlayerAction,
    RepairReason,
    ReplaceBoard,
    ShowHand,
)
from pokertable.controller.engine.model import (
    AnteFormat,
    Betting,
    Level,
    Street,
    Variant,
    builder,
)
from pokertable.controller.errors import ControllerError
from pokertable.controller.history import phh_toml

# Enum members as module globals: on CPython 3.11 reading one through its class
# (``SeatStatus.LIVE``) costs ~50 ns, and the engine does it per seat on every step.
_BET = ActionKind.BET
_CALL = ActionKind.CALL
_CHECK = ActionKind.CHECK
_FOLD = ActionKind.FOLD
_RAISE = ActionKind.RAISE
_PB = ActionKind.BRING_IN


class PhhError(ControllerError, ValueError):
    """A PHH file the engine cannot replay; the message names the hand and the problem."""


@dataclass(frozen=True, slots=True)
class PhhHand:
    name: str  # "file.phh" or "file.phhs#3"
    setup: HandSetup
    actions: tuple[str, ...]  # the raw action strings, for error messages
    player_count: int


# The records of a hand read, built with plain stores (model.builder): a frozen
# dataclass's ``__init__`` makes each field a call.
_hand_setup = builder(HandSetup)
_phh_hand = builder(PhhHand)


def load_hands(path: Path) -> Iterator[PhhHand]:
    """Every hand in a .phh or .phhs file, in file order."""
    try:
        data = phh_toml.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:  # tomllib's TOMLDecodeError and bad UTF-8 included
        raise PhhError(f"{path}: cannot read PHH: {exc}") from exc
    if "variant" in data:
        yield parse_hand(data, str(path))
        return
    tables = [(k, v) for k, v in data.items() if isinstance(v, dict)]
    if not tables:
        raise PhhError(f"{path}: no 'variant' key and no hand tables")
    for key, table in tables:
        yield parse_hand(table, f"{path}#{key}")


_VARIANTS = {v.value: v for v in Variant}  # ``Variant(code)``, without the enum's call


def _int_list(data: dict[str, Any], key: str, name: str, n: int | None = None) -> list[int]:
    value = data.get(key)
    if not isinstance(value, list) or not all(map(isinstance, value, repeat(int))):
        raise PhhError(f"{name}: '{key}' must be a list of integers")
    if n is not None and len(value) != n:
        raise PhhError(f"{name}: '{key}' has {len(value)} entries for {n} players")
    return value


def _actions(data: dict[str, Any], name: str) -> list[str]:
    actions = data.get("actions")
    if not isinstance(actions, list) or not all(map(isinstance, actions, repeat(str))):
        raise PhhError(f"{name}: 'actions' must be a list of strings")
    return actions


def parse_hand(data: dict[str, Any], name: str) -> PhhHand:
    code = data.get("variant")
    variant = _VARIANTS.get(str(code))
    if variant is None:
        known = ", ".join(_VARIANTS)
        raise PhhError(f"{name}: unknown or unsupported variant {code!r} ({known})")
    if variant.is_stud:
        return _parse_stud(data, name, variant)
    stacks = _int_list(data, "starting_stacks", name)
    n = len(stacks)
    if not 2 <= n <= 10:
        raise PhhError(f"{name}: {n} players; the table seats 2 to 10")
    blinds = _int_list(data, "blinds_or_straddles", name, n)
    antes = _int_list(data, "antes", name, n) if "antes" in data else [0] * n
    if any(blinds[2:]):
        raise PhhError(f"{name}: straddles are not supported")
    # A dead small blind (R32): the first player after the button posts the big blind.
    dead_small = n > 2 and blinds[0] > 0 and blinds[1] == 0
    small_blind, big_blind = blinds[0], blinds[1]
    if dead_small:
        small_blind, big_blind = 0, blinds[0]
    level_small_blind = small_blind
    if "_dead_small_blind" in data:
        level_small_blind = data["_dead_small_blind"]
        if not isinstance(level_small_blind, int) or not 0 < level_small_blind <= big_blind:
            raise PhhError(f"{name}: '_dead_small_blind' must be an amount up to the big blind")
    if variant.betting is Betting.FIXED_LIMIT:
        small_bet, big_bet = data.get("small_bet"), data.get("big_bet")
        if small_bet != big_blind or big_bet != 2 * big_blind:
            raise PhhError(f"{name}: fixed limit needs small_bet = big blind and big_bet = 2x")
    elif data.get("min_bet", big_blind) != big_blind:
        raise PhhError(f"{name}: min_bet {data.get('min_bet')} differs from the big blind")
    # Position index -> seat: heads-up the big blind is p1 and the button p2.
    heads_up = n == 2
    if heads_up:
        position_seat = {0: 2, 1: 1}
        button, sb_seat, bb_seat = 2, 2, 1
    else:
        position_seat = {i: i + 1 for i in range(n)}
        button, sb_seat, bb_seat = n, 1, 2
        if dead_small:
            bb_seat = 1
    ante_by_seat = {position_seat[i]: a for i, a in enumerate(antes) if a}
    if not ante_by_seat:
        ante, fmt, explicit = 0, AnteFormat.NONE, None
    elif set(ante_by_seat) == {bb_seat}:
        ante, fmt, explicit = ante_by_seat[bb_seat], AnteFormat.BIG_BLIND_ANTE, None
    elif len(ante_by_seat) == n and len(set(ante_by_seat.values())) == 1:
        ante, fmt, explicit = antes[0], AnteFormat.PER_PLAYER, None
    else:
        ante, fmt = max(ante_by_seat.values()), AnteFormat.PER_PLAYER
        explicit = tuple(sorted(ante_by_seat.items()))
    players = data.get("players") or [f"p{i + 1}" for i in range(n)]
    level = Level(small_blind=level_small_blind, big_blind=big_blind, ante=ante, ante_format=fmt)
    actions = _actions(data, name)
    setup = _hand_setup(
        hand_id=name,
        variant=variant,
        level=level,
        button=button,
        small_blind_seat=sb_seat if small_blind and not dead_small else None,
        big_blind_seat=bb_seat,
        players=tuple([(i + 1, str(players[i]), stacks[i]) for i in range(n)]),
        antes_by_seat=explicit,
    )
    return _phh_hand(name, setup, tuple(actions), n)


def _parse_stud(data: dict[str, Any], name: str, variant: Variant) -> PhhHand:
    """Stud (F7S, F7S/8, FR): antes, ``bring_in``, ``small_bet`` and ``big_bet``; no button.

    Players sit in PHH order, ``pN`` in seat N; the bring-in, not a position, starts the
    action (RP-10-E).
    """
    stacks = _int_list(data, "starting_stacks", name)
    n = len(stacks)
    if not 2 <= n <= 8:
        raise PhhError(f"{name}: {n} players; seven-card stud seats 2 to 8")
    antes = _int_list(data, "antes", name, n) if "antes" in data else [0] * n
    bring_in, small_bet, big_bet = (data.get(k) for k in ("bring_in", "small_bet", "big_bet"))
    if not (isinstance(bring_in, int) and isinstance(small_bet, int) and small_bet > 0
            and 0 < bring_in <= small_bet):
        raise PhhError(f"{name}: stud needs 'bring_in' and 'small_bet' with "
                       "0 < bring_in <= small_bet")
    if big_bet != 2 * small_bet:
        raise PhhError(f"{name}: 'big_bet' must be twice 'small_bet'")
    even = len(set(antes)) == 1
    level = Level(small_blind=0, big_blind=small_bet, bring_in=bring_in, ante=max(antes),
                  ante_format=AnteFormat.PER_PLAYER if any(antes) else AnteFormat.NONE)
    actions = _actions(data, name)
    players = data.get("players") or [f"p{i + 1}" for i in range(n)]
    setup = _hand_setup(
        hand_id=name,
        variant=variant,
        level=level,
        button=n,
        small_blind_seat=None,
        big_blind_seat=1,
        players=tuple([(i + 1, str(players[i]), stacks[i]) for i in range(n)]),
        antes_by_seat=None if even else tuple((i + 1, a) for i, a in enumerate(antes)),
    )
    return _phh_hand(name, setup, tuple(actions), n)


_SEATS = {f"p{i}": i for i in range(1, 11)}  # the usual player words, for ``to_event``
# The events of the usual actions, built with plain stores (model.builder).
_player_action = builder(PlayerAction)
_deal_hole = builder(DealHole)
_deal_board = builder(DealBoard)
_show_hand = builder(ShowHand)
_discard = builder(Discard)  # draw games' ``sd``, several a draw


def _plain_actions() -> dict[str, tuple[int, Event, Event]]:
    """The actions without a word after the verb, as PokerKit writes them ("p3 cc"): the
    seat, the event with nothing to call and the event facing a bet. Events are frozen
    records, so one serves every hand; the table is built here, never filled by reading."""
    table: dict[str, tuple[int, Event, Event]] = {}
    for word, seat in _SEATS.items():
        fold, pat, bring_in = PlayerAction(seat, _FOLD), Discard(seat), PlayerAction(seat, _PB)
        muck, show = MuckHand(seat), ShowHand(seat)
        table[f"{word} cc"] = (seat, PlayerAction(seat, _CHECK), PlayerAction(seat, _CALL))
        table[f"{word} f"] = (seat, fold, fold)
        table[f"{word} sd"] = (seat, pat, pat)  # draw games: stands pat
        table[f"{word} pb"] = (seat, bring_in, bring_in)  # stud: the bring-in
        table[f"{word} sm"] = (seat, muck, muck)
        table[f"{word} sm -"] = (seat, show, show)
    return table


_PLAIN = _plain_actions()

_Build = Callable[[int, tuple[str, ...]], Event]


def _shaped_actions() -> dict[str, tuple[_Build | None, int]]:
    """The words before the last of the actions that end in an amount or cards, as
    PokerKit writes them ("p3 cbr", "d dh p3"): the builder of the event for the cards
    (None for the amount of a ``cbr``) and the seat (0 for the board's ``d db``)."""
    table: dict[str, tuple[_Build | None, int]] = {"d db": (_deal_board, 0)}
    for word, seat in _SEATS.items():
        table[f"{word} cbr"] = (None, seat)
        table[f"d dh {word}"] = (_deal_hole, seat)
        table[f"{word} sd"] = (_discard, seat)  # draw games: discards these cards
        table[f"{word} sm"] = (_show_hand, seat)
    return table


_HEADS = _shaped_actions()


def _player(word: str, n: int, where: str) -> int:
    if not (word.startswith("p") and word[1:].isdigit() and 1 <= int(word[1:]) <= n):
        raise PhhError(f"{where}: {word!r} is not a player p1..p{n}")
    return int(word[1:])


def _known_cards(text: str) -> tuple[str, ...] | None:
    """The cards of ``text`` when it is only known cards, else None (``_cards`` says why).

    One card and two are sliced, more by one ``itemgetter`` of the slices for the length
    (a C call): a regular expression costs as much as the rest of ``to_event``."""
    size = len(text)
    deck = STANDARD_DECK
    if size == 2:  # one card: stud's fourth to seventh street, a turn, a river, a draw
        return (text,) if text in deck else None
    if size == 4:  # hold'em holes, two cards drawn
        a, b = text[:2], text[2:]
        return (a, b) if a in deck and b in deck else None
    slices = _CARD_SLICES.get(size)
    if slices is None:  # an odd length, or none (a text ending in a space)
        return None
    cards: tuple[str, ...] = slices(text)
    return cards if deck.issuperset(cards) else None


# The cards of a text of 6, 8, ... 104 characters (3 to 52 cards), each length's slices.
_CARD_SLICES = {
    size: itemgetter(*[slice(i, i + 2) for i in range(0, size, 2)]) for size in range(6, 105, 2)
}


def _cards(text: str, where: str) -> tuple[str, ...] | None:
    """Cards of an action; None when any card is unknown ('??')."""
    if len(text) % 2:
        raise PhhError(f"{where}: cannot read cards {text!r}")
    cards = tuple(text[i : i + 2] for i in range(0, len(text), 2))
    if any(c == "??" for c in cards):
        return None
    bad = [c for c in cards if c not in STANDARD_DECK]
    if bad:
        raise PhhError(f"{where}: unknown card(s) {bad}")
    return cards


def to_event(action: str, n: int, where: str, call_to: int) -> Event | None:
    """Translate one PHH action to an engine event (None for no-ops and unknown cards).

    ``call_to`` decides whether ``cc`` is a check or a call and ``cbr`` a bet or a raise.
    """
    plain = _PLAIN.get(action)
    if plain is not None and plain[0] <= n:
        return plain[2] if call_to else plain[1]
    # The actions with an amount or cards, as PokerKit writes them, by the words before
    # the last; any other text is read by the ``match`` below, which names what is wrong.
    head, _, last = action.rpartition(" ")
    shape = _HEADS.get(head)
    if shape is not None and shape[1] <= n:
        build, seat = shape
        if build is None:  # pN cbr: a bet or raise to this amount
            if last.isdigit():
                return _player_action(seat, _RAISE if call_to else _BET, int(last))
        else:
            named = _known_cards(last)
            if named is not None:
                return build(seat, named) if seat else _deal_board(named)
    words = (action.split("#", 1)[0] if "#" in action else action).split()
    match words:
        case []:
            return None
        case ["d", "dh", player, cards]:
            known = _cards(cards, where)
            return None if known is None else DealHole(_player(player, n, where), known)
        case ["d", "db", cards]:
            known = _cards(cards, where)
            if known is None:
                raise PhhError(f"{where}: board cards must be known")
            return DealBoard(known)
        case ["d", "rb", street, cards, reason]:
            # pokertable extension (not PHH): "d rb flop 7c9hTh four_card_flop", a street's
            # cards replaced by a repair (R39); PHH itself has no notation for it.
            known = _cards(cards, where)
            if known is None:
                raise PhhError(f"{where}: repaired board cards must be known")
            try:
                why = RepairReason(reason)
            except ValueError:
                allowed = ", ".join(r.value for r in RepairReason)
                raise PhhError(
                    f"{where}: repair reason {reason!r} is not one of {allowed}"
                ) from None
            return ReplaceBoard(_street_named(street, where), known, why)
        case [player, "f"]:
            return PlayerAction(_player(player, n, where), _FOLD)
        case [player, "sd"]:  # draw games: stands pat
            return Discard(_player(player, n, where))
        case [player, "sd", cards]:  # draw games: discards these cards
            known = _cards(cards, where)
            if known is None:
                raise PhhError(f"{where}: discarded cards must be known")
            return Discard(_player(player, n, where), known)
        case [player, "pb"]:  # stud: the bring-in
            return PlayerAction(_player(player, n, where), ActionKind.BRING_IN)
        case [player, "cc"]:
            kind = _CALL if call_to else _CHECK
            return PlayerAction(_player(player, n, where), kind)
        case [player, "cbr", amount]:
            if not amount.isdigit():
                raise PhhError(f"{where}: amount {amount!r} is not a whole number of chips")
            kind = _RAISE if call_to else _BET
            return PlayerAction(_player(player, n, where), kind, int(amount))
        case [player, "sm"]:
            return MuckHand(_player(player, n, where))
        case [player, "sm", "-"]:
            return ShowHand(_player(player, n, where))
        case [player, "sm", cards]:
            known = _cards(cards, where)
            return ShowHand(_player(player, n, where), known or ())
        case _:
            raise PhhError(f"{where}: unsupported action {action!r}")


def _street_named(name: str, where: str) -> Street:
    try:
        return Street[name.upper()]
    except KeyError:
        raise PhhError(f"{where}: {name!r} is not a street (flop, turn, river)") from None


def action_where(hand: PhhHand, index: int, actions: Sequence[str] | None = None) -> str:
    acts = hand.actions if actions is None else actions
    return f"{hand.name} action {index} ({acts[index]!r})"
