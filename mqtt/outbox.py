"""Store-and-forward: every outbound message waits in SQLite until the broker PUBACKs it.

paho keeps its session in memory, so a controller restart would lose whatever it had not
sent. Here a message gets its sequence number and its row in one transaction; the bridge
deletes the row only on PUBACK, so after a crash the next start re-sends what is left, in
order. The outbox is bounded by the bytes of its payloads (and a row count): when full the
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

import sqlite3
import threading
from collections.abc import Callable
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
CREATE INDEX IF NOT EXISTS outbox_lane ON outbox (lane, id);
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
        self._sealer = sealer  # the secure lane (hole cards) is sealed at rest
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
        self._counters: dict[str, int] = {
            stream: value
            for stream, value in self._db.execute(
                "SELECT stream, value FROM counters WHERE session = ?", (self.session,)
            )
        }
        (self._count, self._bytes) = self._db.execute(
            "SELECT COUNT(*), COALESCE(SUM(LENGTH(payload)), 0) FROM outbox"
        ).fetchone()
        row = self._db.execute(
            "SELECT value FROM origins WHERE session = ?", (self.session,)
        ).fetchone()
        self._origin: int = row[0] if row else -1

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
        latest_value: bytes = b"",
        bounded: bool = True,
        origin: int | None = None,
    ) -> int | None:
        """Number, build and store one message atomically; returns its sequence number.

        ``build(seq)`` may raise (for example a schema error): then nothing is stored and the
        counter does not move, so consumers never see a gap for a message that never existed.
        ``bounded=False`` is for the one overflow notice, which must not evict another message.
        ``latest_key`` stores ``latest_value`` in the same transaction (last state, for rebirth).
        ``origin`` makes the append idempotent across restarts: a strictly increasing number
        the producer derives from its own journal; an origin at or below the highest one
        already stored was enqueued before and is skipped (returns None). This is how a
        controller that replays its journal after ``kill -9`` publishes each message once.
        """
        with self._lock:
            if origin is not None and origin <= self._origin:
                return None
            seq = self._counters.get(stream, 0) + 1
            payload = build(seq)
            if lane == "secure" and self._sealer is not None:
                payload = self._sealer.seal_payload(payload)
            try:
                self._db.execute("BEGIN IMMEDIATE")
                if bounded:
                    self._make_room(len(payload))
                self._db.execute(
                    "INSERT INTO outbox (lane, stream, seq, topic, payload, retain, release_at_ms)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (lane, stream, seq, topic, payload, int(retain), release_at_ms),
                )
                self._db.execute(
                    "INSERT OR REPLACE INTO counters (session, stream, value) VALUES (?, ?, ?)",
                    (self.session, stream, seq),
                )
                if latest_key is not None:
                    self._db.execute(
                        "INSERT OR REPLACE INTO latest (key, value) VALUES (?, ?)",
                        (latest_key, latest_value),
                    )
                if origin is not None:
                    self._db.execute(
                        "INSERT OR REPLACE INTO origins (session, value) VALUES (?, ?)",
                        (self.session, origin),
                    )
                self._db.execute("COMMIT")
            except BaseException as exc:
                self._undo()
                if isinstance(exc, sqlite3.Error):  # a full disk, a file changed under us
                    raise OutboxError(f"outbox {self.path}: {exc}") from exc
                raise
            self._counters[stream] = seq
            self._count += 1
            self._bytes += len(payload)
            if origin is not None:
                self._origin = origin
            return seq

    def _undo(self) -> None:
        """Roll a failed append back and re-count what is really stored."""
        if self._db.in_transaction:
            self._db.execute("ROLLBACK")
        (self._count, self._bytes) = self._db.execute(
            "SELECT COUNT(*), COALESCE(SUM(LENGTH(payload)), 0) FROM outbox"
        ).fetchone()

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

    def take_drop_report(self) -> DropReport | None:
        """What was dropped since the last call, or None; the caller announces it once."""
        with self._lock:
            if not self._dropped:
                return None
            report = DropReport(dict(self._dropped))
            self._dropped.clear()
            return report

    def pending(self, lane: str, *, after_id: int, now_ms: int, limit: int) -> list[OutboxRow]:
        """Rows of ``lane`` after ``after_id`` that are due, oldest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id, lane, stream, seq, topic, payload, retain, release_at_ms FROM outbox"
                " WHERE lane = ? AND id > ? AND release_at_ms <= ? ORDER BY id LIMIT ?",
                (lane, after_id, now_ms, limit),
            ).fetchall()
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
        """When the next not-yet-due row of ``lane`` becomes due (broadcast delay)."""
        with self._lock:
            (value,) = self._db.execute(
                "SELECT MIN(release_at_ms) FROM outbox WHERE lane = ? AND id > ?", (lane, after_id)
            ).fetchone()
        return None if value is None else int(value)

    def has_pending(self, stream: str) -> bool:
        with self._lock:
            row = self._db.execute(
                "SELECT 1 FROM outbox WHERE stream = ? LIMIT 1", (stream,)
            ).fetchone()
        return row is not None

    def remove(self, row_id: int) -> None:
        """Forget a row once the broker acknowledged it (PUBACK); shrink the file once drained."""
        with self._lock:
            row = self._db.execute(
                "DELETE FROM outbox WHERE id = ? RETURNING LENGTH(payload)", (row_id,)
            ).fetchone()
            if row is None:
                return
            self._count -= 1
            self._bytes -= row[0]
            if self._count == 0:
                self._shrink()

    def _shrink(self) -> None:
        """Give the space of a long outage back to the SD card (cheap: the table is empty)."""
        (free,) = self._db.execute("PRAGMA freelist_count").fetchone()
        if free > _SHRINK_FREE_PAGES:
            self._db.execute("VACUUM")
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def put_latest(self, key: str, value: bytes) -> None:
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO latest (key, value) VALUES (?, ?)", (key, value)
            )

    def get_latest(self, key: str) -> bytes | None:
        with self._lock:
            row = self._db.execute("SELECT value FROM latest WHERE key = ?", (key,)).fetchone()
        return None if row is None else bytes(row[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()
