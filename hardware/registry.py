"""The tag registry: which RFID UID is which chip or card, kept in SQLite.

The Pi resolves every UID a reader reports through this registry; a UID that is
not here is foreign and is never counted. Enrollment (``pokertable enroll``) is
how tags get in::

    registry = TagRegistry("/var/lib/pokertable/tags.sqlite")
    registry.add_chip(bytes.fromhex("e004010203040506"), denomination=500,
                      chip_set="club-2024", colour="purple")
    registry.lookup(bytes.fromhex("e004010203040506"))   # -> Chip(..., denomination=500)

Lookups come from an in-memory copy (the reader thread calls ``lookup`` for every
tag of every snapshot); writes go to SQLite first, then to the copy.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal, get_args

from pokertable.hardware.errors import RegistryError

ChipKind = Literal["value", "bounty", "clock_token", "other_non_value"]
ChipStatus = Literal["in_play", "removed_denomination", "retired"]

RANKS = "A23456789TJQK"
SUITS = "shdc"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tags (
    uid          TEXT PRIMARY KEY,                 -- lowercase hex of the UID bytes
    tag_type     TEXT NOT NULL CHECK (tag_type IN ('chip', 'card')),
    denomination INTEGER,
    chip_set     TEXT,
    colour       TEXT,
    kind         TEXT,
    status       TEXT,
    rank         TEXT,
    suit         TEXT,
    deck_id      TEXT,
    CHECK (tag_type = 'card' OR (denomination IS NOT NULL AND kind IS NOT NULL
                                  AND status IS NOT NULL)),
    CHECK (tag_type = 'chip' OR (rank IS NOT NULL AND suit IS NOT NULL
                                  AND deck_id IS NOT NULL))
);
CREATE UNIQUE INDEX IF NOT EXISTS one_card_per_deck ON tags (deck_id, rank, suit)
    WHERE tag_type = 'card';
"""


@dataclass(frozen=True, slots=True)
class Chip:
    """One enrolled chip; ``denomination`` is in the chip set's units (0 for non-value kinds)."""

    uid: str
    denomination: int
    chip_set: str
    colour: str
    kind: ChipKind = "value"
    status: ChipStatus = "in_play"


@dataclass(frozen=True, slots=True)
class Card:
    """One enrolled card; rank in ``A23456789TJQK``, suit in ``shdc`` (PHH notation)."""

    uid: str
    rank: str
    suit: str
    deck_id: str

    @property
    def code(self) -> str:
        """The card in PHH notation, e.g. ``'As'``."""
        return self.rank + self.suit


Tag = Chip | Card


def uid_hex(uid: bytes | str) -> str:
    """Normalise a UID (bytes or hex text) to the registry key; checks the length.

    >>> uid_hex(b"\\xe0\\x04\\x01\\x02\\x03\\x04\\x05\\x06"), uid_hex("0A0B0C0D")
    ('e004010203040506', '0a0b0c0d')
    """
    raw = bytes.fromhex(uid) if isinstance(uid, str) else bytes(uid)
    if len(raw) not in (4, 7, 8, 10):
        raise RegistryError(f"uid: expected 4, 7, 8 or 10 bytes, got {len(raw)}")
    return raw.hex()


class TagRegistry:
    """UID -> :class:`Chip` or :class:`Card`, persisted in one SQLite file (``":memory:"`` ok)."""

    def __init__(self, path: str | Path, *, create: bool = True) -> None:
        """Open the registry; ``create=False`` (the table) refuses a missing file.

        A table with an empty registry would see every chip and card as foreign: a file
        that vanished is an installer's mistake to report, not a new registry to make.
        Every SQLite failure is a RegistryError naming the file and what to do.
        """
        self.path = str(path)
        self._lock = threading.Lock()
        self._cache: dict[str, Tag] = {}
        if not create and self.path != ":memory:" and not Path(path).is_file():
            raise RegistryError(
                f"registry {path}: does not exist; enroll the chips and cards "
                "(`pokertable enroll`) or fix [registry] path in table.toml"
            )
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False)
            if not create and self.path != ":memory:":
                found = self._db.execute(
                    "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'tags'"
                ).fetchone()
                if found is None:
                    raise sqlite3.DatabaseError("no tags table: not a tag registry")
            with self._lock, self._db:
                self._db.executescript(_SCHEMA)
            self.reload()
        except sqlite3.Error as exc:
            raise RegistryError(unusable_registry(self.path, exc)) from exc

    def close(self) -> None:
        self._db.close()

    def reload(self) -> None:
        """Re-read every tag from disk (another process, e.g. an enrollment, wrote to it)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT uid, tag_type, denomination, chip_set, colour, kind, status,"
                " rank, suit, deck_id FROM tags"
            ).fetchall()
        cache: dict[str, Tag] = {}
        for uid, tag_type, denom, chip_set, colour, kind, status, rank, suit, deck in rows:
            if tag_type == "chip":
                cache[uid] = Chip(uid, denom, chip_set or "", colour or "", kind, status)
            else:
                cache[uid] = Card(uid, rank, suit, deck)
        self._cache = cache

    # -- reads -------------------------------------------------------------------------

    def lookup(self, uid: bytes | str) -> Tag | None:
        """The chip or card with this UID, or ``None`` for a foreign tag."""
        key = uid.hex() if isinstance(uid, bytes | bytearray) else uid.lower()
        return self._cache.get(key)

    def __len__(self) -> int:
        return len(self._cache)

    def chips(self, chip_set: str | None = None) -> list[Chip]:
        found = [t for t in self._cache.values() if isinstance(t, Chip)]
        if chip_set is not None:
            found = [c for c in found if c.chip_set == chip_set]
        return sorted(found, key=lambda c: (c.chip_set, c.denomination, c.uid))

    def deck(self, deck_id: str) -> list[Card]:
        """The deck's cards by suit, then rank: a stable listing (enrollment order is not kept)."""
        cards = [t for t in self._cache.values() if isinstance(t, Card) and t.deck_id == deck_id]
        return sorted(cards, key=lambda c: (SUITS.index(c.suit), RANKS.index(c.rank)))

    # -- writes ------------------------------------------------------------------------

    def add_chip(
        self,
        uid: bytes | str,
        *,
        denomination: int,
        chip_set: str = "",
        colour: str = "",
        kind: ChipKind = "value",
        status: ChipStatus = "in_play",
    ) -> Chip:
        chip = Chip(uid_hex(uid), denomination, chip_set, colour, kind, status)
        _check_chip(chip)
        self._insert([chip])
        return chip

    def add_chips(self, chips: Iterable[Chip]) -> None:
        """Store many chips in one transaction: all of them, or none if one is refused."""
        batch = [replace(c, uid=uid_hex(c.uid)) for c in chips]
        for chip in batch:
            _check_chip(chip)
        self._insert(batch)

    def add_card(self, uid: bytes | str, *, rank: str, suit: str, deck_id: str) -> Card:
        card = Card(uid_hex(uid), rank, suit, deck_id)
        _check_card(card)
        self._insert([card])
        return card

    def add_cards(self, cards: Iterable[Card]) -> None:
        batch = [replace(c, uid=uid_hex(c.uid)) for c in cards]
        for card in batch:
            _check_card(card)
        self._insert(batch)

    def set_chip_status(self, uid: bytes | str, status: ChipStatus) -> Chip:
        """Mark a chip removed (its denomination was raced off) or retired, or back in play."""
        if status not in get_args(ChipStatus):
            raise RegistryError(f"status: must be one of {get_args(ChipStatus)}, got {status!r}")
        key = uid_hex(uid)
        current = self._cache.get(key)
        if not isinstance(current, Chip):
            raise RegistryError(f"uid: {key} is not an enrolled chip")
        with self._lock, self._db:
            self._db.execute("UPDATE tags SET status = ? WHERE uid = ?", (status, key))
        updated = replace(current, status=status)
        self._cache[key] = updated
        return updated

    def set_denomination_status(self, chip_set: str, denomination: int, status: ChipStatus) -> int:
        """Change the status of every chip of one denomination (a colour-up); returns the count."""
        targets = [
            c for c in self.chips(chip_set) if c.denomination == denomination and c.kind == "value"
        ]
        for chip in targets:
            self.set_chip_status(chip.uid, status)
        return len(targets)

    def remove(self, uid: bytes | str) -> None:
        key = uid_hex(uid)
        if key not in self._cache:
            raise RegistryError(f"uid: {key} is not enrolled")
        with self._lock, self._db:
            self._db.execute("DELETE FROM tags WHERE uid = ?", (key,))
        del self._cache[key]

    def _insert(self, tags: Sequence[Tag]) -> None:
        rows: list[tuple[object, ...]] = []
        for tag in tags:
            if isinstance(tag, Chip):
                rows.append((tag.uid, "chip", tag.denomination, tag.chip_set, tag.colour,
                             tag.kind, tag.status, None, None, None))
            else:
                rows.append((tag.uid, "card", None, None, None, None, None,
                             tag.rank, tag.suit, tag.deck_id))
        try:
            with self._lock, self._db:
                self._db.executemany("INSERT INTO tags VALUES (?,?,?,?,?,?,?,?,?,?)", rows)
        except sqlite3.IntegrityError as exc:
            raise RegistryError(_explain_integrity(exc, tags, self._cache)) from exc
        for tag in tags:
            self._cache[tag.uid] = tag


def unusable_registry(path: str, exc: BaseException) -> str:
    """One line for a registry file SQLite cannot use, with the way out."""
    return (
        f"registry {path}: cannot be used ({exc}); restore it from a backup or enroll the "
        "chip set and deck again into a new file (`pokertable enroll`)"
    )


def _check_chip(chip: Chip) -> None:
    if chip.kind not in get_args(ChipKind):
        raise RegistryError(f"kind: must be one of {get_args(ChipKind)}, got {chip.kind!r}")
    if chip.status not in get_args(ChipStatus):
        raise RegistryError(f"status: must be one of {get_args(ChipStatus)}, got {chip.status!r}")
    if chip.kind == "value" and chip.denomination <= 0:
        raise RegistryError(f"denomination: a value chip needs > 0, got {chip.denomination}")
    if chip.denomination < 0:
        raise RegistryError(f"denomination: must be >= 0, got {chip.denomination}")


def _check_card(card: Card) -> None:
    if len(card.rank) != 1 or card.rank not in RANKS:
        raise RegistryError(f"rank: must be one of {RANKS!r}, got {card.rank!r}")
    if len(card.suit) != 1 or card.suit not in SUITS:
        raise RegistryError(f"suit: must be one of {SUITS!r}, got {card.suit!r}")
    if not card.deck_id:
        raise RegistryError("deck_id: must not be empty")


def _explain_integrity(
    exc: sqlite3.IntegrityError, tags: Sequence[Tag], known: dict[str, Tag]
) -> str:
    seen: set[str] = set()
    for tag in tags:
        if tag.uid in known or tag.uid in seen:
            return f"uid: {tag.uid} is already enrolled"
        seen.add(tag.uid)
    return f"card: a deck already holds one of these cards ({exc})"
