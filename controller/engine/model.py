"""Frozen data the engine steps over: games, levels, seats and the hand state.

Per-seat data is a tuple of ``SeatState`` records ordered by seat number, so a "what if"
branch of a hand is just another reference: nothing is ever mutated in place.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import MISSING, dataclass, field, fields
from enum import IntEnum, StrEnum
from operator import attrgetter, countOf
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from pokertable.controller.engine.events import PlayerAction
    from pokertable.controller.rules import RuleProfile

_T = TypeVar("_T")


# A copier per class and per the names it changes, in the order given: (cls, *names).
_EVOLVERS: dict[tuple[Any, ...], Callable[[Any, dict[str, object]], Any]] = {}
_TWINS: dict[type, type] = {}  # the mutable twin of each class, made once


def evolve(obj: _T, **changes: object) -> _T:
    """``dataclasses.replace`` for our slotted frozen records, without re-running ``__init__``.

    The engine copies small records on every action and the generic ``replace`` was the
    largest cost of a replay (see bench/), so each class gets a generated copier that
    reads every slot as a plain attribute, one per set of changed fields, which it stores
    in place of the old values (a ``setattr`` call per change was a sixth of a copy).
    Only for slotted dataclasses whose invariants the caller keeps.
    """
    key = (type(obj), *changes)
    try:
        copier = _EVOLVERS[key]
    except KeyError:
        copier = _EVOLVERS[key] = _make_copier(type(obj), tuple(changes))
    result: _T = copier(obj, changes)
    return result


def _make_copier(cls: type, names: tuple[str, ...] = ()) -> Callable[[Any, dict[str, object]], Any]:
    """A copier that fills the slots of a mutable twin of ``cls``, then makes it a ``cls``.

    A frozen class's ``__setattr__`` makes every slot write a call (``object.__setattr__``);
    on the twin, which has the same slots and no ``__setattr__``, a write is a plain store,
    and the finished copy takes the frozen class by ``__class__`` assignment, which CPython
    allows between classes of the same layout. Half the cost of a copy of the hand state.
    The fields in ``names`` are taken from ``changes`` (a name that is no field goes
    through ``setattr``, which refuses it). Classes with another layout (a base class with
    slots) get slot-by-slot writes instead.
    """
    slots: tuple[str, ...] = cls.__slots__  # type: ignore[attr-defined]
    namespace: dict[str, Any] = {
        "new_object": object.__new__,
        "set_slot": object.__setattr__,
        "cls": cls,
    }
    try:
        if cls in _TWINS:
            namespace["twin"] = _TWINS[cls]
            twin = "twin"
        else:
            twin = _twin_of(cls, slots, namespace)
            _TWINS[cls] = namespace[twin]
    except TypeError:  # another layout: one setter call per slot, the base classes' too
        slots = _all_slots(cls)
        namespace.update({f"set_{i}": getattr(cls, name).__set__ for i, name in enumerate(slots)})
        body = ["def copier(obj, changes):", "    new = new_object(cls)"]
        body += [f"    set_{i}(new, obj.{name})" for i, name in enumerate(slots)]
        body += ["    for name, value in changes.items():", "        set_slot(new, name, value)"]
    else:
        body = ["def copier(obj, changes):", f"    new = new_object({twin})"]
        if set(names) <= set(slots):
            body += [
                f"    new.{name} = changes[{name!r}]"
                if name in names
                else f"    new.{name} = obj.{name}"
                for name in slots
            ]
        else:
            body += [f"    new.{name} = obj.{name}" for name in slots]
            # still the twin: the plain setattr, not the frozen class's
            body += ["    for name, value in changes.items():", "        setattr(new, name, value)"]
        body.append("    new.__class__ = cls")
    body.append("    return new")
    exec("\n".join(body), namespace)
    copier: Callable[[Any, dict[str, object]], Any] = namespace["copier"]
    return copier


def _all_slots(cls: type) -> tuple[str, ...]:
    names: list[str] = []
    for klass in reversed(cls.__mro__):
        declared = klass.__dict__.get("__slots__", ())
        for name in (declared,) if isinstance(declared, str) else declared:
            if name not in ("__weakref__", "__dict__") and name not in names:
                names.append(name)
    return tuple(names)


def _twin_of(cls: type, slots: tuple[str, ...], namespace: dict[str, Any]) -> str:
    """Put a mutable class with the slots of ``cls`` in ``namespace``; its name there.

    Raises TypeError when CPython would not let a twin instance become a ``cls``.
    """
    if cls.__bases__ != (object,) or "__weakref__" in slots or "__dict__" in slots:
        raise TypeError(f"{cls.__name__} has more than its fields' slots")
    twin = type(f"_{cls.__name__}Draft", (object,), {"__slots__": slots})
    probe: Any = object.__new__(twin)
    probe.__class__ = cls  # TypeError when the layouts differ
    namespace["twin"] = twin
    return "twin"


_BUILDER_NAMES = frozenset({"new", "new_object", "cls", "twin"})  # taken in a builder's code


def builder(cls: type[_T]) -> Callable[..., _T]:
    """A constructor for a slotted frozen dataclass with plain stores, for the hot path.

    Takes the same arguments as ``cls(...)`` and gives an equal record, built like the
    copies of ``evolve`` (a mutable twin, then the frozen class): a quarter of the cost of
    the dataclass ``__init__``, whose frozen ``__setattr__`` makes each field a call. Only
    for classes without ``__post_init__``, ``default_factory`` or ``init=False`` fields.
    """
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} has a __post_init__, which a builder would skip")
    slots: tuple[str, ...] = cls.__slots__  # type: ignore[attr-defined]
    namespace: dict[str, Any] = {"new_object": object.__new__, "cls": cls}
    positional: list[str] = []
    keyword: list[str] = []
    for i, f in enumerate(fields(cls)):  # type: ignore[arg-type]
        taken = f.name in _BUILDER_NAMES or f.name.startswith("default_")
        if not f.init or f.default_factory is not MISSING or taken:
            raise TypeError(f"{cls.__name__}.{f.name}: no builder for this field")
        param = f.name
        if f.default is not MISSING:
            namespace[f"default_{i}"] = f.default
            param += f"=default_{i}"
        (keyword if f.kw_only else positional).append(param)
    params = ", ".join(positional + (["*", *keyword] if keyword else []))
    body = [f"def build({params}):", f"    new = new_object({_twin_of(cls, slots, namespace)})"]
    body += [f"    new.{name} = {name}" for name in slots]
    body += ["    new.__class__ = cls", "    return new"]
    exec("\n".join(body), namespace)
    build: Callable[..., _T] = namespace["build"]
    return build


class Betting(StrEnum):
    NO_LIMIT = "no_limit"
    POT_LIMIT = "pot_limit"
    FIXED_LIMIT = "fixed_limit"


class Variant(StrEnum):
    """The games the engine deals; the value is the PHH variant code."""

    NLHE = "NT"  # no-limit Texas hold'em
    PLO = "PO"  # pot-limit Omaha
    FLHE = "FT"  # fixed-limit Texas hold'em
    FLO8 = "FO/8"  # fixed-limit Omaha hi-lo eight or better
    PLO8 = "PO/8"  # pot-limit Omaha hi-lo eight or better
    STUD = "F7S"  # fixed-limit seven-card stud (engine/stud.py)
    STUD_HILO = "F7S/8"  # fixed-limit seven-card stud hi-lo, eight or better
    RAZZ = "FR"  # fixed-limit razz (seven-card stud, A-5 low)
    TRIPLE_DRAW_27 = "F2L3D"  # fixed-limit 2-7 lowball triple draw (engine/draw.py)
    SINGLE_DRAW_27 = "N2L1D"  # no-limit 2-7 lowball single draw
    BADUGI = "FB"  # fixed-limit badugi (triple draw, four cards)

    @property
    def betting(self) -> Betting:
        return _BETTING_OF[self._value_]  # not ``.value``: an enum property, costly per action

    @property
    def hole_cards(self) -> int:
        """Cards of the initial deal (stud: two down and one up)."""
        code = self._value_
        if code in _DRAW_CARDS:
            return _DRAW_CARDS[code]
        return 4 if code in _OMAHA else 3 if code in _STUD_CODES else 2

    @property
    def is_stud(self) -> bool:
        """Seven-card stud games: antes and a bring-in, no button, no blinds, no board."""
        return self._value_ in _STUD_CODES

    @property
    def is_draw(self) -> bool:
        """Draw games: blinds and a button, no board; the draws are house rules (TDA R35-A7)."""
        return self._value_ in _DRAW_CARDS

    @property
    def draws(self) -> int:
        """Draw rounds of the game (triple draw 3, single draw 1, others 0)."""
        return _DRAWS.get(self._value_, 0)

    @property
    def last_street(self) -> Street:
        """The last betting round: stud's seventh, single draw's second, else the river."""
        code = self._value_
        if code in _STUD_CODES:
            return Street.SEVENTH
        return Street(_DRAWS[code]) if code in _DRAWS else Street.RIVER

    @property
    def omaha(self) -> bool:
        """Exactly two hole cards and three board cards make a hand (both halves in hi-lo)."""
        return self._value_ in _OMAHA

    @property
    def hi_lo(self) -> bool:
        """The pot is split between the best high and the best eight-or-better low (R20-C)."""
        return self._value_ in _HI_LO


_BETTING_OF = {
    "NT": Betting.NO_LIMIT,
    "PO": Betting.POT_LIMIT,
    "FT": Betting.FIXED_LIMIT,
    "FO/8": Betting.FIXED_LIMIT,
    "PO/8": Betting.POT_LIMIT,
    "F7S": Betting.FIXED_LIMIT,
    "F7S/8": Betting.FIXED_LIMIT,
    "FR": Betting.FIXED_LIMIT,
    "F2L3D": Betting.FIXED_LIMIT,
    "N2L1D": Betting.NO_LIMIT,
    "FB": Betting.FIXED_LIMIT,
}
_DRAW_CARDS = {"F2L3D": 5, "N2L1D": 5, "FB": 4}  # cards dealt and held
_DRAWS = {"F2L3D": 3, "N2L1D": 1, "FB": 3}
_OMAHA = frozenset({"PO", "FO/8", "PO/8"})
_HI_LO = frozenset({"FO/8", "PO/8"})
_STUD_CODES = frozenset({"F7S", "F7S/8", "FR"})
def game_named(code: object, where: str) -> Variant:
    """The game of a PHH code (``"FO/8"``, ``"F7S"``); a ValueError naming ``where`` and the
    games a table deals for anything else (a structure's or a config's typo, a room
    command). A live table deals every ``Variant``: the board games, the stud games with an
    upcard pad per seat (``seat<N>.up``) and the draw games, whose discards are read in the
    muck (docs/irregularities.md)."""
    for variant in Variant:
        if variant.value == code:
            return variant
    prefix = f"{where}: " if where else ""
    known = ", ".join(v.value for v in Variant)
    raise ValueError(f"{prefix}unknown game {code!r} (a table deals {known})")


def dealt_game(code: str | None) -> str | None:
    """``code`` as it is when a live table deals it (None: the table's own game), else the
    ValueError of ``game_named``: the ``game`` validator of config and structure files."""
    if code is not None:
        game_named(code, "")
    return code


class AnteFormat(StrEnum):
    NONE = "none"
    PER_PLAYER = "per_player"
    BIG_BLIND_ANTE = "big_blind_ante"  # RP-11: the big blind posts the whole table's ante


@dataclass(frozen=True, slots=True, kw_only=True)
class Level:
    """The forced bets of a level. For fixed limit the small bet is the big blind."""

    number: int = 1
    small_blind: int
    big_blind: int
    ante: int = 0
    ante_format: AnteFormat = AnteFormat.NONE
    chip_unit: int = 1  # smallest denomination in play: odd chips are split in this unit (R20)
    bring_in: int = 0  # stud: the forced bet of the low card (razz: the high card), RP-10-E
    game: Variant | None = None  # mixed games: the game this level plays (None: the table's)

    def __post_init__(self) -> None:
        if not 0 <= self.small_blind <= self.big_blind or self.big_blind <= 0:
            raise ValueError(
                f"level {self.number}: need 0 <= small blind <= big blind, big blind > 0"
            )
        if self.ante < 0 or self.chip_unit <= 0:
            raise ValueError(f"level {self.number}: ante must be >= 0 and chip_unit > 0")
        if not 0 <= self.bring_in <= self.big_blind:
            raise ValueError(f"level {self.number}: need 0 <= bring-in <= small bet")
        if self.ante and self.ante_format is AnteFormat.NONE:
            raise ValueError(f"level {self.number}: an ante of {self.ante} needs an ante_format")


class Street(IntEnum):
    """Betting rounds. Stud's third to sixth streets are the same numbers as pre-flop to
    river (the small bet on the first two, the big bet after: TDA Add. 43), and stud has
    a fifth round, ``SEVENTH``, that board games never reach."""

    PREFLOP = 0
    FLOP = 1
    TURN = 2
    RIVER = 3
    SEVENTH = 4  # stud only
    THIRD = 0  # stud names: aliases of the board games' rounds
    FOURTH = 1
    FIFTH = 2
    SIXTH = 3

    @property
    def board_size(self) -> int:
        """Board cards once the street is dealt. ``SEVENTH`` is no board street: its 6 is
        more than a board holds, so a loop over the streets a board reached stops at the
        river."""
        return (0, 3, 4, 5, 6)[self]


class Phase(StrEnum):
    BETTING = "betting"  # a betting round is open and someone is on the action
    DEALING = "dealing"  # waiting for the next board cards (with or without betting after them)
    SHOWDOWN = "showdown"  # waiting for hands to be tabled or mucked
    COMPLETE = "complete"  # pots awarded


class SeatStatus(StrEnum):
    LIVE = "live"  # in the hand with chips behind
    ALL_IN = "all_in"
    FOLDED = "folded"


# A module global: on CPython 3.11 reading an enum member through its class
# (``SeatStatus.FOLDED``) costs ~50 ns, and the engine does it per seat on every step.
_FOLDED = SeatStatus.FOLDED
_STATUS = attrgetter("status")


@dataclass(frozen=True, slots=True)
class SeatState:
    """One dealt-in seat during a hand. ``bet`` is the street total: a raise is "to" X."""

    seat: int
    player: str
    stack: int  # chips behind, not yet committed
    bet: int = 0  # committed on the current street (antes excluded: they are dead money)
    committed: int = 0  # committed this hand, antes and blinds included
    dead: int = 0  # antes: dead money that goes to the main pot (part of ``committed``)
    status: SeatStatus = SeatStatus.LIVE
    acted: bool = False  # acted voluntarily since the street began (posting a blind is not acting)
    matched: int = 0  # call_to this seat had matched or set at its last action (R47 re-opening)
    hole: tuple[str, ...] = ()
    shown: bool = False
    mucked: bool = False
    up: tuple[str, ...] = ()  # stud: the cards of ``hole`` dealt face up, in order (RP-10)

    @property
    def in_hand(self) -> bool:
        return self.status is not _FOLDED


@dataclass(frozen=True, slots=True)
class Pot:
    amount: int
    eligible: tuple[int, ...]  # seats


@dataclass(frozen=True, slots=True)
class Award:
    pot_index: int
    seat: int
    amount: int
    hand_name: str = ""
    half: str = ""  # hi-lo games: "high" or "low" (a hand that scoops gets one award of each)


@dataclass(frozen=True, slots=True)
class ActionRecord:
    """A voluntary action in turn, kept for substantial action (R36) and hand histories.

    ``HandState.actions`` is the hand's one log of actions: the layers above replay, amend
    and count from it (``action`` is the event as the engine accepted it)."""

    street: Street
    seat: int
    kind: str  # fold, check, call, bet, raise
    to: int  # street total after the action
    chips_in: bool  # whether the action put chips in (R36)
    all_in: bool
    # The event recorded (None: built outside ``step``). Not compared: two records of the
    # same action are equal however it was asked for (all in, or a call of all his chips).
    action: PlayerAction | None = field(default=None, compare=False)


def is_substantial(actions: Iterable[tuple[str, bool]], rules: RuleProfile) -> bool:
    """R36 over (kind, puts_chips_in) pairs: A) 2 actions, one with chips; B) any 3 actions.

    The one derivation of substantial action: the published state, the irregularities
    layer (R34-A, R35-D, R38, R53-B) and the count errors (R52-B) all ask it. The rule's
    parenthesis "(i.e. any 2 actions except 2 checks or 2 folds)" would make check + fold
    substantial; the main clause does not. ``sa_check_fold_counts`` picks.
    """
    count = 0
    chips = False
    kinds: set[str] = set()
    for kind, chips_in in actions:
        count += 1
        chips = chips or chips_in
        kinds.add(kind)
    if count >= 3:
        return True
    if count < 2:
        return False
    return chips or (rules.sa_check_fold_counts and kinds == {"check", "fold"})


@dataclass(frozen=True, slots=True)
class BoardRepair:
    """A street's cards replaced by a repair (R39, RP-5): what was there and what replaced it."""

    street: Street
    replaced: tuple[str, ...]
    cards: tuple[str, ...]
    rule_id: str


@dataclass(frozen=True, slots=True, kw_only=True)
class DrawState:
    """A draw game's draws: who draws next, who waits for cards, and what the stub holds.

    The engine sees no stub, so it counts it: the cards dealt and burned come off it, and a
    reshuffle (a house rule, ``RuleProfile.draw_reshuffle``) puts cards back into it.
    """

    number: int  # the draw under way (1 to 3), or the last one once its betting opened
    order: tuple[int, ...]  # seats still to stand pat or discard, in turn
    owed: tuple[tuple[int, tuple[str, ...]], ...] = ()  # (seat, his discards) not yet served
    discarded: tuple[str, ...] = ()  # every card discarded this hand
    seen: frozenset[str] = frozenset()  # every card dealt this hand (the deal and draws)
    returned: frozenset[str] = frozenset()  # seen cards a reshuffle put back in the stub
    stub: int = 0  # cards left in the stub
    burns: int = 0  # cards burned since the last reshuffle
    # (draw number, seat, "sd" discarded / "dh" dealt, cards), in order: the hand history
    log: tuple[tuple[int, int, str, tuple[str, ...]], ...] = ()
    last: tuple[int, ...] = ()  # seats whose exposed card is replaced after the others'


@dataclass(frozen=True, slots=True, kw_only=True)
class HandState:
    hand_id: str
    variant: Variant
    level: Level
    button: int  # may be an empty seat (dead button, R32)
    small_blind_seat: int | None  # None = dead small blind
    big_blind_seat: int
    seats: tuple[SeatState, ...]
    street: Street = Street.PREFLOP
    phase: Phase = Phase.BETTING
    board: tuple[str, ...] = ()
    call_to: int = 0  # highest street total to match
    increment: int = 0  # last full bet/raise increment = min raise size (R43)
    last_full_to: int = 0  # street total set by the last full bet/raise (single-raise re-opening)
    bets_this_street: int = 0  # voluntary bets and raises (fixed-limit cap, R48)
    action_on: int | None = None
    last_aggressor: int | None = None  # last bettor/raiser on the current street
    actions: tuple[ActionRecord, ...] = ()
    face_up: bool = False  # R16: all live hands tabled, no more betting possible
    pots: tuple[Pot, ...] = ()
    awards: tuple[Award, ...] = ()
    returned: tuple[tuple[int, int], ...] = ()  # (seat, amount) uncalled bets given back
    preflop_assumed_dead: int = field(default=0)  # R54-B: chips PL counts treat as posted
    board_repairs: tuple[BoardRepair, ...] = ()  # R39 / RP-5 repairs, in order (hand history)
    event_players_left: int | None = None  # players left in the event (R48), from the room
    bring_in_seat: int | None = None  # stud: who was dealt the bring-in card (RP-10-E)
    opener_seat: int | None = None  # stud: the showing hand that opens the street (RP-10-D)
    draw: DrawState | None = None  # draw games: the draw under way and the stub (engine/draw.py)
    # stud: (seat, card) exposed by the dealer, in order: an initial downcard made the upcard
    # (RP-10-A) or a seventh-street card replaced and out of play (RP-10-B)
    exposed: tuple[tuple[int, str], ...] = ()

    def seat(self, number: int) -> SeatState:
        for s in self.seats:
            if s.seat == number:
                return s
        raise KeyError(f"seat {number} is not dealt in to hand {self.hand_id}")

    def has_seat(self, number: int) -> bool:
        return number in [s.seat for s in self.seats]  # no generator: every tabled hand asks

    def with_seat(self, updated: SeatState) -> HandState:
        return evolve(
            self, seats=tuple([updated if s.seat == updated.seat else s for s in self.seats])
        )

    @property
    def in_hand(self) -> tuple[SeatState, ...]:
        return tuple([s for s in self.seats if s.status is not _FOLDED])

    @property
    def players_in_hand(self) -> int:
        # counted in C over the statuses, no list built: ``settle`` asks on every step
        return len(self.seats) - countOf(map(_STATUS, self.seats), _FOLDED)

    @property
    def pot_total(self) -> int:
        """All chips committed this hand, including bets still in front of players."""
        return sum([s.committed for s in self.seats])

    def substantial_since(self, index: int, rules: RuleProfile) -> bool:
        """R36 (``is_substantial``) over the actions in turn from ``index`` on."""
        return is_substantial(((a.kind, a.chips_in) for a in self.actions[index:]), rules)

    def seats_clockwise_from(self, start: int) -> tuple[SeatState, ...]:
        """Dealt-in seats in clockwise order, beginning with the first seat after ``start``."""
        after = [s for s in self.seats if s.seat > start]
        before = [s for s in self.seats if s.seat <= start]
        return tuple(after + before)
