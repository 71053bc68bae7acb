"""Joins the numbered parts of a zone snapshot back into the zone's whole state.

A node sends a zone of more than `wire.SNAPSHOT_PART_UIDS` tags as parts `0..count-1`
of one generation, so that every frame fits the RS-485 response window
(docs/wire-protocol.md). The Pi acts on a zone only once it holds every part of one
generation (counted modulo 256): a part of a newer generation drops the older,
unfinished one, a late part of an older one is dropped (the node's
anti-entropy refresh sends the zone again, so a lost part heals)::

    joiner = SnapshotJoiner()
    whole = joiner.feed(node, payload)      # None while parts are missing
    if whole is not None:
        zone, settled, uids, incomplete = whole
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pokertable.firmware import wire


@dataclass
class _Pending:
    gen: int
    count: int
    parts: dict[int, list[bytes]] = field(default_factory=dict)


class SnapshotJoiner:
    """Per (node, zone): the parts of the generation being received."""

    def __init__(self) -> None:
        self._pending: dict[tuple[int, str], _Pending] = {}
        self.dropped = 0  # unfinished generations replaced by a newer one

    def feed(self, node: int, payload: bytes) -> tuple[str, bool, list[bytes], bool] | None:
        """One SNAPSHOT payload -> the whole zone state, or None until it is complete.

        Raises ValueError for a payload that does not parse (the caller alerts).
        """
        whole = _whole_snapshot(payload)
        if whole is not None:  # the usual frame: one part, well formed
            if self._pending and self._pending.pop((node, whole[0]), None) is not None:
                self.dropped += 1
            return whole
        zone, settled, uids, incomplete, part = wire.unpack_snapshot_part(payload)
        key = (node, zone)
        if part is None:
            if self._pending.pop(key, None) is not None:
                self.dropped += 1
            return zone, settled, uids, incomplete
        gen, index, count = part
        pending = self._pending.get(key)
        if pending is not None and pending.gen != gen and (gen - pending.gen) & 0xFF >= 128:
            self.dropped += 1
            return None  # a late part of an older generation: the newer one stands
        if pending is None or pending.gen != gen or pending.count != count:
            if pending is not None:
                self.dropped += 1
            pending = self._pending[key] = _Pending(gen, count)
        pending.parts[index] = uids
        if len(pending.parts) < count:
            return None
        del self._pending[key]
        joined = [u for k in range(count) for u in pending.parts[k]]
        return zone, settled, joined, incomplete


_UID_LENGTHS = frozenset(wire.UID_LENGTHS)
_SETTLED = 0x01
_INCOMPLETE = 0x02


def _whole_snapshot(p: bytes) -> tuple[str, bool, list[bytes], bool] | None:
    """What ``wire.unpack_snapshot_part`` reads from a well-formed snapshot that is not a
    part, read with fewer steps (a card's or a chip's path to the room goes through it);
    None for anything else: a part, or a payload that ``wire`` rejects with its message.
    tests/hardware/test_front_path.py holds the two to the same answers."""
    if type(p) is not bytes:  # a buffer or a subclass: its slices are not bytes
        return None
    size = len(p)
    try:
        end = 1 + p[0]
        zone = p[1:end].decode()
        flags = p[end]
        count = (p[end + 1] << 8) | p[end + 2]
    except (IndexError, UnicodeDecodeError):
        return None
    if flags & ~(_SETTLED | _INCOMPLETE):
        return None  # a part, or unknown bits
    i = end + 3
    settled, incomplete = bool(flags & _SETTLED), bool(flags & _INCOMPLETE)
    if i >= size:
        return (zone, settled, [], incomplete) if i == size and not count else None
    n = p[i]
    step = n + 1
    if size - i == count * step and n in _UID_LENGTHS and p[i::step].count(n) == count:
        # Every UID of one length (a zone's tags are one kind): sliced out, no walk.
        if count == 1:
            return zone, settled, [p[i + 1 : size]], incomplete
        return zone, settled, [p[j : j + n] for j in range(i + 1, size, step)], incomplete
    uids = []
    for _ in range(count):
        if i >= size:
            return None
        n = p[i]
        start, i = i + 1, i + 1 + n
        if n not in _UID_LENGTHS or i > size:
            return None
        uids.append(p[start:i])
    if i != size:
        return None
    return zone, settled, uids, incomplete
