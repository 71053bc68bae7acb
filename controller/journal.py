"""The event journal: every input is on disk before it changes the table.

An append-only file of JSON lines, one per input, each flushed and fsynced before the
session applies it. On start the application replays the journal through the pure
session and the table resumes exactly where it was, mid-hand included. A line torn by a
power cut or ``kill -9`` mid-write can only be the last one; it is cut off (and kept in a
``.torn`` file for the floor) rather than trusted.
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

    def append(self, record: dict[str, Any]) -> int:
        """Write one record durably; returns its index (0-based)."""
        line = json.dumps(record, separators=(",", ":"), sort_keys=True).encode() + b"\n"
        self._file.write(line)
        self._file.flush()
        if self._fsync:
            os.fsync(self._file.fileno())
        index = self._count
        self._count += 1
        return index

    def records(self) -> Iterator[dict[str, Any]]:
        with open(self.path, "rb") as f:
            for line in f:
                if line.strip():
                    record: dict[str, Any] = json.loads(line)
                    yield record

    def close(self) -> None:
        self._file.close()
