"""``pokertable archive``: the room's hand-history archive, and the floor's way back into it.

``pokertable archive run`` hears every table of a venue and stores each completed hand as
PHH (``room.hand_archive``) in SQLite or PostgreSQL (``room.hand_store``). It is its own
process, not part of the clock: it reads the tables' hole cards (the secure lane), which
the clock and its display must never hold, it needs a database that may live on a venue
server, and a tournament can run without it. Its broker login ``archive`` only reads.

``list``, ``show`` and ``export`` read the archive for a dispute: ``export`` writes a .phh
that ``pokertable replay`` plays through the engine, or a hand or the whole tournament as
PokerStars text or Open Hand History for trackers (``room.archive_export``;
docs/tournament-server.md).
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pokertable.room.archive_export import EXTENSIONS, FORMATS, export_records, first_stacks
from pokertable.room.hand_archive import HandRecord, add_hole_cards, hand_record
from pokertable.room.hand_store import HandStore, StoreError, open_store
from pokertable.room.inbound import json_object
from pokertable.room.serving import broker_address, run_until_interrupted

LOG = logging.getLogger(__name__)
KEEP_PENDING = 8  # hands per table whose hole cards are held until their hand_complete


@dataclass
class _Table:
    """What the archive follows of one table's session."""

    session: str = ""
    last_seq: dict[str, int] = field(default_factory=dict)  # per stream: events, hole_cards
    started: dict[str, int] = field(default_factory=dict)  # hand_id -> hand_start ts_ms
    # hand_id -> each seat's successive hands: a draw game's draws (hand_archive.draw_cards)
    hands: dict[str, dict[int, list[list[str]]]] = field(default_factory=dict)
    # hand_id -> its hand_complete event and start: stored again as late cards arrive
    completed: dict[str, tuple[dict[str, Any], int | None]] = field(default_factory=dict)


class ArchiveService:
    """Subscribes to every table's events and hole cards; stores each completed hand."""

    def __init__(
        self, *, host: str, port: int, venue: str, login: tuple[str, str], store: HandStore
    ) -> None:
        from pokertable.mqtt.topics import ROOT, check_name
        from pokertable.room.service_client import ServiceClient

        self.venue = check_name("venue", venue)
        self.base = f"{ROOT}/{venue}"
        self.store = store
        self._tables: dict[str, _Table] = {}
        self._lock = threading.Lock()
        self.subscribed = threading.Event()
        self.stored = threading.Condition()  # notified after each hand is stored
        # A persistent session: while the archive restarts, the broker keeps its QoS 1
        # messages (mosquitto.conf max_queued_messages), so no hand is missed. Its client id
        # is derived from its password: stable across restarts, unknowable to other logins.
        self.client = ServiceClient(f"archive-{venue}", venue, login, persistent=True)
        self.client.suppress_exceptions = True
        self.client.on_connect = self._on_connect
        self.client.on_subscribe = lambda *_: self.subscribed.set()
        self.client.on_message = self._on_message
        self.client.connect_async(host, port)

    def start(self) -> None:
        self.client.loop_start()

    def stop(self) -> None:
        self.client.say_offline_and_disconnect()
        self.client.loop_stop()

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if not self.client.accepted(reason):
            return
        client.subscribe([(f"{self.base}/+/events", 1), (f"{self.base}/+/secure/hole_cards/+", 1)])
        self.client.say_online()

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        parts = message.topic.split("/")
        try:
            payload = json_object(message.payload)
            if parts[-1] == "events":
                self._event(parts[-2], payload)
            elif parts[-3:-1] == ["secure", "hole_cards"]:
                self._hole_cards(parts[-4], payload)
        except (ValueError, TypeError, KeyError) as error:
            LOG.warning("archive: dropped a bad payload on %s: %s", message.topic, error)
        except StoreError as error:
            LOG.error("archive: %s", error)

    def _follow(self, name: str, payload: dict[str, Any], stream: str) -> _Table | None:
        """The table's record, or None for a QoS 1 repeat; a new session starts afresh."""
        session, seq = str(payload.get("session", "")), payload.get("seq")
        with self._lock:
            table = self._tables.get(name)
            if table is None or table.session != session:
                table = self._tables[name] = _Table(session=session)
            if isinstance(seq, int):
                last = table.last_seq.get(stream, 0)
                if seq <= last:
                    return None
                if seq > last + 1 and last:
                    LOG.warning(
                        "archive: %s %s: seq %d after %d; a hand in the gap is "
                        "missing here (export the table's journal)",
                        name,
                        stream,
                        seq,
                        last,
                    )
                table.last_seq[stream] = seq
            return table

    def _event(self, name: str, payload: dict[str, Any]) -> None:
        table = self._follow(name, payload, "events")
        if table is None:
            return
        kind, hand_id = payload.get("kind"), payload.get("hand_id")
        if kind == "hand_start" and isinstance(hand_id, str):
            table.started[hand_id] = int(payload.get("ts_ms") or 0)
            _keep_last(table.started)
        elif kind == "hand_complete" and isinstance(hand_id, str):
            # after a restart mid-hand, what it kept sealed (the cards seen before it)
            hands = table.hands.get(hand_id) or self.store.pending_hands(
                self.venue, name, table.session, hand_id)
            table.hands[hand_id] = hands
            table.completed[hand_id] = (payload, table.started.pop(hand_id, None))
            _keep_last(table.hands)
            _keep_last(table.completed)
            record = self._record(name, hand_id, table)
            self.store.drop_pending(self.venue, name, table.session, hand_id)
            with self.stored:
                self.stored.notify_all()
            if not record.verified:
                LOG.error("archive: %s: %s", record.name, record.problem)

    def _record(self, name: str, hand_id: str, table: _Table) -> HandRecord:
        """Store the completed hand with every hole card seen so far (each seat's last hand;
        a draw game's deal and draws from his successive hands) and return its record."""
        event, started = table.completed[hand_id]
        hands = table.hands.get(hand_id, {})
        last = {seat: seen[-1] for seat, seen in hands.items() if seen}
        record = hand_record(self.venue, name, event, last, started, hands)
        self.store.put(record)
        return record

    def _hole_cards(self, name: str, payload: dict[str, Any]) -> None:
        table = self._follow(name, payload, "hole_cards")
        if table is None:
            return
        hand_id, seat, cards = payload["hand_id"], int(payload["seat"]), list(payload["cards"])
        if hand_id not in table.hands:  # first seen here
            stored = self.store.by_hand_id(self.venue, name, table.session, hand_id)
            if stored is not None:  # stored before a restart: its event is gone here
                self.store.put(add_hole_cards(stored, {seat: cards}))
                return
            # after a restart mid-hand, what it kept sealed
            table.hands[hand_id] = self.store.pending_hands(
                self.venue, name, table.session, hand_id)
            _keep_last(table.hands)
        seen = table.hands[hand_id].setdefault(seat, [])
        if seen[-1:] == [cards]:  # a QoS 1 repeat the restarted archive already kept
            return
        seen.append(cards)
        if hand_id in table.completed:
            # After the hand: the table's secure delay held the cards back. The hand is
            # stored again from its event with every card seen, draws included.
            self._record(name, hand_id, table)
            return
        # the usual case, the hand still on; with a key, kept sealed too: an archive
        # killed mid-hand loses none of them
        self.store.put_pending(self.venue, name, table.session, hand_id, seat, seen)


def _keep_last(by_hand: dict[str, Any]) -> None:
    while len(by_hand) > KEEP_PENDING:
        del by_hand[next(iter(by_hand))]


# --- the command line ----------------------------------------------------------------------

DESCRIPTION = (
    "The room's hand-history archive (docs/tournament-server.md): `run` stores every "
    "completed hand of a venue as PHH; `list`, `show` and `export` read it back, `export` "
    "as PHH for `pokertable replay`, or PokerStars text or OHH JSON for trackers (one hand "
    "or --tournament). The broker password comes from "
    "POKERTABLE_ARCHIVE_PASSWORD."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = DESCRIPTION
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--venue", required=True, help="venue name in the topic tree")
    common.add_argument(
        "--db", help="SQLite file or postgresql:// URL (default: hands-<venue>.sqlite3 here)"
    )
    common.add_argument(
        "--key-file",
        help="seal each hand's PHH (its hole cards) at rest with this key "
        "(python -m pokertable.controller.sealing new-key FILE); needed to show or export",
    )
    actions = parser.add_subparsers(dest="action", required=True)
    run_parser = actions.add_parser("run", parents=[common], help="archive every hand, live")
    run_parser.add_argument(
        "--broker", default="127.0.0.1:1883", type=broker_address, help="MQTT broker HOST:PORT"
    )
    run_parser.add_argument("--user", default="archive", help="the archive's broker login")
    listing = actions.add_parser("list", parents=[common], help="one line per stored hand")
    listing.add_argument("table", nargs="?", help="only this table")
    show = actions.add_parser("show", parents=[common], help="print a hand's PHH")
    show.add_argument("table", help="the table's id (table.toml [table] id)")
    show.add_argument("hand", type=int, help="the table's hand number")
    show.add_argument("--session", help="the table's session (default: the newest)")
    export = actions.add_parser(
        "export",
        parents=[common],
        help="write a hand or the whole tournament as PHH, PokerStars text or OHH",
        description="One hand (TABLE HAND, or --hand ID as `list` prints it) or every hand "
        "of the venue (--tournament; with TABLE, that table's) as PHH, PokerStars-style "
        "text for trackers, or Open Hand History JSON (docs/tournament-server.md).",
    )
    export.add_argument("table", nargs="?", help="the table's id (table.toml [table] id)")
    export.add_argument("hand", nargs="?", type=int, help="the table's hand number")
    export.add_argument("--session", help="the table's session (default: the newest)")
    which = export.add_mutually_exclusive_group()
    which.add_argument("--hand", dest="hand_id", metavar="ID", help="the hand's id")
    which.add_argument(
        "--tournament", action="store_true", help="every hand the archive holds, in order"
    )
    export.add_argument(
        "--format", choices=FORMATS, default="phh", help="phh (default), pokerstars or ohh"
    )
    export.add_argument("--event", help="the tournament's name in the file (default: the venue)")
    export.add_argument(
        "--tournament-number",
        help="digits trackers key the tournament on (default: the venue's first hand's date, "
        "YYYYMMDD)",
    )
    export.add_argument(
        "--initial-stack",
        type=int,
        help="ohh: the tournament's starting stack (default: the largest stack a player "
        "started his first archived hand with)",
    )
    export.add_argument(
        "--hero", help="only this player's hole cards are dealt (default: every hand read)"
    )
    export.add_argument(
        "-o",
        "--output",
        type=Path,
        help="file or directory (default: <table>-<hand> or <venue>-tournament, here)",
    )


def run(args: argparse.Namespace) -> int:
    try:
        store = open_store(args.db or f"hands-{args.venue}.sqlite3", args.key_file)
    except StoreError as error:
        print(f"pokertable archive: {error}", file=sys.stderr)
        return 78
    try:
        if args.action == "run":
            return _serve(args, store)
        if args.action == "list":
            for record in store.hands(args.venue, args.table):
                print(_line(record))
            return 0
        if args.action == "export":
            return _export(args, store)
        found = store.get(args.venue, args.table, args.hand, args.session)
        if found is None:
            print(
                f"pokertable archive: no hand {args.hand} of table {args.table} in {store.where}",
                file=sys.stderr,
            )
            return 1
        record = found
        if record.phh is None:
            print(f"pokertable archive: {record.name}: no PHH: {record.problem}", file=sys.stderr)
            return 1
        if not record.verified:
            print(f"warning: {record.name}: {record.problem}", file=sys.stderr)
        print(record.phh, end="")
        return 0
    except StoreError as error:
        print(f"pokertable archive: {error}", file=sys.stderr)
        return 1
    finally:
        store.close()


def _export(args: argparse.Namespace, store: HandStore) -> int:
    """``archive export``: the chosen hands in the chosen format, to a file."""
    from datetime import UTC, datetime

    from pokertable.controller.history.tracker import ExportContext

    if args.tournament:
        records = store.hands(args.venue, args.table)
        records = [r for r in records if args.session is None or r.session == args.session]
        records = [store.get(r.venue, r.table, r.hand_number, r.session) or r for r in records]
        default_name = f"{args.table or args.venue}-tournament"
    else:
        found = _one(args, store)
        if found is None:
            return 1
        records = [found]
        default_name = f"{found.table}-{found.hand_number:04d}"
    if not records:
        print(f"pokertable archive: no hands of {args.venue} in {store.where}", file=sys.stderr)
        return 1
    for record in records:
        if record.phh is not None and not record.verified:
            print(f"warning: {record.name}: {record.problem}", file=sys.stderr)
    # The venue's first hand dates the tournament: one number for a hand and for the whole.
    first = min((r.started_ms or r.finished_ms for r in store.hands(args.venue)), default=0)
    number = args.tournament_number or datetime.fromtimestamp(first / 1000, tz=UTC).strftime(
        "%Y%m%d"
    )
    try:
        context = ExportContext(
            event=args.event or args.venue,
            tournament=number,
            initial_stack=args.initial_stack or _initial_stack(args, store),
        )
    except ValueError as error:
        print(f"pokertable archive: --tournament-number: {error}", file=sys.stderr)
        return 2
    result = export_records(
        records, args.format, context, hero=args.hero, phh_event=args.event is not None
    )
    for why in result.skipped:
        print(f"skipped: {why}", file=sys.stderr)
    if not result.hands:
        print("pokertable archive: no hand could be exported", file=sys.stderr)
        return 1
    extension = EXTENSIONS[args.format]
    if args.format == "phh" and result.hands > 1:
        extension = ".phhs"
    target: Path = args.output or Path(".")
    if target.is_dir():
        target = target / f"{default_name}{extension}"
    target.write_text(result.text, encoding="utf-8")
    print(target)
    return 1 if result.skipped else 0


def _initial_stack(args: argparse.Namespace, store: HandStore) -> int | None:
    """OHH's ``initial_stack`` when not given: from the venue's first archived hands."""
    return first_stacks(store.hands(args.venue)) if args.format == "ohh" else None


def _one(args: argparse.Namespace, store: HandStore) -> HandRecord | None:
    """The one hand ``export`` names (TABLE HAND or --hand ID), or None, said on stderr."""
    found: HandRecord | None = None
    if args.hand_id is not None:
        match = [r for r in store.hands(args.venue, args.table) if r.hand_id == args.hand_id]
        if match:
            found = store.get(
                match[-1].venue, match[-1].table, match[-1].hand_number, match[-1].session
            )
        what = f"hand {args.hand_id}"
    elif args.table is not None and args.hand is not None:
        found = store.get(args.venue, args.table, args.hand, args.session)
        what = f"hand {args.hand} of table {args.table}"
    else:
        print(
            "pokertable archive export: name TABLE HAND, --hand ID or --tournament", file=sys.stderr
        )
        return None
    if found is None:
        print(f"pokertable archive: no {what} in {store.where}", file=sys.stderr)
    elif found.phh is None:
        print(f"pokertable archive: {found.name}: no PHH: {found.problem}", file=sys.stderr)
        return None
    return found


def _line(record: HandRecord) -> str:
    """One hand for ``archive list``; names come from the table's config or a director's
    typing, so control characters (terminal escapes) are printed escaped, never sent."""
    stacks = ", ".join(
        f"{_shown(p)} {s}" for p, s in zip(record.players, record.finishing_stacks, strict=False)
    )
    check = "replays" if record.verified else f"NOT VERIFIED: {_shown(record.problem or '')}"
    return (
        f"{_shown(record.table)} {record.hand_number:>5} {_shown(record.hand_id)} "
        f"[{_shown(record.session)}] {stacks}  {check}"
    )


def _shown(text: str) -> str:
    r"""``text`` with every non-printable character escaped.

    >>> _shown("Ann\x1b]0;owned\x07")
    'Ann\\x1b]0;owned\\x07'
    """
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)


def _serve(args: argparse.Namespace, store: HandStore) -> int:
    host, port = args.broker
    service = ArchiveService(
        host=host,
        port=port,
        venue=args.venue,
        login=(args.user, os.environ.get("POKERTABLE_ARCHIVE_PASSWORD", "")),
        store=store,
    )
    service.start()
    print(f"archive: venue {args.venue} into {store.where}", flush=True)
    return run_until_interrupted(service)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="pokertable archive")
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
