"""The event journal: every input is on disk before it changes the table.

An append-only file of JSON lines, one per input, each written to the operating system
(``flush``) before the session applies it, so a ``kill -9`` of the controller loses
nothing. Console and room commands are fsynced before they are applied and acknowledged;
physical inputs (chips, cards, reader notices) are fsynced in groups, when the input
queue runs dry or by the next command, because after a power cut the readers' first view
re-reports everything on the felt (docs/benchmarks.md, "Durability and latency").

On start the application replays the journal through the pure session and the table
resumes exactly where it was, mid-hand included. A line torn by a power cut
or ``kill -9`` mid-write can only be the last one; it is cut off (and kept in a ``.torn`` file
for the floor) rather than trusted.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any


class JournalError(Exception):
    """The journal cannot be used (corrupt in the middle, not writable)."""


class Journal:
    def __init__(self, path: str | Path, *, fsync: bool = True) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._fsync = fsync
        # Lines written and lines known fsynced: ``sync`` may run on another thread than
        # ``append`` (the engine thread commits the group the reader thread wrote).
        self._written = 0
        self._synced = 0
        self._count = self._repair()
        self._file: IO[bytes] = open(self.path, "ab")  # noqa: SIM115 - held open for appends

    def __len__(self) -> int:
        return self._count

    def _repair(self) -> int:
        """Count good lines; cut a torn last line off (kept aside in ``<name>.torn``)."""
        if not self.path.exists():
            return 0
        data = self.path.read_bytes()
        if not data:
            return 0
        lines = data.split(b"\n")
        tail = lines.pop()  # after the last newline: b"" when the file ends cleanly
        count = 0
        for number, line in enumerate(lines, start=1):
            try:
                json.loads(line)
            except ValueError as exc:
                raise JournalError(f"{self.path}: line {number} is not JSON ({exc})") from exc
            count += 1
        if tail:
            torn = self.path.with_suffix(self.path.suffix + ".torn")
            torn.write_bytes(tail)
            with open(self.path, "r+b") as f:
                f.truncate(len(data) - len(tail))
        return count

    def append(self, record: dict[str, Any], *, sync: bool = True) -> int:
        """Write one record; returns its index (0-based).

        The line always reaches the operating system (it survives a killed process).
        ``sync`` also fsyncs it, and every line before it, to survive a power cut;
        without it the line waits for the next ``sync()`` (group commit).
        """
        line = json.dumps(record, separators=(",", ":"), sort_keys=True).encode() + b"\n"
        self._file.write(line)
        self._file.flush()
        self._written += 1
        if sync and self._fsync:
            os.fsync(self._file.fileno())
            self._synced = self._written
        index = self._count
        self._count += 1
        return index

    def sync(self) -> None:
        """fsync the lines appended without ``sync`` (one fsync for the whole group)."""
        target = self._written
        if target > self._synced and self._fsync and not self._file.closed:
            os.fsync(self._file.fileno())
            self._synced = max(self._synced, target)

    def records(self) -> Iterator[dict[str, Any]]:
        with open(self.path, "rb") as f:
            for line in f:
                if line.strip():
                    record: dict[str, Any] = json.loads(line)
                    yield record

    def close(self) -> None:
        if not self._file.closed:
            self.sync()
        self._file.close()
