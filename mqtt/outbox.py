"""Store-and-forward: every outbound message waits in SQLite until the broker PUBACKs it.

paho keeps its session in memory, so a controller restart would lose whatever it had not
sent. Here a message gets its sequence number and its row in one INSERT (the row carries
its session, origin and whether it is the latest state, so nothing else is written per
message); the bridge deletes rows only on PUBACK, in batches, so after a crash the next
start re-sends what is left, in order. What a deleted row knew (the last sequence number
of its stream, the journal origin, the latest state for rebirths) is kept by a trigger in
the same transaction as the delete, and recovered at start from those marks and the rows
still waiting. The outbox is bounded by the bytes of its payloads (and a row count): when full the
OLDEST rows are dropped (the newest state is worth more than an old one) and the drop is
counted so the bridge can announce it. Once it has drained, the file gives the space of a
long outage back (VACUUM), so a table that was offline for hours does not keep a big file.

>>> box = Outbox(":memory:", max_messages=2)
>>> box.append("event", "t/events", lambda seq: b'{"seq":%d}' % seq)
1
>>> [row.payload for row in box.pending("public", after_id=0, now_ms=0, limit=10)]
[b'{"seq":1}']
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from pokertable.mqtt.errors import MqttBridgeError

_SCHEMA = """
CREATE TABLE IF NOT EXISTS outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    lane TEXT NOT NULL,
    stream TEXT NOT NULL,
    seq INTEGER NOT NULL,
    topic TEXT NOT NULL,
    payload BLOB NOT NULL,
    retain INTEGER NOT NULL,
    release_at_ms INTEGER NOT NULL
);
DROP INDEX IF EXISTS outbox_lane;
CREATE TABLE IF NOT EXISTS counters (
    session TEXT NOT NULL,
    stream TEXT NOT NULL,
    value INTEGER NOT NULL,
    PRIMARY KEY (session, stream)
);
CREATE TABLE IF NOT EXISTS latest (
    key TEXT PRIMARY KEY,
    value BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS origins (
    session TEXT PRIMARY KEY,
    value INTEGER NOT NULL
);
"""
# Kept apart from _SCHEMA: they need the columns an older outbox gets by ALTER TABLE first.
_TRIGGER = """
CREATE TRIGGER IF NOT EXISTS outbox_marks AFTER DELETE ON outbox WHEN OLD.session IS NOT NULL
BEGIN
    INSERT INTO counters (session, stream, value) VALUES (OLD.session, OLD.stream, OLD.seq)
        ON CONFLICT (session, stream) DO UPDATE SET value = MAX(value, excluded.value);
    INSERT INTO origins (session, value) SELECT OLD.session, OLD.origin
        WHERE OLD.origin IS NOT NULL
        ON CONFLICT (session) DO UPDATE SET value = MAX(value, excluded.value);
    INSERT INTO latest (key, value, row_id) SELECT OLD.latest_key, OLD.payload, OLD.id
        WHERE OLD.latest_key IS NOT NULL
        ON CONFLICT (key) DO UPDATE SET value = excluded.value, row_id = excluded.row_id
        WHERE excluded.row_id > latest.row_id;
END;
"""
# No index beside the rowid: every query scans from a cursor id, and an index was one more
# page written per message (``pending`` serves this process's rows from memory anyway).
# Columns a row carries since one INSERT per message replaced five statements; an outbox
# written by an older version gets them (NULL for its old rows, which the counters cover).
_ADDED_COLUMNS = {
    "outbox": (("session", "TEXT"), ("origin", "INTEGER"), ("latest_key", "TEXT")),
    "latest": (("row_id", "INTEGER NOT NULL DEFAULT 0"),),
}
_RECENT_ROWS = 512  # rows appended by this process that ``pending`` serves without a SELECT
# Rows appended between two ``checkpoint``s: a row is 2-3 pages of the log, so the log stays
# well under SQLite's own checkpoint at 1,000 pages.
_CHECKPOINT_ROWS = 200


class PayloadSeal(Protocol):
    """Seals the secure lane's payloads at rest (hole cards; controller/sealing.py).
    ``open_payload`` raises ValueError for a payload it cannot open."""

    def seal_payload(self, payload: bytes) -> bytes: ...
    def open_payload(self, stored: bytes) -> bytes: ...


DEFAULT_MAX_BYTES = 16 * 1024 * 1024  # payload bytes; with page overhead and WAL, ~30 MB on disk
_SHRINK_FREE_PAGES = 256  # VACUUM a drained outbox with more free pages than this (~1 MB)


class OutboxError(MqttBridgeError):
    """The outbox database cannot be used (wrong file, closed); the message says what to do."""


def unusable_outbox(path: str, exc: BaseException) -> str:
    """One line for an outbox file SQLite cannot use, with the way out."""
    return (
        f"outbox {path}: cannot be used ({exc}); move it aside (mv {path} {path}.bad) and "
        "start again: its undelivered messages are lost, and the table starts a new MQTT "
        "session and re-publishes the journal"
    )


@dataclass(frozen=True, slots=True)
class OutboxRow:
    id: int
    lane: str
    stream: str
    seq: int
    topic: str
    payload: bytes
    retain: bool
    release_at_ms: int


@dataclass(frozen=True, slots=True)
class Appended:
    """A stored message: its sequence number, its row, and the handle ``hand`` returned
    (None: not handed over yet, ``pending`` gives it out)."""

    seq: int
    row_id: int
    handed: int | None


@dataclass(frozen=True, slots=True)
class DropReport:
    """Messages discarded because the outbox was full, per stream: (count, first seq, last seq)."""

    streams: dict[str, tuple[int, int, int]]

    @property
    def total(self) -> int:
        return sum(count for count, _, _ in self.streams.values())


class Outbox:
    """A bounded, ordered, durable queue of outbound messages plus the sequence counters."""

    def __init__(
        self,
        path: str | Path,
        *,
        session: str = "",
        max_messages: int = 50_000,
        max_bytes: int = DEFAULT_MAX_BYTES,
        fsync: bool = False,
        sealer: PayloadSeal | None = None,
    ) -> None:
        if max_messages < 1:
            raise ValueError("max_messages must be at least 1")
        if max_bytes < 1:
            raise ValueError("max_bytes must be at least 1")
        self.path = str(path)
        self.session = session
        self.max_messages = max_messages
        self.max_bytes = max_bytes
        self._lock = threading.Lock()
        self._dropped: dict[str, tuple[int, int, int]] = {}
        # Rows appended by this process, per lane, oldest first; ``pending`` serves a cursor
        # at or after ``_recent_from[lane]`` from here instead of a SELECT per hand-over.
        self._recent: dict[str, deque[OutboxRow]] = {}
        self._recent_from: dict[str, int] = {}
        self._latest: dict[str, bytes] = {}  # latest-state key -> payload, once looked up
        self._sealer = sealer  # the secure lane (hole cards) is sealed at rest
        self._checkpointer: sqlite3.Connection | None = None  # ``checkpoint``'s own connection
        self._unchecked = 0  # rows appended since the last ``checkpoint``
        try:
            self._open(fsync)
            row = self._db.execute(
                "SELECT payload FROM outbox WHERE lane = 'secure' LIMIT 1"
            ).fetchone()
            if row is not None and sealer is not None:
                sealer.open_payload(bytes(row[0]))  # the wrong key fails now, not mid-hand
        except sqlite3.Error as exc:
            raise OutboxError(unusable_outbox(self.path, exc)) from exc
        except ValueError as exc:
            raise OutboxError(f"outbox {self.path}: {exc}") from None

    def _open(self, fsync: bool) -> None:
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        # WAL + NORMAL survives a process crash; FULL also survives power loss (slower on SD cards).
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={'FULL' if fsync else 'NORMAL'}")
        # The WAL file is cut back to 1 MB after each checkpoint instead of keeping its peak.
        self._db.execute("PRAGMA journal_size_limit=1048576")
        self._db.executescript(_SCHEMA)
        for table, columns in _ADDED_COLUMNS.items():
            have = {row[1] for row in self._db.execute(f"PRAGMA table_info({table})")}
            for name, kind in columns:
                if name not in have:
                    self._db.execute(f"ALTER TABLE {table} ADD COLUMN {name} {kind}")
        self._db.executescript(_TRIGGER)
        session = (self.session,)
        self._counters: dict[str, int] = dict(
            self._db.execute("SELECT stream, value FROM counters WHERE session = ?", session)
        )
        for stream, top in self._db.execute(
            "SELECT stream, MAX(seq) FROM outbox WHERE session = ? GROUP BY stream", session
        ):
            self._counters[stream] = max(top, self._counters.get(stream, 0))
        (self._count, self._bytes) = self._db.execute(
            "SELECT COUNT(*), COALESCE(SUM(LENGTH(payload)), 0) FROM outbox"
        ).fetchone()
        (self._origin,) = self._db.execute(
            "SELECT MAX(COALESCE((SELECT value FROM origins WHERE session = ?1), -1),"
            " COALESCE((SELECT MAX(origin) FROM outbox WHERE session = ?1), -1))",
            session,
        ).fetchone()
        # Ids only grow (AUTOINCREMENT): every row this process appends comes after this one.
        row = self._db.execute("SELECT seq FROM sqlite_sequence WHERE name = 'outbox'").fetchone()
        last_id = int(row[0]) if row else 0
        self._recent = {"public": deque(), "secure": deque()}
        self._recent_from = {"public": last_id, "secure": last_id}
        self._check_shrink = True  # a file left by an earlier run may hold free pages

    @property
    def payload_bytes(self) -> int:
        """Bytes of the payloads waiting (what ``max_bytes`` bounds)."""
        return int(self._bytes)

    def __len__(self) -> int:
        return int(self._count)

    def last_seq(self, stream: str) -> int:
        """The last sequence number handed out on ``stream`` in this session (0 if none)."""
        return self._counters.get(stream, 0)

    def next_seq(self, stream: str) -> int:
        """Take a sequence number for a message that bypasses the queue (birth/death status)."""
        with self._lock:
            seq = self._counters.get(stream, 0) + 1
            self._db.execute(
                "INSERT OR REPLACE INTO counters (session, stream, value) VALUES (?, ?, ?)",
                (self.session, stream, seq),
            )
            self._counters[stream] = seq
            return seq

    def append(
        self,
        stream: str,
        topic: str,
        build: Callable[[int], bytes],
        *,
        lane: str = "public",
        retain: bool = False,
        release_at_ms: int = 0,
        latest_key: str | None = None,
        bounded: bool = True,
        origin: int | None = None,
    ) -> int | None:
        """Number, build and store one message atomically; returns its sequence number.

        ``build(seq)`` may raise (for example a schema error): then nothing is stored and the
        counter does not move, so consumers never see a gap for a message that never existed.
        ``bounded=False`` is for the one overflow notice, which must not evict another message.
        ``latest_key``: this message is the latest value of that key (``get_latest``: the last
        state, for rebirth). ``origin`` makes the append idempotent across restarts: a
        strictly increasing number the producer derives from its own journal; an origin at
        or below the highest one already stored was enqueued before and is skipped (returns
        None). This is how a controller that replays its journal after ``kill -9`` publishes
        each message once.
        """
        row = self.append_row(
            stream, topic, build, lane=lane, retain=retain, release_at_ms=release_at_ms,
            latest_key=latest_key, bounded=bounded, origin=origin,
        )  # fmt: skip
        return None if row is None else row.seq

    def append_row(
        self,
        stream: str,
        topic: str,
        build: Callable[[int], bytes],
        *,
        lane: str = "public",
        retain: bool = False,
        release_at_ms: int = 0,
        latest_key: str | None = None,
        bounded: bool = True,
        origin: int | None = None,
        hand: Callable[[bytes], int] | None = None,
        handed_up_to: int = 0,
    ) -> Appended | None:
        """``append``, returning the row; with ``hand``, the message may leave before its
        row is written.

        ``hand(payload)`` gives the built message to the broker and returns its handle (the
        bridge's paho message id). It is called, under this outbox's lock, only when every
        earlier row of ``lane`` was handed over already (``handed_up_to``, the caller's
        cursor) and the outbox is not full: then the message is on the wire while SQLite
        writes its row, not after (the row's INSERT was a good part of a chip's latency,
        docs/benchmarks.md). ``Appended.handed`` says whether it was called; if not, the row
        waits for ``pending`` as any other. The row is still written before the call
        returns, before the next input is applied: a crash between the hand-over and the
        INSERT re-publishes the message after the journal replay with the same sequence
        number, as a crash before its PUBACK does (a repeated seq is a duplicate to drop).
        If ``hand`` or the INSERT after it fails, the error is raised and the number is
        spent (``_spent``).
        """
        with self._lock:
            if origin is not None and origin <= self._origin:
                return None
            seq = self._counters.get(stream, 0) + 1
            payload = built = build(seq)
            if lane == "secure" and self._sealer is not None:
                payload = self._sealer.seal_payload(built)  # handed to paho opened (``built``)
            values = (
                lane, stream, seq, topic, payload, int(retain), release_at_ms, self.session,
                origin, latest_key,
            )  # fmt: skip
            full = self._count >= self.max_messages or self._bytes + len(payload) > self.max_bytes
            handle: int | None = None
            if hand is not None and not full and self._caught_up(lane, handed_up_to):
                try:
                    handle = hand(built)
                except BaseException:
                    self._spent(stream, seq, origin)  # it may have left: never reused
                    raise
            try:
                if bounded and full and self._count > 0:
                    self._db.execute("BEGIN IMMEDIATE")
                    self._make_room(len(payload))
                    row_id = self._insert(values)
                    self._db.execute("COMMIT")
                else:  # one statement: SQLite commits it on its own
                    row_id = self._insert(values)
            except BaseException as exc:
                # A file past rolling back fails the undo too: the error raised is still the
                # append's own, as OutboxError when it is SQLite's.
                with contextlib.suppress(sqlite3.Error):
                    self._undo()
                if handle is not None:  # it left: its number is never handed out again
                    self._spent(stream, seq, origin)
                if isinstance(exc, sqlite3.Error):  # a full disk, a file changed under us
                    raise OutboxError(f"outbox {self.path}: {exc}") from exc
                raise
            self._counters[stream] = seq
            self._count += 1
            self._bytes += len(payload)
            if self._count > _SHRINK_FREE_PAGES:  # a backlog: free pages once it drains
                self._check_shrink = True
            self._unchecked += 1
            if origin is not None:
                self._origin = origin
            if latest_key is not None:
                self._latest[latest_key] = payload
            recent = self._recent.get(lane)
            if recent is not None:
                recent.append(
                    OutboxRow(row_id, lane, stream, seq, topic, built, retain, release_at_ms)
                )
                if len(recent) > _RECENT_ROWS:  # nobody is taking them (offline): the SELECT will
                    self._recent_from[lane] = recent.popleft().id
            return Appended(seq, row_id, handle)

    def _spent(self, stream: str, seq: int, origin: int | None) -> None:
        """A message that may be out without its row: a gap in ``seq`` (which consumers
        see and answer with a rebirth) rather than the number again on another message
        (which they would drop as a repeat)."""
        self._counters[stream] = seq
        if origin is not None:
            self._origin = origin

    def _caught_up(self, lane: str, handed_up_to: int) -> bool:
        """Every row of ``lane`` stored so far was handed over (the caller's cursor)."""
        recent = self._recent.get(lane)
        if recent is None or handed_up_to < self._recent_from[lane]:
            return False  # rows from before this process, or more than ``recent`` holds
        return not recent or recent[-1].id <= handed_up_to

    def _insert(self, values: tuple[object, ...]) -> int:
        cursor = self._db.execute(
            "INSERT INTO outbox (lane, stream, seq, topic, payload, retain, release_at_ms,"
            " session, origin, latest_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            values,
        )
        return int(cursor.lastrowid or 0)

    def _undo(self) -> None:
        """Roll a failed append back and re-count what is really stored."""
        if self._db.in_transaction:
            self._db.execute("ROLLBACK")
        (self._count, self._bytes) = self._db.execute(
            "SELECT COUNT(*), COALESCE(SUM(LENGTH(payload)), 0) FROM outbox"
        ).fetchone()
        self._forget_recent(None)

    def _make_room(self, incoming: int) -> None:
        """Drop the oldest rows until one more row of ``incoming`` bytes fits both bounds."""
        while self._count > 0 and (
            self._count >= self.max_messages or self._bytes + incoming > self.max_bytes
        ):
            rows = self._db.execute(
                "SELECT id, stream, seq, LENGTH(payload) FROM outbox ORDER BY id LIMIT 64"
            ).fetchall()
            for row_id, stream, seq, size in rows:
                if self._count < self.max_messages and self._bytes + incoming <= self.max_bytes:
                    return
                count, first, _ = self._dropped.get(stream, (0, seq, seq))
                self._dropped[stream] = (count + 1, min(first, seq), seq)
                self._db.execute("DELETE FROM outbox WHERE id = ?", (row_id,))
                self._count -= 1
                self._bytes -= size
                self._forget_recent(row_id)

    def _forget_recent(self, up_to: int | None) -> None:
        """Rows up to ``up_to`` (None: all) left the table: ``pending`` must not serve them."""
        for lane, recent in self._recent.items():
            while recent and (up_to is None or recent[0].id <= up_to):
                self._recent_from[lane] = recent.popleft().id

    def take_drop_report(self) -> DropReport | None:
        """What was dropped since the last call, or None; the caller announces it once."""
        if not self._dropped:  # the common case, without taking the lock
            return None
        with self._lock:
            if not self._dropped:
                return None
            report = DropReport(dict(self._dropped))
            self._dropped.clear()
            return report

    def pending(self, lane: str, *, after_id: int, now_ms: int, limit: int) -> list[OutboxRow]:
        """Rows of ``lane`` after ``after_id`` that are due, oldest first, up to the first
        row that is not due yet: a lane is released in order, so a later row whose release
        time came out earlier (the wall clock stepped back under a broadcast delay) waits
        for it instead of moving the caller's cursor past it for good."""
        with self._lock:
            recent = self._recent.get(lane)
            if recent is not None and after_id >= self._recent_from[lane]:
                while recent and recent[0].id <= after_id:  # handed out already
                    self._recent_from[lane] = recent.popleft().id
                due: list[OutboxRow] = []
                for row in recent:
                    if row.release_at_ms > now_ms or len(due) == limit:
                        break
                    due.append(row)
                return due
            rows = self._db.execute(
                "SELECT id, lane, stream, seq, topic, payload, retain, release_at_ms FROM outbox"
                " WHERE lane = ? AND id > ? ORDER BY id LIMIT ?",
                (lane, after_id, limit),
            ).fetchall()
        prefix = 0
        while prefix < len(rows) and rows[prefix][7] <= now_ms:
            prefix += 1
        rows = rows[:prefix]
        seal = self._sealer
        return [
            OutboxRow(
                r[0],
                r[1],
                r[2],
                r[3],
                r[4],
                seal.open_payload(bytes(r[5])) if seal else bytes(r[5]),
                bool(r[6]),
                r[7],
            )
            for r in rows
        ]

    def next_release_ms(self, lane: str, after_id: int) -> int | None:
        """When the lane's next row becomes due (broadcast delay): the first one after
        ``after_id``, since the lane is released in order (``pending``)."""
        with self._lock:
            row = self._db.execute(
                "SELECT release_at_ms FROM outbox WHERE lane = ? AND id > ? ORDER BY id LIMIT 1",
                (lane, after_id),
            ).fetchone()
        return None if row is None else int(row[0])

    def has_pending(self, stream: str) -> bool:
        with self._lock:
            row = self._db.execute(
                "SELECT 1 FROM outbox WHERE stream = ? LIMIT 1", (stream,)
            ).fetchone()
        return row is not None

    def remove(self, row_id: int) -> None:
        """Forget a row once the broker acknowledged it (PUBACK)."""
        self.remove_many((row_id,))

    def remove_many(self, row_ids: Iterable[int]) -> None:
        """Forget acknowledged rows in one transaction; shrink the file once drained.

        The trigger keeps, in the same transaction, what the last of them knew (sequence
        counter, origin, latest state), so a restart never hands out a number twice.
        """
        ids = list(row_ids)
        if not ids:
            return
        with self._lock:
            removed = size = 0
            chunks = [ids[start : start + 500] for start in range(0, len(ids), 500)]
            several = len(chunks) > 1  # one statement is a transaction of its own
            try:
                if several:
                    self._db.execute("BEGIN IMMEDIATE")
                for chunk in chunks:
                    marks = ",".join("?" * len(chunk))
                    for (length,) in self._db.execute(
                        f"DELETE FROM outbox WHERE id IN ({marks}) RETURNING LENGTH(payload)",
                        chunk,
                    ).fetchall():
                        removed += 1
                        size += length
                if several:
                    self._db.execute("COMMIT")
            except BaseException:
                self._undo()
                raise
            self._count -= removed
            self._bytes -= size
            if self._count == 0 and self._check_shrink:
                self._shrink()

    def _shrink(self) -> None:
        """Give the space of a long outage back to the SD card (cheap: the table is empty)."""
        self._check_shrink = False
        (free,) = self._db.execute("PRAGMA freelist_count").fetchone()
        if free > _SHRINK_FREE_PAGES:
            self._db.execute("VACUUM")
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def checkpoint(self, *, force: bool = False) -> int | None:
        """Copy the write-ahead log back into the database file, on the caller's thread,
        once ``_CHECKPOINT_ROWS`` rows were appended since the last time (or ``force``).

        SQLite otherwise does it inside whichever commit takes the log past 1,000 pages,
        two fsyncs in the middle of a message's append or of a delete that holds the lock
        appends wait on. The bridge's worker calls this after its batches of deletes, on a
        connection of its own and without that lock, so the log never gets that long and
        appends go on while it runs (``PASSIVE``: it copies what no reader still needs).
        Not after every batch: each checkpoint is two fsyncs, and a room of tables paid
        them ten times as often as SQLite did. Returns the pages copied (None: not run).
        """
        if self.path == ":memory:" or (self._unchecked < _CHECKPOINT_ROWS and not force):
            return None
        self._unchecked = 0
        if self._checkpointer is None:
            self._checkpointer = sqlite3.connect(
                self.path, check_same_thread=False, isolation_level=None
            )
        _, _, copied = self._checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        return int(copied)

    def put_latest(self, key: str, value: bytes) -> None:
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO latest (key, value, row_id)"
                " VALUES (?, ?, (SELECT COALESCE(MAX(seq), 0) FROM sqlite_sequence))",
                (key, value),
            )
            self._latest[key] = value

    def get_latest(self, key: str) -> bytes | None:
        """The payload of the newest message appended with ``latest_key=key`` (or put)."""
        with self._lock:
            value = self._latest.get(key)
            if value is not None:
                return value
            row = (
                self._db.execute(
                    "SELECT payload FROM outbox WHERE latest_key = ? ORDER BY id DESC LIMIT 1",
                    (key,),
                ).fetchone()
                or self._db.execute("SELECT value FROM latest WHERE key = ?", (key,)).fetchone()
            )
        return None if row is None else bytes(row[0])

    def close(self) -> None:
        with self._lock:
            if self._checkpointer is not None:
                self._checkpointer.close()
            self._db.close()
