"""Where the room's hand records live: SQLite by default, PostgreSQL for a venue-wide server.

SQLite is one file per venue beside the archive process, nothing to install or run; WAL
lets ``pokertable archive show`` read while the service writes. PostgreSQL (``psycopg`` 3,
the optional ``[postgres]`` extra) is for a venue whose hands go to one server that
several rooms, a reporting team or a back office read. The schema and the SQL are the
same for both (``?`` placeholders become ``%s`` for psycopg).

    store = open_store("hands-casino.sqlite3")              # or "postgresql://..."
    store.put(record); store.get("casino", "t07", 42)
"""

from __future__ import annotations

import base64
import json
import os
import sqlite3
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

from pokertable.controller.sealing import Sealer, SealError, sealer_for
from pokertable.room.hand_archive import HandRecord

SCHEMA = """
CREATE TABLE IF NOT EXISTS hands (
    venue TEXT NOT NULL,
    table_id TEXT NOT NULL,
    session TEXT NOT NULL,
    hand_number INTEGER NOT NULL,
    hand_id TEXT NOT NULL,
    started_ms BIGINT,
    finished_ms BIGINT NOT NULL,
    phh TEXT,
    players TEXT NOT NULL,
    finishing_stacks TEXT NOT NULL,
    verified INTEGER NOT NULL,
    problem TEXT,
    PRIMARY KEY (venue, table_id, session, hand_number)
)
"""
HAND_ID_INDEX = ("CREATE INDEX IF NOT EXISTS hands_by_hand_id "
                 "ON hands (venue, table_id, session, hand_id)")
"""The archive asks once per hand whether a hole card's hand is already stored."""
PENDING_SCHEMA = """
CREATE TABLE IF NOT EXISTS pending_hole_cards (
    venue TEXT NOT NULL,
    table_id TEXT NOT NULL,
    session TEXT NOT NULL,
    hand_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    cards TEXT NOT NULL,
    PRIMARY KEY (venue, table_id, session, hand_id, seat)
)
"""
"""Hole cards of hands still being played, kept only sealed (with a key): an archive
killed mid-hand still stores that hand whole when it comes back."""
COLUMNS = (
    "venue",
    "table_id",
    "session",
    "hand_number",
    "hand_id",
    "started_ms",
    "finished_ms",
    "phh",
    "players",
    "finishing_stacks",
    "verified",
    "problem",
)
_UPSERT = (
    f"INSERT INTO hands ({', '.join(COLUMNS)}) VALUES ({', '.join('?' for _ in COLUMNS)}) "
    "ON CONFLICT (venue, table_id, session, hand_number) DO UPDATE SET "
    + ", ".join(f"{c} = excluded.{c}" for c in COLUMNS[4:])
)
_SELECT = f"SELECT {', '.join(COLUMNS)} FROM hands"
_PENDING_HAND = "WHERE venue = ? AND table_id = ? AND session = ? AND hand_id = ?"


class StoreError(Exception):
    """The archive's database cannot be opened or used; the message says which and why."""


SEALED_PREFIX = "sealed:"
"""A PHH column sealed with the archive's key (AES-256-GCM, ``controller.sealing``)."""


class HandStore:
    """Hand records in one database; safe to share between paho's thread and the caller's.

    With a ``sealer`` (``--key-file``) each hand's PHH, which holds every hole card, is
    sealed at rest; the public columns (players, stacks, numbers) stay readable."""

    def __init__(self, connection: Any, placeholder: str, where: str,
                 sealer: Sealer | None = None) -> None:
        self._db = connection
        self._placeholder = placeholder
        self.where = where
        self._sealer = sealer
        self._lock = threading.Lock()
        self._run(SCHEMA)
        self._run(HAND_ID_INDEX)
        self._run(PENDING_SCHEMA)

    @property
    def keeps_pending(self) -> bool:
        """Whether hole cards of a hand in play are kept across a restart (sealed only)."""
        return self._sealer is not None

    def put_pending(self, venue: str, table: str, session: str, hand_id: str, seat: int,
                    hands: list[list[str]]) -> None:
        """Keep ``seat``'s successive hands so far (one in flop games; a draw game's hand
        after each draw he took cards on), replacing what was kept for him."""
        sealed = self._seal(json.dumps(hands))
        if sealed is None or not self.keeps_pending:
            return
        self._run("INSERT INTO pending_hole_cards VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT "
                  "(venue, table_id, session, hand_id, seat) DO UPDATE SET cards = "
                  "excluded.cards", (venue, table, session, hand_id, seat, sealed))

    def pending(self, venue: str, table: str, session: str,
                hand_id: str) -> dict[int, list[str]]:
        """The hand's kept hole cards, by seat (each seat's latest)."""
        return {seat: hands[-1] for seat, hands in
                self.pending_hands(venue, table, session, hand_id).items() if hands}

    def pending_hands(self, venue: str, table: str, session: str,
                      hand_id: str) -> dict[int, list[list[str]]]:
        """Each seat's kept successive hands (a draw game's draws: ``draw_cards``)."""
        if self._sealer is None:
            return {}
        rows = self._run(f"SELECT seat, cards FROM pending_hole_cards {_PENDING_HAND}",
                         (venue, table, session, hand_id))
        kept: dict[int, list[list[str]]] = {}
        for seat, text in rows:
            value = json.loads(self._open_text(text))
            # an archive before draw games kept one hand per seat: a list of cards
            kept[int(seat)] = [value] if value and isinstance(value[0], str) else value
        return kept

    def drop_pending(self, venue: str, table: str, session: str, hand_id: str) -> None:
        """Once the hand is stored with its hole cards."""
        if self._sealer is not None:
            self._run(f"DELETE FROM pending_hole_cards {_PENDING_HAND}",
                      (venue, table, session, hand_id))

    def _run(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        if self._placeholder != "?":
            sql = sql.replace("?", self._placeholder)
        with self._lock:
            try:
                cursor = self._db.execute(sql, params)
                rows = cursor.fetchall() if cursor.description else []
                self._db.commit()
            except Exception as exc:  # sqlite3.Error or psycopg.Error: both name the cause
                raise StoreError(f"hand archive {self.where}: {exc}") from exc
        return [tuple(row) for row in rows]

    def put(self, record: HandRecord) -> None:
        """Store a hand, or replace it (a QoS 1 repeat, hole cards that came later)."""
        self._run(
            _UPSERT,
            (
                record.venue,
                record.table,
                record.session,
                record.hand_number,
                record.hand_id,
                record.started_ms,
                record.finished_ms,
                self._seal(record.phh),
                json.dumps(record.players),
                json.dumps(record.finishing_stacks),
                int(record.verified),
                record.problem,
            ),
        )

    def get(
        self, venue: str, table: str, hand_number: int, session: str | None = None
    ) -> HandRecord | None:
        """The hand; without ``session`` the newest stored with that number."""
        sql = f"{_SELECT} WHERE venue = ? AND table_id = ? AND hand_number = ?"
        params: tuple[Any, ...] = (venue, table, hand_number)
        if session is not None:
            sql += " AND session = ?"
            params += (session,)
        rows = self._run(sql + " ORDER BY finished_ms DESC LIMIT 1", params)
        return self._opened(_record(rows[0]), need_phh=True) if rows else None

    def by_hand_id(self, venue: str, table: str, session: str, hand_id: str
                   ) -> HandRecord | None:
        """The stored hand of that id in the table's session, if any."""
        rows = self._run(f"{_SELECT} {_PENDING_HAND}", (venue, table, session, hand_id))
        return self._opened(_record(rows[0]), need_phh=True) if rows else None

    def hands(self, venue: str, table: str | None = None) -> list[HandRecord]:
        """Every stored hand of the venue (or one table), in the order they finished."""
        sql, params = f"{_SELECT} WHERE venue = ?", [venue]
        if table is not None:
            sql, params = sql + " AND table_id = ?", [venue, table]
        return [
            self._opened(_record(row), need_phh=False)
            for row in self._run(sql + " ORDER BY finished_ms, table_id", tuple(params))
        ]

    def _seal(self, phh: str | None) -> str | None:
        if phh is None or self._sealer is None:
            return phh
        return SEALED_PREFIX + base64.b64encode(self._sealer.seal_payload(phh.encode())).decode()

    def _open_text(self, text: str) -> str:
        assert self._sealer is not None
        try:
            return self._sealer.open_payload(base64.b64decode(text[len(SEALED_PREFIX):])).decode()
        except (SealError, ValueError) as error:
            raise StoreError(f"hand archive {self.where}: {error}") from None

    def _opened(self, record: HandRecord, need_phh: bool) -> HandRecord:
        """The record with its PHH opened; without the key a listing shows no PHH and a
        hand asked for is refused, naming the key."""
        phh = record.phh
        if phh is None or not phh.startswith(SEALED_PREFIX):
            return record
        if self._sealer is None:
            if need_phh:
                raise StoreError(f"hand archive {self.where}: {record.name}'s PHH is sealed: "
                                 "give the archive's key with --key-file")
            return replace(record, phh=None)
        try:
            opened = self._sealer.open_payload(base64.b64decode(phh[len(SEALED_PREFIX):]))
        except (SealError, ValueError) as error:
            raise StoreError(f"hand archive {self.where}: {record.name}: {error}") from None
        return replace(record, phh=opened.decode())

    def close(self) -> None:
        with self._lock:
            self._db.close()


def _record(row: tuple[Any, ...]) -> HandRecord:
    (
        venue,
        table,
        session,
        number,
        hand_id,
        started,
        finished,
        phh,
        players,
        stacks,
        verified,
        problem,
    ) = row
    return HandRecord(
        venue=venue,
        table=table,
        session=session,
        hand_number=number,
        hand_id=hand_id,
        started_ms=started,
        finished_ms=finished,
        phh=phh,
        players=tuple(json.loads(players)),
        finishing_stacks=tuple(json.loads(stacks)),
        verified=bool(verified),
        problem=problem,
    )


def is_postgres(url: str) -> bool:
    return url.startswith(("postgresql://", "postgres://"))


def open_store(url: str, key_file: str | None = None) -> HandStore:
    """A SQLite file path, or a ``postgresql://`` URL (needs the ``[postgres]`` extra);
    ``key_file``: seal the hands' PHH at rest (``python -m pokertable.controller.sealing
    new-key FILE`` makes one)."""
    try:
        sealer = sealer_for(key_file)
    except SealError as error:
        raise StoreError(f"hand archive --key-file: {error}") from None
    if is_postgres(url):
        try:
            import psycopg
        except ImportError:
            raise StoreError(
                "PostgreSQL needs psycopg: pip install 'pokertable[postgres]'"
            ) from None
        try:
            server = psycopg.connect(url, connect_timeout=10)
        except psycopg.Error as exc:
            raise StoreError(f"hand archive {_without_password(url)}: {exc}") from exc
        return HandStore(server, "%s", _without_password(url), sealer)
    path = Path(url)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # Hole cards are in it: readable by the archive's user only. SQLite gives its -wal
        # and -shm files the database file's permissions.
        os.close(os.open(path, os.O_CREAT | os.O_RDWR, 0o600))
        os.chmod(path, 0o600)
        connection = sqlite3.connect(path, check_same_thread=False, timeout=10)
        connection.execute("PRAGMA journal_mode=WAL")
    except (OSError, sqlite3.Error) as exc:
        raise StoreError(f"hand archive {path}: {exc}") from exc
    return HandStore(connection, "?", str(path), sealer)


def _without_password(url: str) -> str:
    """The URL as it may be printed: a password in it is replaced by ***."""
    head, sep, tail = url.partition("@")
    if not sep or ":" not in head.split("//", 1)[-1]:
        return url
    scheme, _, credentials = head.partition("//")
    return f"{scheme}//{credentials.split(':', 1)[0]}:***@{tail}"
