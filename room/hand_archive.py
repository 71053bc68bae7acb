"""The room's hand records: each completed hand as a table published it, as PHH.

A table is the authority on its own hands: on ``hand_complete`` it publishes the hand as PHH
(``controller.table.published.published_hand``), written from the engine's own record of it, so
the room never re-derives play from state diffs (which cannot see an R52 correction, a held
action or a floor decision). The event stream is public, so that PHH holds only the cards
tabled at the table; the archive reads the secure lane too and writes in every hole card
the table read. A card nobody read (mucked unseen) stays ``??``. In a draw game the secure
lane gives a seat's hand after each draw he took cards on, so the archive writes in his
discards and new cards too (``draw_cards``): the public PHH has only how many.

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
from pokertable.controller.history.render import (
    dealt_before_draws,
    discard_order,
    render_phh,
    replayed_stacks,
    time_fields,
)


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
    phh: str, hole_cards: Mapping[int, Sequence[str]], started_ms: int | None,
    hands: Mapping[int, Sequence[Sequence[str]]] | None = None,
) -> str:
    """The PHH text with the unknown hole cards of seats in ``hole_cards`` filled in, and
    the hand's date and time when known. Cards already written (tabled) are kept. A draw
    game's deal and draws come from ``hands``: each seat's successive hands (``draw_cards``).

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
    actions: list[str] = data["actions"]
    if hands and any(len(a.split()) >= 2 and a.split()[1] == "sd" for a in actions):
        actions = draw_cards(actions, seats, hands)
        hole_cards = {}
    filled: list[str] = []
    for action in actions:
        words = action.split()
        if len(words) == 4 and words[:2] == ["d", "dh"] and "??" in words[3]:
            seat = seats[int(words[2][1:]) - 1]
            cards = hole_cards.get(seat)
            if cards and 2 * len(cards) == len(words[3]):
                action = f"d dh {words[2]} {''.join(cards)}"
        filled.append(action)
    fields: list[tuple[str, Any]] = [(k, filled if k == "actions" else v) for k, v in data.items()]
    if started_ms is not None and "year" not in data:
        fields += time_fields(started_ms)
    title = phh.splitlines()[0].removeprefix("# ")
    return render_phh(title, fields)


def draw_cards(
    actions: Sequence[str], seats: Sequence[int], hands: Mapping[int, Sequence[Sequence[str]]]
) -> list[str]:
    """A draw game's masked deal and draws filled in from each seat's successive hands (as
    the secure lane sent them): at each draw he took cards on, his discards are what left
    his hand and his new cards what came into it; his deal is his last hand with the draws
    undone, as the table's own PHH writes it (``render.dealt_before_draws``). What the hands
    do not match stays masked (the replay then says the hand cannot be verified).

    >>> draw_cards(["d dh p1 ????", "p1 sd ??", "d dh p1 ??", "p1 sd"], [3],
    ...            {3: [["2c"], ["2c", "Kd"], ["2c"], ["2c", "7h"]]})
    ['d dh p1 2cKd', 'p1 sd Kd', 'd dh p1 7h', 'p1 sd']
    """
    player = {f"p{i + 1}": seat for i, seat in enumerate(seats)}
    pending = {p: list(hands.get(seat, ())) for p, seat in player.items()}
    held: dict[str, list[str]] = {}  # his hand now
    draws: dict[str, list[tuple[str, Sequence[str]]]] = {}
    coming: dict[str, list[str]] = {}  # the new cards of his last discards
    filled: dict[int, str] = {}  # action index -> the action with its cards
    deals: dict[str, int] = {}  # the index of his deal
    for i, action in enumerate(actions):
        words = action.split()
        masked = len(words) >= 3 and set(words[-1]) == {"?"}
        if masked and len(words) == 4 and words[:2] == ["d", "dh"]:
            who = words[2]
            if who not in held:  # the deal: his first whole hand, written once all is known
                held[who] = list(_next_hand(pending.get(who, []), len(words[3]) // 2) or ())
                draws[who], deals[who] = [], i
            elif who in coming:  # a draw's new cards
                new = coming.pop(who)
                draws[who].append(("dh", new))
                filled[i] = f"d dh {who} {''.join(new)}"
        elif masked and len(words) == 3 and words[1] == "sd" and held.get(words[0]):
            who = words[0]
            after = _next_hand(pending[who], len(held[who]))
            if after is None:
                continue
            thrown = [c for c in held[who] if c not in after]
            if len(thrown) == len(words[2]) // 2:
                draws[who].append(("sd", thrown))
                coming[who] = [c for c in after if c not in held[who]]
                held[who] = list(after)
                filled[i] = f"{who} sd {''.join(discard_order(thrown))}"
    for who, i in deals.items():
        dealt = dealt_before_draws(held[who], draws[who])
        if dealt and 2 * len(dealt) == len(actions[i].split()[3]):
            filled[i] = f"d dh {who} {''.join(dealt)}"
    return [filled.get(i, action) for i, action in enumerate(actions)]


def _next_hand(hands: list[Sequence[str]], size: int) -> Sequence[str] | None:
    """The next whole hand of ``size`` cards, dropping the partial ones before it (cards of
    the deal as they were read, a hand between his discards and his new cards)."""
    while hands:
        hand = hands.pop(0)
        if len(hand) == size:
            return hand
    return None


def hand_record(
    venue: str,
    table: str,
    event: Mapping[str, Any],
    hole_cards: Mapping[int, Sequence[str]],
    started_ms: int | None,
    hands: Mapping[int, Sequence[Sequence[str]]] | None = None,
) -> HandRecord:
    """The record of a table's ``hand_complete`` event; ValueError if it is not one.
    ``hands``: each seat's successive hands, for a draw game's draws (``draw_cards``)."""
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
        text = with_hole_cards(text, hole_cards, started_ms, hands)
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
