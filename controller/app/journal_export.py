"""``pokertable export phh``: every completed hand of a table's journal as a PHH file.

The journal holds the table's inputs, not its hands, so the export folds it through the
same pure ``TableSession`` the table ran (as ``TableApp.recover`` does after a restart)
and writes each hand from the engine's own record of it: the setup it was dealt with,
its ``ActionRecord`` list, board and shown cards. Each file is checked by replaying it
through the engine (``history.replay``): a hand whose replay does not end on the
table's stacks is named, so a dispute never rests on a history that says otherwise.
The PHH text itself comes from ``history.render``, which the room's archive uses too.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pokertable.controller.history.render import (
    ExportError,
    hand_to_phh,
    position_order,
    replayed_stacks,
)
from pokertable.controller.table.inputs import from_record
from pokertable.controller.table.session import TableSession, apply


@dataclass(frozen=True, slots=True)
class ExportedHand:
    hand_id: str
    number: int  # the table's hand count when it completed
    text: str  # the PHH file; "" when the hand could not be written (see ``skipped``)
    finishing_stacks: tuple[int, ...]  # the table's stacks after the hand, in p1..pN order
    skipped: str | None = None  # why PHH cannot express this hand; the export goes on


def export_journal(
    session: TableSession, records: Iterable[dict[str, Any]]
) -> Iterator[ExportedHand]:
    """Fold the journal's inputs over ``session`` and yield each hand as it completes."""
    started: dict[str, int] = {}
    for index, record in enumerate(records):
        try:
            item = from_record(record)
        except (ValueError, TypeError) as exc:
            raise ExportError(f"journal record {index}: {exc}") from exc
        before = len(session.history)
        session, _ = apply(session, item)
        tracked = session.tracked
        if tracked is not None:
            started.setdefault(tracked.hand.hand_id, item.at_ms)
        if len(session.history) == before or tracked is None:
            continue
        hand = tracked.hand
        try:
            text = hand_to_phh(
                tracked.setup,
                hand,
                venue=session.config.venue,
                table=session.config.table,
                seat_count=session.config.max_seats,
                number=session.hand_number,
                started_ms=started.get(hand.hand_id),
                rules=session.config.rules,
            )
        except ExportError as exc:
            yield ExportedHand(hand.hand_id, session.hand_number, "", (), skipped=str(exc))
            continue
        yield ExportedHand(
            hand.hand_id,
            session.hand_number,
            text,
            tuple(s.stack for s in position_order(hand)),
        )


def read_journal(path: Path) -> tuple[list[dict[str, Any]], int]:
    """The journal's records and the length of a torn last line, without touching the file.

    ``Journal`` repairs a torn tail in place; the export may run beside the live table
    (whose last line may be mid-write), so it only reads.
    """
    from pokertable.controller.app.journal import good_records

    records, found = good_records(path.read_bytes())
    if found.problem is not None:
        raise ExportError(f"{path}: line {found.problem.line}: {found.problem.reason}")
    return records, len(found.torn_tail)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    formats = parser.add_subparsers(dest="format", required=True)
    phh = formats.add_parser("phh", help="one PHH file per completed hand of a journal")
    phh.add_argument("journal", type=Path, nargs="?", help="the journal (default: the config's)")
    phh.add_argument("--config", required=True, type=Path, help="the table's table.toml")
    phh.add_argument("-o", "--output", type=Path, default=Path("."), help="directory for .phh")


def _file_name(hand: ExportedHand) -> str:
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in hand.hand_id)
    return f"{hand.number:04d}-{safe}.phh"


def run(args: argparse.Namespace) -> int:
    """Write the files, replay each one, and name any hand that does not replay the same."""
    from pokertable.controller.app.config import ConfigError, load_config
    from pokertable.controller.history.phh import PhhError

    try:
        config = load_config(args.config)
    except (ConfigError, OSError) as exc:
        print(f"config error: {exc}", file=sys.stderr)
        return 78
    path: Path = args.journal or Path(config.journal.path)
    if not path.is_file():
        print(f"error: no journal at {path}", file=sys.stderr)
        return 1
    try:
        records, torn = read_journal(path)
    except (ExportError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if torn:
        print(f"note: {path}: a torn last line ({torn} bytes) was left out", file=sys.stderr)
    from pokertable.controller.sealing import SealError, open_record, sealer_for

    try:  # hole cards sealed at rest need the table's key (controller/sealing.py)
        sealer = sealer_for(config.seal_key_file)
        records = [open_record(record, sealer) for record in records]
    except SealError as exc:
        print(f"error: {path}: {exc}", file=sys.stderr)
        return 1
    from pokertable.controller.app.table_app import fresh_session

    session = fresh_session(config)
    args.output.mkdir(parents=True, exist_ok=True)
    failures = written = 0
    rules = session.config.rules
    try:
        for hand in export_journal(session, records):
            if hand.skipped is not None:
                print(f"error: not written: {hand.skipped}", file=sys.stderr)
                failures += 1
                continue
            target = args.output / _file_name(hand)
            target.write_text(hand.text, encoding="utf-8")
            written += 1
            try:
                stacks = replayed_stacks(hand.text, str(target), rules)
            except PhhError as exc:
                print(f"error: {target}: does not replay: {exc}", file=sys.stderr)
                failures += 1
                continue
            if stacks != hand.finishing_stacks:
                print(
                    f"error: {target}: replay ends on {list(stacks)}, "
                    f"the table had {list(hand.finishing_stacks)}",
                    file=sys.stderr,
                )
                failures += 1
    except ExportError as exc:  # an unreadable journal record: the hands before it are out
        print(f"error: {exc}", file=sys.stderr)
        failures += 1
    print(f"{written} hands written to {args.output}")
    return 1 if failures else 0
