"""The room's hand records: each completed hand as a table published it, as PHH.

A table is the authority on its own hands: on ``hand_complete`` it publishes the hand as PHH
(``controller.table.published.published_hand``), written from the engine's own record of it, so
the room never re-derives play from state diffs (which cannot see an R52 correction, a held
action or a floor decision). The event stream is public, so that PHH holds only the cards
tabled at the table; the archive reads the secure lane too and writes in every hole card
the table read. A card nobody read (mucked unseen) stays ``??``.

Every record is replayed through the engine (``pokertable replay``) and kept with whether
the replay ends on the table's own finishing stacks: a dispute never rests on a history
that says otherwise without that being said.

Pure: an event and the hole cards in, a ``HandRecord`` out.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from pokertable.controller.history.phh import PhhError
from pokertable.controller.history.render import render_phh, replayed_stacks, time_fields


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One archived hand; ``phh`` is None when PHH cannot express it (``problem`` says why)."""

    venue: str
    table: str
    session: str  # the table's MQTT session: hand numbers start again with a new one
    hand_number: int
    hand_id: str
    started_ms: int | None  # the hand_start event's time, when the archive saw it
    finished_ms: int
    phh: str | None
    players: tuple[str, ...]  # PHH order: p1 the small blind ... the button last
    finishing_stacks: tuple[int, ...]  # the table's, in the same order
    verified: bool  # the PHH replays through the engine to ``finishing_stacks``
    problem: str | None = None

    @property
    def name(self) -> str:
        return f"{self.venue}/{self.table} hand {self.hand_number} ({self.hand_id})"


def with_hole_cards(
    phh: str, hole_cards: Mapping[int, Sequence[str]], started_ms: int | None
) -> str:
    """The PHH text with the unknown hole cards of seats in ``hole_cards`` filled in, and
    the hand's date and time when known. Cards already written (tabled) are kept.

    >>> text = render_phh("v/t hand 1", [("variant", "NT"), ("actions", ["d dh p1 ????",
    ...     "d dh p2 AhKh"]), ("seats", [4, 7]), ("venue", "v"), ("table", "t")])
    >>> print(with_hole_cards(text, {4: ["2c", "2d"], 7: ["Qs", "Qd"]}, None))
    # v/t hand 1
    variant = "NT"
    actions = [
      "d dh p1 2c2d",
      "d dh p2 AhKh",
    ]
    seats = [4, 7]
    venue = "v"
    table = "t"
    <BLANKLINE>
    """
    data = tomllib.loads(phh)
    seats: list[int] = data["seats"]
    actions: list[str] = []
    for action in data["actions"]:
        words = action.split()
        if len(words) == 4 and words[:2] == ["d", "dh"] and "??" in words[3]:
            seat = seats[int(words[2][1:]) - 1]
            cards = hole_cards.get(seat)
            if cards and 2 * len(cards) == len(words[3]):
                action = f"d dh {words[2]} {''.join(cards)}"
        actions.append(action)
    fields: list[tuple[str, Any]] = [(k, actions if k == "actions" else v) for k, v in data.items()]
    if started_ms is not None and "year" not in data:
        fields += time_fields(started_ms)
    title = phh.splitlines()[0].removeprefix("# ")
    return render_phh(title, fields)


def hand_record(
    venue: str,
    table: str,
    event: Mapping[str, Any],
    hole_cards: Mapping[int, Sequence[str]],
    started_ms: int | None,
) -> HandRecord:
    """The record of a table's ``hand_complete`` event; ValueError if it is not one."""
    data = event.get("data")
    if event.get("kind") != "hand_complete" or not isinstance(data, dict):
        raise ValueError("not a hand_complete event")
    number, hand_id = data.get("hand_number"), event.get("hand_id")
    if not isinstance(number, int) or not isinstance(hand_id, str):
        raise ValueError(
            "hand_complete without hand_number and hand_id (a table before the "
            "archive: export its journal with `pokertable export phh`)"
        )
    record = HandRecord(
        venue=venue,
        table=table,
        session=str(event.get("session", "")),
        hand_number=number,
        hand_id=hand_id,
        started_ms=started_ms,
        finished_ms=int(event.get("ts_ms") or 0),
        phh=None,
        players=(),
        finishing_stacks=(),
        verified=False,
        problem=str(data.get("phh_problem") or "no PHH in the event"),
    )
    text = data.get("phh")
    if not isinstance(text, str):
        return record
    try:
        text = with_hole_cards(text, hole_cards, started_ms)
        fields = tomllib.loads(text)
        record = replace(
            record,
            phh=text,
            problem=None,
            players=tuple(str(p) for p in fields["players"]),
            finishing_stacks=tuple(int(s) for s in fields["finishing_stacks"]),
        )
    except (tomllib.TOMLDecodeError, KeyError, IndexError, TypeError, ValueError) as exc:
        return replace(record, problem=f"unreadable PHH in the event: {exc}")
    return verify(record)


def add_hole_cards(record: HandRecord, hole_cards: Mapping[int, Sequence[str]]) -> HandRecord:
    """The record with hole cards that arrived after the hand (the table's secure delay)."""
    if record.phh is None:
        return record
    return verify(replace(record, phh=with_hole_cards(record.phh, hole_cards, None)))


def verify(record: HandRecord) -> HandRecord:
    """Replay the PHH through the engine; ``verified`` when it ends on the table's stacks."""
    assert record.phh is not None
    try:
        stacks = replayed_stacks(record.phh, record.name)
    except PhhError as exc:
        return replace(record, verified=False, problem=f"does not replay: {exc}")
    if stacks != record.finishing_stacks:
        return replace(
            record,
            verified=False,
            problem=(
                f"replay ends on {list(stacks)}, the table had {list(record.finishing_stacks)}"
            ),
        )
    return replace(record, verified=True, problem=None)
