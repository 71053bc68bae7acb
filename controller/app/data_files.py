"""The table's data files, checked before anything starts: journal, tag registry, outbox.

A damaged or missing file must stop the table with one line that names the file and says
what to do, with exit status 78 (EX_CONFIG), which the systemd unit does not restart:
restarting every 2 s cannot fix a file. ``pokertable run --check`` runs the same checks,
so an installer finds the problem before the service does::

    check_data_files(config)      # raises DataFileError("journal /var/...: line 12 ...")

The checks only read: a missing journal or outbox is a first start, not an error; a
missing registry is (the table would see every chip and card as foreign).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from pokertable.controller.app.config import AppConfig
from pokertable.controller.app.journal import scan, what_to_do
from pokertable.controller.errors import ControllerError

EX_CONFIG = 78


class DataFileError(ControllerError):
    """A data file the table needs is missing or damaged; the message is one line."""


def check_journal(path: Path) -> None:
    if not path.exists():
        return
    try:
        found = scan(path.read_bytes())
    except OSError as exc:
        raise DataFileError(f"journal {path}: cannot read: {exc.strerror}") from exc
    if found.problem is not None:
        p = found.problem
        raise DataFileError(
            f"journal {path}: line {p.line} (byte {p.offset}): {p.reason}; {what_to_do(path)}"
        )


def _open_read_only(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)


def _sqlite_problem(path: Path, tables: tuple[str, ...]) -> str | None:
    """Why SQLite cannot use ``path`` as a file with ``tables``, or None."""
    try:
        db = _open_read_only(path)
        try:
            (verdict,) = db.execute("PRAGMA quick_check").fetchone()
            if verdict != "ok":
                return f"damaged ({verdict})"
            names = {n for (n,) in db.execute("SELECT name FROM sqlite_master")}
        finally:
            db.close()
    except sqlite3.Error as exc:
        return str(exc)
    missing = [t for t in tables if t not in names]
    return f"no {', '.join(missing)} table" if missing else None


def check_registry(path: Path) -> None:
    from pokertable.hardware.registry import unusable_registry

    if not path.is_file():
        raise DataFileError(
            f"registry {path}: does not exist; enroll the chips and cards "
            "(`pokertable enroll`) or fix [registry] path in table.toml"
        )
    problem = _sqlite_problem(path, ("tags",))
    if problem is not None:
        raise DataFileError(unusable_registry(str(path), Exception(problem)))


def check_outbox(path: Path) -> None:
    from pokertable.mqtt.outbox import unusable_outbox

    if not path.exists():
        return
    problem = _sqlite_problem(path, ("outbox", "counters", "latest", "origins"))
    if problem is not None:
        raise DataFileError(unusable_outbox(str(path), Exception(problem)))


def check_data_files(config: AppConfig) -> None:
    """Raise DataFileError for the first missing or damaged data file."""
    check_registry(Path(config.registry.path))
    check_journal(Path(config.journal.path))
    if config.mqtt is not None:
        check_outbox(Path(config.mqtt.outbox))
