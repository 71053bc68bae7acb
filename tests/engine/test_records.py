"""The record helpers of the hot path, ``evolve``, ``copier`` and ``builder``, give what the
dataclass gives.

Both fill a mutable twin of the record's slots and hand it the frozen class (model.py): the
result must be an ordinary, equal, still frozen instance, and classes the trick does not fit
must be refused (``builder``) or copied slot by slot (``evolve``).
"""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from pokertable.controller.engine import EngineError, HandSetup, start_hand, step
from pokertable.controller.engine.events import ActionKind, PlayerAction
from pokertable.controller.engine.model import (
    HandState,
    Level,
    SeatState,
    SeatStatus,
    Variant,
    builder,
    copier,
    evolve,
)
from pokertable.controller.engine.rulings import Ruling, RulingKind

LEVEL = Level(small_blind=50, big_blind=100)
SEATS = (SeatState(1, "Ann", 1000), SeatState(2, "Bob", 900, bet=100, acted=True))
STATE_FIELDS: dict[str, object] = {
    "hand_id": "h",
    "variant": Variant.NLHE,
    "level": LEVEL,
    "button": 2,
    "small_blind_seat": 1,
    "big_blind_seat": 2,
    "seats": SEATS,
    "call_to": 100,
}
STATE = HandState(**STATE_FIELDS)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("record", "changes"),
    [
        (STATE, {"call_to": 300, "action_on": 1}),
        (SEATS[1], {"status": SeatStatus.FOLDED, "acted": False}),
        (LEVEL, {"ante": 0}),
        (STATE, {}),
    ],
)
def test_evolve_is_dataclasses_replace(record: object, changes: dict[str, object]) -> None:
    _assert_replaced(evolve(record, **changes), record, changes)


def _assert_replaced(copy: object, record: object, changes: dict[str, object]) -> None:
    """``copy`` is what ``dataclasses.replace`` gives: same class, equal, hashable,
    picklable and still frozen."""
    expected = dataclasses.replace(record, **changes)  # type: ignore[type-var]
    assert type(copy) is type(expected)
    assert copy == expected and hash(copy) == hash(expected)
    assert pickle.loads(pickle.dumps(copy)) == expected
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(copy, dataclasses.fields(copy)[0].name, None)  # type: ignore[arg-type]


def test_evolve_of_a_record_with_a_base_class_copies_slot_by_slot() -> None:
    @dataclasses.dataclass(frozen=True, slots=True)
    class Base:
        a: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class Child(Base):
        b: int = 0

    assert evolve(Child(1, 2), b=5) == Child(1, 5)


def test_builder_builds_what_the_constructor_builds() -> None:
    ruling = builder(Ruling)
    ids, text = ("TDA2024-43A",), "seat 3 raises to 300"
    made = ruling(RulingKind.ACCEPTED, ids, text, seat=3, code="raise")
    expected = Ruling(RulingKind.ACCEPTED, ids, text, seat=3, code="raise")
    assert type(made) is Ruling and made == expected and repr(made) == repr(expected)
    assert builder(PlayerAction)(2, ActionKind.BET, 200) == PlayerAction(2, ActionKind.BET, 200)
    state = builder(HandState)(**STATE_FIELDS)
    assert state == STATE
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.text = "changed"  # type: ignore[misc]
    with pytest.raises(TypeError):
        ruling(RulingKind.INFO)  # the same required arguments as the class


def test_builder_refuses_what_it_would_get_wrong() -> None:
    with pytest.raises(TypeError, match="__post_init__"):
        builder(Level)  # its checks would be skipped

    @dataclasses.dataclass(frozen=True, slots=True)
    class Listed:
        items: list[int] = dataclasses.field(default_factory=list)

    with pytest.raises(TypeError, match="items"):
        builder(Listed)


def test_evolve_copies_a_record_that_can_be_weakly_referenced() -> None:
    # The weak-reference slot is the interpreter's, not a field: it is never copied.
    @dataclasses.dataclass(frozen=True, slots=True, weakref_slot=True)
    class Watched:
        a: int
        b: str = "x"

    assert evolve(Watched(1), b="y") == Watched(1, "y")

    @dataclasses.dataclass(frozen=True, slots=True)
    class Child(Watched):
        c: int = 0

    assert evolve(Child(1, "x", 2), c=3) == Child(1, "x", 3)


@pytest.mark.parametrize("name", ["cls", "new", "twin", "default_0"])
def test_builder_refuses_a_field_named_like_its_own_code(name: str) -> None:
    record = dataclasses.make_dataclass("Record", [(name, int)], frozen=True, slots=True)
    with pytest.raises(TypeError, match=f"Record.{name}: no builder for this field"):
        builder(record)


@pytest.mark.parametrize(
    ("record", "changes"),
    [
        (STATE, {"seats": SEATS[:1], "actions": (), "action_on": 1}),
        (SEATS[1], {"status": SeatStatus.FOLDED, "acted": False, "matched": 100}),
        (STATE, {}),
    ],
)
def test_copier_is_dataclasses_replace(record: object, changes: dict[str, object]) -> None:
    _assert_replaced(copier(type(record), *changes)(record, *changes.values()), record, changes)


@pytest.mark.parametrize("names", [("nothing",), ("stack", "stack"), ("obj",)])
def test_copier_refuses_fields_it_would_get_wrong(names: tuple[str, ...]) -> None:
    with pytest.raises(TypeError, match="no copier"):
        copier(SeatState, *names)


def test_every_game_knows_what_it_is() -> None:
    """The games' attributes are plain values set once (model._describe), one per game."""
    seen = {
        v.value: (v.betting.value, v.hole_cards, v.is_stud, v.is_draw, v.draws,
                  v.last_street.name, v.omaha, v.hi_lo)
        for v in Variant
    }
    assert seen == {
        "NT": ("no_limit", 2, False, False, 0, "RIVER", False, False),
        "PO": ("pot_limit", 4, False, False, 0, "RIVER", True, False),
        "FT": ("fixed_limit", 2, False, False, 0, "RIVER", False, False),
        "FO/8": ("fixed_limit", 4, False, False, 0, "RIVER", True, True),
        "PO/8": ("pot_limit", 4, False, False, 0, "RIVER", True, True),
        "F7S": ("fixed_limit", 3, True, False, 0, "SEVENTH", False, False),
        "F7S/8": ("fixed_limit", 3, True, False, 0, "SEVENTH", False, False),
        "FR": ("fixed_limit", 3, True, False, 0, "SEVENTH", False, False),
        "F2L3D": ("fixed_limit", 5, False, True, 3, "RIVER", False, False),
        "N2L1D": ("no_limit", 5, False, True, 1, "FLOP", False, False),
        "FB": ("fixed_limit", 4, False, True, 3, "RIVER", False, False),
    }


def test_step_takes_an_event_of_a_subclass_like_its_class_and_refuses_the_unknown() -> None:
    """``step`` finds its handler by the event's class; a subclass of an event class (not in
    its table) is handled as that class, as the ``match`` it replaced did."""
    setup = HandSetup(hand_id="h", variant=Variant.NLHE, level=LEVEL, button=3,
                      small_blind_seat=1, big_blind_seat=2,
                      players=((1, "Ann", 1000), (2, "Bob", 1000), (3, "Cat", 1000)))
    state, _ = start_hand(setup)

    @dataclasses.dataclass(frozen=True, slots=True)
    class Spoken(PlayerAction):
        words: str = ""

    by_subclass = step(state, Spoken(3, ActionKind.RAISE, 300, words="raise"))
    by_class = step(state, PlayerAction(3, ActionKind.RAISE, 300))
    assert by_subclass[1] == by_class[1] and by_subclass[0].call_to == 300
    with pytest.raises(EngineError, match="unknown event"):
        step(state, "a chip fell")  # type: ignore[arg-type]
