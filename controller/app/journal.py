"""The event journal: every input is on disk before it changes the table.

An append-only file of JSON lines, one per input, each written to the operating system
(``flush``) before the session applies it, so a ``kill -9`` of the controller loses
nothing. Console and room commands are fsynced before they are applied and acknowledged;
physical inputs (chips, cards, reader notices) are fsynced in groups, when the input
queue runs dry or by the next command, because after a power cut the readers' first view
re-reports everything on the felt (docs/benchmarks.md, "Durability and latency"). On
start the application replays the journal through the pure session and the table
resumes exactly where it was, mid-hand included.

Each line carries its own checksum: ``<json>\\t<crc32>``, where the CRC-32 covers the
record's index and its JSON. An altered digit, a record removed from the middle or two
records swapped fail the check, and the journal names the file, the line and the byte
offset instead of replaying a wrong table. A line torn by a power cut or ``kill -9``
mid-write can only be the last one, without its newline; it is cut off (and kept in a
``.torn`` file for the floor) rather than trusted. Blank lines carry nothing and are
skipped. Journals written before checksums (plain JSON lines) are still read, as long as
no plain line follows a checksummed one.

    pokertable journal verify /var/lib/pokertable/journal.jsonl   # exit 0: every record good
    pokertable journal repair /var/lib/pokertable/journal.jsonl   # keep the good prefix
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import threading
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from pokertable.controller.errors import ControllerError
from pokertable.controller.sealing import Sealer, SealError, open_record
from pokertable.mqtt.patched_json import one_shot


class JournalError(ControllerError):
    """The journal cannot be used (corrupt in the middle, not writable); says what to do."""


@dataclass(frozen=True, slots=True)
class Problem:
    """The first record that cannot be trusted: where it is and why."""

    line: int  # 1-based line number
    offset: int  # byte offset of the line's first byte
    reason: str


@dataclass(frozen=True, slots=True)
class Scan:
    """What a pass over the journal found."""

    records: int  # good records before the first problem
    good_bytes: int  # length of the file up to the end of the last good line
    blank_lines: int
    legacy_lines: int  # lines without a checksum (journals from before checksums)
    problem: Problem | None
    torn_tail: bytes  # bytes after the last newline (a write cut short)


def _checksum(index: int, body: bytes) -> str:
    """CRC-32 over ``<index>\\t<json>``: the position is covered, so a lost line shows."""
    crc = zlib.crc32(body, zlib.crc32(b"%d\t" % index))
    return f"{crc:08x}"


# One encoder for every line (``json.dumps`` with options builds one per call, cold code on
# a chip's path to the room); the same text as ``json.dumps(record, separators=(",", ":"),
# sort_keys=True)``. Records are trees: no cycle check.
_ENCODE = one_shot(
    json.JSONEncoder(separators=(",", ":"), sort_keys=True, check_circular=False))


def encode_record(index: int, record: dict[str, Any]) -> bytes:
    """One journal line for the record at ``index`` (0-based), newline included:
    ``<json>\\t<crc32 as 8 hex digits>\\n``."""
    body = _ENCODE(record).encode()
    return b"%s\t%s\n" % (body, _checksum(index, body).encode())


def _parse_line(index: int, line: bytes, legacy_allowed: bool) -> tuple[Any, bool, str | None]:
    """(record, was_legacy, reason it is bad or None)."""
    body, tab, crc = line.rpartition(b"\t")
    if not tab:
        if not legacy_allowed:
            return None, True, "no checksum (a plain line after checksummed ones)"
        body = line
    elif crc.decode("ascii", "replace") != _checksum(index, body):
        return None, False, "checksum does not match (the record was altered, or one is missing)"
    try:
        record = json.loads(body)
    except (ValueError, RecursionError) as exc:
        return None, not tab, f"not JSON ({exc})"
    if not isinstance(record, dict):
        return None, not tab, "not a JSON object"
    return record, not tab, None


def scan(data: bytes) -> Scan:
    """Check every line of a journal's bytes; stops at the first record it cannot trust."""
    lines = data.split(b"\n")
    tail = lines.pop()  # after the last newline: b"" when the file ends cleanly
    records = blank = legacy = offset = good_bytes = 0
    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip(b"\r")
        if not line.strip():
            blank += 1
        else:
            _, was_legacy, reason = _parse_line(records, line, legacy_allowed=records == legacy)
            if reason is not None:
                return Scan(records, good_bytes, blank, legacy, Problem(number, offset, reason),
                            tail)
            records += 1
            legacy += was_legacy
        offset += len(raw) + 1
        good_bytes = offset
    return Scan(records, good_bytes, blank, legacy, None, tail)


def good_records(data: bytes) -> tuple[list[dict[str, Any]], Scan]:
    """The records a journal's bytes hold up to the first one that cannot be trusted, and
    the scan that found where that is. Only reads: a reader beside the live table (the PHH
    export) must not repair a last line the table may still be writing."""
    found = scan(data)
    records: list[dict[str, Any]] = []
    for raw in data[: found.good_bytes].split(b"\n"):
        line = raw.rstrip(b"\r")
        if line.strip():
            record, _, _ = _parse_line(len(records), line, legacy_allowed=True)
            records.append(record)
    return records, found


def what_to_do(path: Path) -> str:
    return (
        f"run `pokertable journal verify {path}` to see it, then "
        f"`pokertable journal repair {path}` (keeps a backup; the table restarts from the "
        "last good record)"
    )


class Journal:
    def __init__(self, path: str | Path, *, fsync: bool = True, sealer: Sealer | None = None
                 ) -> None:
        self.path = Path(path)
        self._sealer = sealer  # hole cards sealed at rest (controller/sealing.py)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._fsync = fsync
        # Lines written and lines known fsynced: ``sync`` may run on another thread than
        # ``append`` (the engine thread commits the group the reader thread wrote), so both,
        # and ``close``, take ``_lock`` (a leaf: nothing is taken under it, ``LOCK_ORDER``
        # in table_app.py). A group's fsync runs outside it, so an append never waits for one.
        self._lock = threading.Lock()
        self._written = 0
        self._synced = 0
        self._count = self._open_check()
        # Unbuffered: each line goes to the operating system in one write, with no copy
        # through a buffer and no separate flush.
        self._file: IO[bytes] = open(self.path, "ab", buffering=0)  # noqa: SIM115 - held open

    def __len__(self) -> int:
        return self._count

    def _open_check(self) -> int:
        """Count good records; refuse a damaged journal; cut a torn last line off."""
        if not self.path.exists():
            return 0
        try:
            data = self.path.read_bytes()
        except OSError as exc:
            raise JournalError(f"journal {self.path}: cannot read: {exc.strerror}") from exc
        found = scan(data)
        if found.problem is not None:
            p = found.problem
            raise JournalError(
                f"journal {self.path}: line {p.line} (byte {p.offset}): {p.reason}; "
                + what_to_do(self.path)
            )
        if found.torn_tail:
            torn = self.path.with_suffix(self.path.suffix + ".torn")
            torn.write_bytes(found.torn_tail)
            with open(self.path, "r+b") as f:
                f.truncate(len(data) - len(found.torn_tail))
        return found.records

    def append(self, record: dict[str, Any], *, sync: bool = True) -> int:
        """Write one record with its checksum; returns its index (0-based).

        The line always reaches the operating system (it survives a killed process).
        ``sync`` also fsyncs it, and every line before it, to survive a power cut;
        without it the line waits for the next ``sync()`` (group commit).
        """
        if self._sealer is not None:
            record = self._sealer.seal_record(record)
        with self._lock:
            index = self._count
            line = encode_record(index, record)
            done = self._file.write(line)
            while done < len(line):  # a short write (a full disk raises instead)
                done += self._file.write(line[done:])
            self._written += 1
            if sync and self._fsync:
                os.fsync(self._file.fileno())
                self._synced = self._written
            self._count += 1
        return index

    def sync(self) -> None:
        """fsync the lines appended without ``sync`` (one fsync for the whole group).

        Safe on another thread than ``append``'s: the fsync runs on a duplicate of the file
        descriptor, outside the lock, so appends go on meanwhile and a ``close`` under way
        cannot pull the descriptor from under it."""
        with self._lock:
            target = self._written
            if target <= self._synced or not self._fsync or self._file.closed:
                return
            fd = os.dup(self._file.fileno())
        try:
            os.fsync(fd)  # every line written before ``target`` was read is covered
        finally:
            os.close(fd)
        with self._lock:
            self._synced = max(self._synced, target)

    def records(self) -> Iterator[dict[str, Any]]:
        """The records in order (the file was checked when the journal was opened)."""
        index = 0
        with open(self.path, "rb") as f:
            for raw in f:
                line = raw.rstrip(b"\r\n")
                if not line.strip():
                    continue
                record, _, reason = _parse_line(index, line, legacy_allowed=True)
                if reason is not None:
                    raise JournalError(f"journal {self.path}: record {index + 1}: {reason}")
                index += 1
                try:
                    yield open_record(record, self._sealer)
                except SealError as exc:
                    raise JournalError(f"journal {self.path}: record {index}: {exc}") from None

    def close(self) -> None:
        if not self._file.closed:
            self.sync()
        with self._lock:
            self._file.close()


@dataclass(frozen=True, slots=True)
class Repair:
    kept: int
    dropped_bytes: int
    backup: Path


def repair(path: str | Path) -> Repair:
    """Keep the records before the first bad one, rewritten with checksums.

    The original file is copied to ``<name>.bak-<time>`` first. The MQTT session marker
    beside the journal is moved aside too, so the table starts a new session: its sequence
    numbers and de-duplication begin again and consumers reset instead of skipping.
    """
    path = Path(path)
    data = path.read_bytes()
    records, found = good_records(data)
    backup = path.with_name(f"{path.name}.bak-{time.strftime('%Y%m%dT%H%M%S')}")
    shutil.copy2(path, backup)
    kept = [encode_record(index, record) for index, record in enumerate(records)]
    tmp = path.with_name(path.name + ".repairing")
    with open(tmp, "wb") as f:
        f.write(b"".join(kept))
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    marker = Path(str(path) + ".session")
    if marker.exists():
        os.replace(marker, Path(str(backup) + ".session"))
    return Repair(len(kept), len(data) - found.good_bytes, backup)


# --- ``pokertable journal verify|repair FILE`` ----------------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", choices=("verify", "repair"),
                        help="verify: check every record; repair: keep the good records "
                        "before the first bad one (a backup is kept)")
    parser.add_argument("file", type=Path, help="the journal (table.toml [journal] path)")


def run(args: argparse.Namespace) -> int:
    path: Path = args.file
    try:
        data = path.read_bytes()
    except OSError as exc:
        print(f"journal {path}: cannot read: {exc.strerror}")
        return 66  # EX_NOINPUT
    found = scan(data)
    if args.action == "verify":
        notes = []
        if found.blank_lines:
            notes.append(f"{found.blank_lines} blank line(s) skipped")
        if found.legacy_lines:
            notes.append(f"{found.legacy_lines} record(s) from before checksums")
        sealed = data[: found.good_bytes].count(b'"sealed":')
        if sealed:
            notes.append(f"{sealed} record(s) with sealed hole cards, opened only with the "
                         "key of sealing.key_file")
        if found.torn_tail:
            notes.append(f"a torn last line of {len(found.torn_tail)} bytes (cut off at start)")
        suffix = f" ({'; '.join(notes)})" if notes else ""
        if found.problem is None:
            print(f"journal {path}: ok, {found.records} records{suffix}")
            return 0
        p = found.problem
        print(
            f"journal {path}: line {p.line} (byte {p.offset}): {p.reason}; "
            f"{found.records} good records before it{suffix}; "
            f"`pokertable journal repair {path}` keeps them (with a backup)"
        )
        return 1
    if found.problem is None and not found.torn_tail and not found.blank_lines:
        print(f"journal {path}: ok, {found.records} records; nothing to repair")
        return 0
    done = repair(path)
    print(
        f"journal {path}: kept {done.kept} records, dropped {done.dropped_bytes} bytes from "
        f"the first bad record on; the original is in {done.backup}; the table starts a new "
        "MQTT session; check the table against the felt before the next hand"
    )
    return 0
