"""Hole cards sealed at rest: the journal and the MQTT outbox never hold one in clear.

A table's journal and outbox sit on an SD card that anyone who lifts the Pi can read, and
the outbox keeps hole cards for the whole broadcast delay. So with ``[sealing] key_file``
set, the private part of a record (the card and tag of every read that is
not on the board: hole cards, burns, mucks) is encrypted with AES-256-GCM under a key kept
in its own file (mode 0600), and the outbox's secure lane stores each payload encrypted.
Public fields stay readable: ``pokertable journal verify`` and anyone reading a journal
without the key see every chip, button and board card; the sealed fields say they are
sealed. Crash recovery opens them with the key from the config, so a restart recovers the
hand with its hole cards. The key is bound to nothing else: keep a copy off the table
(losing it loses the hole cards of the journal, not the public record).

    python -m pokertable.controller.sealing new-key /var/lib/pokertable/hole-cards.key

>>> sealer = Sealer(bytes(32), "hole-cards.key")
>>> record = {"kind": "card", "zone": "seat3.cards", "seat": 3, "card": "As", "uid": "t1",
...           "at_ms": 5}
>>> sealed = sealer.seal_record(record)
>>> sorted(sealed), "As" in str(sealed)
(['at_ms', 'kind', 'sealed', 'seat', 'zone'], False)
>>> open_record(sealed, sealer) == record
True
>>> open_record({"kind": "card", "zone": "board", "seat": None, "card": "2c", "at_ms": 6},
...             None)["card"]
'2c'
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import stat
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pokertable.controller.errors import ControllerError

FIELD = "sealing.key_file"
"""The config key that names the key file (every error names it)."""
SEALED = "sealed"
"""The journal record key that holds the encrypted private fields."""
PRIVATE = ("card", "uid")
"""Fields of a card read that are sealed when the card is not on the board."""
CARD_KINDS = ("card", "card_cleared")
PUBLIC_ZONES = ("board",)
PAYLOAD_MARK = b"\x00sealed1:"
"""Prefix of a sealed outbox payload (a JSON payload never starts with a NUL)."""
_NONCE = 12


class SealError(ControllerError, ValueError):
    """The key is missing, unreadable, too open or not the one the data was sealed with."""


def is_private(record: dict[str, Any]) -> bool:
    """A card read off the board: its card and tag are nobody's business until shown."""
    return record.get("kind") in CARD_KINDS and record.get("zone") not in PUBLIC_ZONES


def _aad(record: dict[str, Any]) -> bytes:
    """The public fields the sealed part belongs to: a sealed card cannot be moved to
    another seat or moment without the key noticing."""
    return json.dumps(
        [record.get("kind"), record.get("zone"), record.get("seat"), record.get("at_ms")],
        separators=(",", ":"),
    ).encode()


class Sealer:
    """AES-256-GCM with one key; a fresh random nonce per sealed item."""

    def __init__(self, key: bytes, source: str) -> None:
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        if len(key) != 32:
            raise SealError(f"{FIELD}: {source}: the key must be 32 bytes, got {len(key)}")
        self._aead = AESGCM(key)
        self.source = source

    @classmethod
    def from_file(cls, path: str | Path) -> Sealer:
        """Read a key file written by ``new-key``; refuse one that others can read."""
        path = Path(path)
        try:
            mode = path.stat().st_mode
            text = path.read_text("ascii").strip()
        except OSError as exc:
            raise SealError(
                f"{FIELD}: {path}: {exc.strerror or exc}; create it with "
                f"`python -m pokertable.controller.sealing new-key {path}` or "
                "`pokertable init`"
            ) from None
        except UnicodeDecodeError:
            raise SealError(f"{FIELD}: {path}: not a key file (base64 text)") from None
        if mode & (stat.S_IRWXG | stat.S_IRWXO):
            raise SealError(
                f"{FIELD}: {path} is readable by others (mode "
                f"{stat.S_IMODE(mode):04o}); chmod 600 {path}"
            )
        try:
            key = base64.urlsafe_b64decode(text.encode())
        except ValueError:
            raise SealError(f"{FIELD}: {path}: not a key file (base64 text)") from None
        return cls(key, str(path))

    def seal_record(self, record: dict[str, Any]) -> dict[str, Any]:
        """The record with its private fields replaced by one sealed string."""
        if not is_private(record) or SEALED in record:
            return record
        secret = {k: record[k] for k in PRIVATE if k in record}
        nonce = os.urandom(_NONCE)
        box = self._aead.encrypt(nonce, json.dumps(secret).encode(), _aad(record))
        public = {k: v for k, v in record.items() if k not in PRIVATE}
        public[SEALED] = base64.b64encode(nonce + box).decode()
        return public

    def open_record(self, record: dict[str, Any]) -> dict[str, Any]:
        from cryptography.exceptions import InvalidTag

        raw = base64.b64decode(str(record[SEALED]))
        try:
            secret = json.loads(self._aead.decrypt(raw[:_NONCE], raw[_NONCE:], _aad(record)))
        except (InvalidTag, ValueError):
            raise SealError(
                f"{FIELD}: the key in {self.source} does not open the sealed hole "
                f"cards (a record at {record.get('at_ms')} ms); use the key the "
                "journal was written with"
            ) from None
        opened = {k: v for k, v in record.items() if k != SEALED}
        opened.update(secret)
        return opened

    def seal_payload(self, payload: bytes) -> bytes:
        nonce = os.urandom(_NONCE)
        return PAYLOAD_MARK + nonce + self._aead.encrypt(nonce, payload, PAYLOAD_MARK)

    def open_payload(self, stored: bytes) -> bytes:
        from cryptography.exceptions import InvalidTag

        raw = stored[len(PAYLOAD_MARK) :]
        try:
            return self._aead.decrypt(raw[:_NONCE], raw[_NONCE:], PAYLOAD_MARK)
        except InvalidTag:
            raise SealError(
                f"{FIELD}: the key in {self.source} does not open the sealed hole "
                "cards waiting in the outbox; use the key they were sealed with"
            ) from None


def open_record(record: dict[str, Any], sealer: Sealer | None) -> dict[str, Any]:
    """A journal record as it was written; a sealed one needs the key."""
    if SEALED not in record:
        return record
    if sealer is None:
        raise SealError(
            f"{FIELD}: the journal's hole cards are sealed and no key is "
            "configured; set it to the key file the journal was written with"
        )
    return sealer.open_record(record)


def open_payload(stored: bytes, sealer: Sealer | None) -> bytes:
    """An outbox payload as it was built; a sealed one needs the key (never sent sealed)."""
    if not stored.startswith(PAYLOAD_MARK):
        return stored
    if sealer is None:
        raise SealError(
            f"{FIELD}: the outbox holds sealed hole cards and no key is "
            "configured; set it to the key file they were sealed with"
        )
    return sealer.open_payload(stored)


class OutboxSeal:
    """What the outbox's secure lane is given (``mqtt.outbox.PayloadSeal``): seals with the
    key when one is configured, and never lets a sealed payload out unopened."""

    def __init__(self, sealer: Sealer | None) -> None:
        self.sealer = sealer

    def seal_payload(self, payload: bytes) -> bytes:
        return payload if self.sealer is None else self.sealer.seal_payload(payload)

    def open_payload(self, stored: bytes) -> bytes:
        return open_payload(stored, self.sealer)


def sealer_for(key_file: str | None) -> Sealer | None:
    """The config's sealer, or None when ``[sealing] key_file`` is not set (cards in clear)."""
    return None if key_file is None else Sealer.from_file(key_file)


def count_sealed(records: Sequence[dict[str, Any]]) -> int:
    return sum(1 for record in records if SEALED in record)


def new_key(path: Path) -> None:
    """Write a fresh random key, readable by its owner only; never overwrites one."""
    key = base64.urlsafe_b64encode(os.urandom(32)) + b"\n"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(key)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m pokertable.controller.sealing",
        description="Create the key that seals hole cards at rest.",
    )
    parser.add_argument("action", choices=("new-key",))
    parser.add_argument("file", type=Path)
    args = parser.parse_args(argv)
    try:
        new_key(args.file)
    except FileExistsError:
        print(
            f"{args.file} exists: a new key would lock its journal's hole cards away",
            file=sys.stderr,
        )
        return 1
    print(f'wrote {args.file} (mode 0600); set [sealing] key_file = "{args.file}"')
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
