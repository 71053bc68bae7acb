"""The archive's hands in the formats other software reads: PHH, PokerStars text, OHH.

``pokertable archive export`` writes one hand or a whole tournament (every hand the venue's
archive holds, in the order they finished) as

- ``phh``: the archived PHH itself (a ``.phh`` file; several hands as a ``.phhs``, one TOML
  table a hand), for ``pokertable replay``, PokerKit and the PHH tools;
- ``pokerstars``: PokerStars-style tournament text (``history.pokerstars``), what
  PokerTracker, Hold'em Manager and other trackers import;
- ``ohh``: Open Hand History JSON (``history.ohh``).

The tracker formats are written from the engine's replay of each hand's PHH. A hand the
archive could not write as PHH, or whose PHH does not replay, is left out and named in
``Export.skipped``: a tracker file never holds a hand the engine could not play through.
Pure: records in, text out (docs/tournament-server.md).
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pokertable.controller.history.ohh import hand_to_ohh, render_ohh
from pokertable.controller.history.phh import PhhError
from pokertable.controller.history.pokerstars import game_number, hand_to_pokerstars, join_hands
from pokertable.controller.history.render import render_phh
from pokertable.controller.history.tracker import ExportContext, read_hand
from pokertable.room.hand_archive import HandRecord

FORMATS = ("phh", "pokerstars", "ohh")
EXTENSIONS = {"phh": ".phh", "pokerstars": ".txt", "ohh": ".ohh"}


@dataclass(frozen=True, slots=True)
class Export:
    text: str
    hands: int  # how many hands the text holds
    skipped: tuple[str, ...]  # "<hand name>: why", one a hand left out


def number_of(record: HandRecord) -> int:
    """The hand's number in the tracker formats (``history.pokerstars.game_number``)."""
    return game_number(record.venue, record.table, record.session, record.hand_number)


def export_records(
    records: Sequence[HandRecord],
    fmt: str,
    context: ExportContext,
    *,
    hero: str | None = None,
    phh_event: bool = False,
) -> Export:
    """``records`` in ``fmt`` (one of ``FORMATS``); ValueError for another format.

    ``phh_event``: the PHH gets the field ``event`` (the context's); else it is the
    archived text unchanged, the one the table's journal export writes too."""
    if fmt not in FORMATS:
        raise ValueError(f"format {fmt!r} is not one of {', '.join(FORMATS)}")
    texts: list[str] = []
    objects: list[dict[str, Any]] = []
    skipped: list[str] = []
    for record in records:
        if record.phh is None:
            skipped.append(f"{record.name}: no PHH: {record.problem}")
            continue
        if fmt == "phh":
            texts.append(_with_event(record.phh, context.event) if phh_event else record.phh)
            continue
        try:
            hand = read_hand(
                record.phh, record.name, started_ms=record.started_ms or record.finished_ms
            )
        except PhhError as exc:
            skipped.append(f"{record.name}: does not replay: {exc}")
            continue
        if fmt == "pokerstars":
            texts.append(hand_to_pokerstars(hand, context, number_of(record), hero=hero))
        else:
            objects.append(hand_to_ohh(hand, context, number_of(record), hero=hero))
    if fmt == "ohh":
        return Export(render_ohh(objects), len(objects), tuple(skipped))
    if fmt == "pokerstars":
        return Export(join_hands(texts), len(texts), tuple(skipped))
    if len(texts) == 1:
        return Export(texts[0], 1, tuple(skipped))
    keyed = [
        f"[{_key(record)}]\n{text}"
        for record, text in zip([r for r in records if r.phh is not None], texts, strict=True)
    ]
    return Export("\n".join(keyed), len(texts), tuple(skipped))


def first_stacks(records: Sequence[HandRecord]) -> int | None:
    """The largest stack a player started his first archived hand with: the tournament's
    starting stack when the archive ran from the first hand (OHH ``initial_stack``)."""
    seen: dict[str, int] = {}
    for record in records:
        if record.phh is None:
            continue
        data = tomllib.loads(record.phh)
        for player, stack in zip(data["players"], data["starting_stacks"], strict=True):
            seen.setdefault(str(player), int(stack))
    return max(seen.values(), default=None)


def _key(record: HandRecord) -> str:
    """A .phhs table name: bare TOML key characters only (table ids are already)."""
    raw = f"{record.table}-{record.session}-{record.hand_number:04d}"
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in raw)


def _with_event(phh: str, event: str) -> str:
    """The archived PHH with the PHH field ``event`` (the tournament's name) set."""
    data = tomllib.loads(phh)
    data["event"] = event
    title = phh.splitlines()[0].removeprefix("# ")
    return render_phh(title, list(data.items()))
