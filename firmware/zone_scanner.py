"""Zone scanner: round-robin over the antenna zones, debounce, full snapshots, settle.

A UID becomes present after `present_after` consecutive inventories that saw it and
absent after `absent_after` consecutive misses, so a chip that flickers at the edge of
an antenna does not spam the Pi. Whenever a zone's present set changes the scanner
emits a full snapshot (not a diff: a lost frame is healed by the next one) with
settled=False; once the zone has had no change and nothing pending for `settle_ms`
it emits the same set again with settled=True, which the Pi waits for before it
interprets a bet. Time comes from an injected clock::

    scanner = ZoneScanner(reader, mux, [("seat1.bet", 0), ("seat1.stack", 1)], clock)
    while True:
        snap = scanner.poll()          # scans one zone
        if snap: send(pack_snapshot(*snap))
"""

from clock import ticks_diff

try:
    from typing import Any
except ImportError:
    pass


class _Zone:
    def __init__(self, name: str, channel: int, now: int) -> None:
        self.name = name
        self.channel = channel
        self.present: set[bytes] = set()
        self.hits: dict[bytes, int] = {}  # seen, not yet present: consecutive sightings
        self.misses: dict[bytes, int] = {}  # present, not seen: consecutive misses
        self.last_unstable_ms = now
        self.settled = False
        self.scans = 0


class ZoneScanner:
    def __init__(
        self,
        reader: Any,
        mux: Any,
        zones: list[tuple[str, int]],
        clock: Any,
        present_after: int = 2,
        absent_after: int = 3,
        settle_ms: int = 300,
    ) -> None:
        if not zones:
            raise ValueError("zones: at least one zone is needed")
        self._reader = reader
        self._mux = mux
        self._clock = clock
        now = clock.ticks_ms()
        self.zones = [_Zone(name, ch, now) for name, ch in zones]
        self._next = 0
        self.scans = 0
        self.configure(present_after, absent_after, settle_ms)

    def configure(self, present_after: int, absent_after: int, settle_ms: int) -> None:
        if present_after < 1:
            raise ValueError("present_after: must be >= 1, got %r" % (present_after,))
        if absent_after < 1:
            raise ValueError("absent_after: must be >= 1, got %r" % (absent_after,))
        if settle_ms < 0:
            raise ValueError("settle_ms: must be >= 0, got %r" % (settle_ms,))
        self.present_after = present_after
        self.absent_after = absent_after
        self.settle_ms = settle_ms

    def zone_names(self) -> list[str]:
        return [z.name for z in self.zones]

    def snapshot(self, index: int) -> tuple[str, bool, list[bytes]]:
        """Current published state of one zone (for BIRTH / REBIRTH)."""
        z = self.zones[index]
        return z.name, z.settled, sorted(z.present)

    def poll(self) -> tuple[str, bool, list[bytes]] | None:
        """Scan the next zone; return a snapshot if that zone changed or just settled."""
        i = self._next
        self._next = (i + 1) % len(self.zones)
        z = self.zones[i]
        if self._mux is not None:
            self._mux.select(z.channel)
        seen = self._reader.scan()
        self.scans += 1
        return self.update(i, seen, self._clock.ticks_ms())

    def update(
        self, index: int, seen_uids: list[bytes], now: int
    ) -> tuple[str, bool, list[bytes]] | None:
        """Fold one inventory of zone `index` into the debounce state."""
        z = self.zones[index]
        z.scans += 1
        seen = set(seen_uids)
        changed = False
        for uid in seen:
            if uid in z.present:
                z.misses.pop(uid, None)
                continue
            n = z.hits.get(uid, 0) + 1
            if n >= self.present_after:
                z.present.add(uid)
                z.hits.pop(uid, None)
                changed = True
            else:
                z.hits[uid] = n
        for uid in list(z.hits):
            if uid not in seen:
                del z.hits[uid]  # sightings must be consecutive
        for uid in list(z.present):
            if uid in seen:
                continue
            n = z.misses.get(uid, 0) + 1
            if n >= self.absent_after:
                z.present.discard(uid)
                z.misses.pop(uid, None)
                changed = True
            else:
                z.misses[uid] = n
        if changed or z.hits or z.misses:
            z.last_unstable_ms = now
        if changed:
            z.settled = False
            return z.name, False, sorted(z.present)
        if not z.settled and ticks_diff(now, z.last_unstable_ms) >= self.settle_ms:
            z.settled = True
            return z.name, True, sorted(z.present)
        return None
