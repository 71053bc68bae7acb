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
        snap = scanner.step()          # one RF exchange of the current zone's scan
        if snap: send(pack_snapshot(*snap))

`step()` keeps the node responsive: a zone scan (0.05-0.45 s on a PN5180) runs as a
generator, one exchange per call, so the node serves its serial link in between.
A zone whose last scan left a chip on its way in or out is scanned again at once (up to
the debounce count) instead of waiting a whole round of the node's zones: a change is
confirmed in one round, not `present_after`/`absent_after` rounds. Chips landing in a
bet zone put its seat's other zones next (the stack they came from): two complete
inventories back to back, between the bet sweeps.
`poll()` runs one whole zone scan (tests, bring-up). A scan cut short by its time budget
only adds sightings; a zone whose field was busy (another reader's) is skipped, never
read as empty. A zone whose antenna channel the switch cannot reach (checked against
the mux at construction, or an `AntennaFault` while selecting) is out of service: it is
never scanned and `faults()` names it with the reason, for the node's BIRTH; the other
zones go on. A snapshot holds the whole zone; the node splits it into frame-sized parts.
"""

from clock import ticks_diff
from reader_errors import AntennaFault, ReaderFieldBusy

try:
    from typing import Any
except ImportError:
    pass

_SETTLE_RESCANS = 8  # at most this many extra scans of a zone waiting to settle
_FAST_SUFFIX = ".bet"  # zones scanned between every slice of the others
_SLICE_MS = 60  # one slice of another zone's inventory while bet zones wait
_CHANGE_SLICE_MS = 150  # the same for a zone whose chips are changing (it settles sooner)
_FOLLOW_INVENTORIES = 2  # back-to-back inventories of a stack after its bet zone got chips


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
        self.fault: str | None = None  # why this zone cannot be scanned (None = in service)
        self.incomplete = False  # the last inventory could not finish: tags may be missing
        self.watch = False  # its set changed: scanned again until it has settled
        self.counted: set[bytes] = set()  # sighted in this (resumed) inventory so far
        # Chips just landed in its seat's bet zone, most likely from here: complete
        # inventories still to run back to back (after the bet sweeps) before the round
        # robin takes over again.
        self.follow = 0


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
        bet_present_after: int | None = None,
        bet_settle_ms: int | None = None,
    ) -> None:
        if not zones:
            raise ValueError("zones: at least one zone is needed")
        self._reader = reader
        self._mux = mux
        self._clock = clock
        now = clock.ticks_ms()
        self.zones = [_Zone(name, ch, now) for name, ch in zones]
        reach = getattr(mux, "channels", None)
        for z in self.zones:
            if reach is not None and not 0 <= z.channel < reach:
                z.fault = "channel %d: the antenna switch has channels 0..%d" % (
                    z.channel,
                    reach - 1,
                )
        self._next = 0
        # Bet zones are swept between the other zones' scans, and those scans are cut in
        # slices of `slice_ms` (the reader's inventory resumes at the next slice), so a
        # bet waits for one slice, not for every stack on the node.
        self._fast = [i for i, z in enumerate(self.zones) if z.name.endswith(_FAST_SUFFIX)]
        self._bets = list(self._fast)  # their own debounce and settle (bet_*)
        self._others = [i for i in range(len(self.zones)) if i not in self._fast]
        if not self._others:
            self._others, self._fast = self._fast, []
        self._sweep: list[int] = []
        self._come_back = -1  # a changing zone whose inventory resumes after the sweep
        self._urgent: list[int] = []  # stacks whose seat's bet zone just got chips
        self.slice_ms = _SLICE_MS
        self.change_slice_ms = _CHANGE_SLICE_MS
        self._full_ms = getattr(reader, "max_scan_ms", None)
        self._job: Any = None
        self._job_zone = 0
        self._rescans = 0  # immediate rescans of the zone just scanned
        self.scans = 0
        self.skipped = 0  # zone scans skipped: another reader's field was on
        self.configure(present_after, absent_after, settle_ms, bet_present_after, bet_settle_ms)

    def configure(
        self,
        present_after: int,
        absent_after: int,
        settle_ms: int,
        bet_present_after: int | None = None,
        bet_settle_ms: int | None = None,
    ) -> None:
        """Debounce and settle; bet zones may have their own (None: the same as the rest)."""
        if bet_present_after is None:
            bet_present_after = present_after
        if bet_settle_ms is None:
            bet_settle_ms = settle_ms
        for name, v, lo in (("present_after", present_after, 1), ("absent_after", absent_after, 1),
                            ("settle_ms", settle_ms, 0),
                            ("bet_present_after", bet_present_after, 1),
                            ("bet_settle_ms", bet_settle_ms, 0)):
            if v < lo:
                raise ValueError("%s: must be >= %d, got %r" % (name, lo, v))
        self.present_after = present_after
        self.absent_after = absent_after
        self.settle_ms = settle_ms
        self.bet_present_after = bet_present_after
        self.bet_settle_ms = bet_settle_ms

    def _follow_seat(self, bet: str) -> None:
        """Chips landed in bet zone `bet`: its seat's other zones (the stack they came from)
        are inventoried next, back to back, so the stack's loss is reported in about two
        of its inventories instead of after its turns in the round robin. Two complete
        inventories: the one under way may have begun before the chips left."""
        seat = bet.rsplit(".", 1)[0] + "."
        for i in self._others:
            z = self.zones[i]
            if z.name.startswith(seat) and z.fault is None:
                if not z.follow and i not in self._urgent:
                    self._urgent.append(i)
                z.follow = _FOLLOW_INVENTORIES

    def _present_after(self, index: int) -> int:
        return self.bet_present_after if index in self._bets else self.present_after

    def _settle_ms(self, index: int) -> int:
        return self.bet_settle_ms if index in self._bets else self.settle_ms

    def zone_names(self) -> list[str]:
        """The zones in service (the ones BIRTH announces)."""
        return [z.name for z in self.zones if z.fault is None]

    def live(self) -> list[int]:
        """Indices of the zones in service."""
        return [i for i, z in enumerate(self.zones) if z.fault is None]

    def faults(self) -> list[tuple[str, str]]:
        """(zone, reason) for every zone out of service."""
        return [(z.name, z.fault) for z in self.zones if z.fault is not None]

    def is_incomplete(self, name: str) -> bool:
        for z in self.zones:
            if z.name == name:
                return z.incomplete
        return False

    def _publish(self, z: _Zone, settled: bool) -> tuple[str, bool, list[bytes]]:
        return z.name, settled, sorted(z.present)

    def snapshot(self, index: int) -> tuple[str, bool, list[bytes]]:
        """Current published state of one zone (for BIRTH / REBIRTH)."""
        z = self.zones[index]
        return self._publish(z, z.settled)

    @property
    def scanning(self) -> bool:
        """True while a zone scan is part way through."""
        return self._job is not None

    def abort(self) -> None:
        """Drop the scan in progress (after a reader error: the chip gets reset)."""
        self._job = None

    def step(self) -> tuple[str, bool, list[bytes]] | None:
        """Advance the current zone's scan by one exchange; a snapshot when one is due.

        Reader errors propagate (the scan is dropped); a busy field skips the zone.
        """
        if self._job is None:
            i = self._next_zone()
            if i < 0:
                return None  # every zone is out of service: nothing to scan
            if self._mux is not None:
                try:
                    self._mux.select(self.zones[i].channel)
                except AntennaFault as e:
                    self.zones[i].fault = str(e)
                    return None
            self._job_zone = i
            reader = self._reader
            if self._full_ms is not None:
                sliced = self._fast and i not in self._fast
                z = self.zones[i]
                changing = z.watch or z.hits or z.misses
                slice_ms = self.change_slice_ms if changing else self.slice_ms
                reader.max_scan_ms = slice_ms if sliced else self._full_ms
            if hasattr(reader, "probe"):
                z = self.zones[i]
                # A zone that held nothing is first asked in one slot (silence: empty).
                reader.probe = not (z.present or z.hits or z.misses)
            if hasattr(reader, "known"):
                # What the zone held: a big known set is walked from its own prefixes.
                reader.known = list(self.zones[i].present) + list(self.zones[i].hits)
            if not hasattr(reader, "scan_steps"):  # a blocking reader: one step is a scan
                try:
                    seen = reader.scan()
                except ReaderFieldBusy:
                    self.skipped += 1
                    return None
                return self._finish(i, seen, getattr(reader, "complete", True))
            self._job = reader.scan_steps(self.zones[i].channel)
        try:
            next(self._job)
            return None
        except StopIteration as done:
            self._job = None
            return self._finish(self._job_zone, done.value, getattr(self._reader, "complete", True))
        except ReaderFieldBusy:
            self._job = None
            self.skipped += 1
            return None
        except BaseException:
            self._job = None
            raise

    def _next_zone(self) -> int:
        """Round robin, except that a zone with a change pending is confirmed at once, and
        one that just changed is watched until it settles (a bet reaches the Pi settled in
        about settle_ms, not after a round of every stack on the node)."""
        last = self.zones[self._job_zone]
        limit = max(self._present_after(self._job_zone), self.absent_after) - 1
        pending = last.fault is None and last.scans and (last.hits or last.misses)
        resuming = getattr(self._reader, "resuming", False)
        if (resuming and (pending or last.watch or not last.present)) or (
            last.follow and last.fault is None
        ):
            # A changing zone's inventory is only part way: the bets get their sweep,
            # then the same inventory goes on (one inventory, however many slices). A
            # zone that held nothing and has not finished is changing too: chips landed
            # (an empty zone's probe ends in silence), none identified yet. A stack its
            # seat's bet zone just took chips from comes back the same way (`follow`).
            self._come_back = self._job_zone
        elif pending and self._rescans < limit:
            self._rescans += 1
            return self._job_zone
        else:
            settling = last.fault is None and last.watch and not last.settled and (
                ticks_diff(self._clock.ticks_ms(), last.last_unstable_ms)
                <= self._settle_ms(self._job_zone)
            )
            if settling and self._rescans < limit + _SETTLE_RESCANS:
                self._rescans += 1
                return self._job_zone
            self._rescans = 0
        if self._fast and self._job_zone not in self._fast and not self._sweep:
            self._sweep = list(self._fast)  # another zone's slice ended: sweep the bets
        while self._sweep:
            i = self._sweep.pop(0)
            if self.zones[i].fault is None:
                return i
        back = self._come_back
        self._come_back = -1
        if back >= 0 and self.zones[back].fault is None:
            return back
        while self._urgent:
            i = self._urgent.pop(0)
            if self.zones[i].fault is None:
                return i
        others = self._others
        for _ in range(len(others)):
            i = others[self._next % len(others)]
            self._next = (self._next + 1) % len(others)
            if self.zones[i].fault is None:
                return i
        return -1

    def poll(self) -> tuple[str, bool, list[bytes]] | None:
        """Scan the next zone to the end; return a snapshot if that zone changed or settled."""
        self.abort()
        while True:
            snap = self.step()
            if snap is not None or self._job is None:
                return snap

    def _finish(
        self, index: int, seen: list[bytes], complete: bool
    ) -> tuple[str, bool, list[bytes]] | None:
        self.scans += 1
        z = self.zones[index]
        # Cut short but resumable (the reader carries on at the next scan) is progress;
        # cut short for good (too many tags, too many scans) is flagged to the Pi.
        cannot_complete = not complete and not getattr(self._reader, "resuming", False)
        carry = not complete and getattr(self._reader, "resuming", False)
        if complete and z.follow:
            z.follow -= 1
        snap = self.update(index, seen, self._clock.ticks_ms(), complete, carry)
        if cannot_complete != z.incomplete:
            z.incomplete = cannot_complete
            if snap is None:
                snap = self._publish(z, z.settled)
        return snap

    def update(
        self, index: int, seen_uids: list[bytes], now: int, complete: bool = True,
        carry: bool = False,
    ) -> tuple[str, bool, list[bytes]] | None:
        """Fold one inventory of zone `index` into the debounce state.

        An incomplete inventory (cut short by its time budget) only confirms sightings:
        a UID it did not reach is not a miss. `carry`: the inventory goes on at the next
        scan and `seen_uids` will be reported again, so each UID counts as one sighting
        per inventory, not one per slice.

        The settle time runs from the last change in what the inventories saw (a UID
        seen first, a present one missed, a pending one gone again), not from the
        debounce confirming it: two consecutive inventories that saw the same set
        settle_ms apart are a settled zone, whatever present_after asked.
        """
        z = self.zones[index]
        z.scans += 1
        seen = set(seen_uids)
        counted = z.counted
        z.counted = seen if carry else set()
        changed = False
        unstable = False
        present_after = self._present_after(index)
        for uid in seen:
            if uid in z.present:
                if z.misses.pop(uid, None) is not None:
                    unstable = True  # back after a miss
                continue
            if uid in counted:
                continue  # sighted in an earlier slice of this inventory
            n = z.hits.get(uid, 0) + 1
            if n == 1:
                unstable = True  # first sighting
                if index in self._bets:
                    self._follow_seat(z.name)
            if n >= present_after:
                z.present.add(uid)
                z.hits.pop(uid, None)
                changed = True
            else:
                z.hits[uid] = n
        if complete:
            for uid in list(z.hits):
                if uid not in seen:
                    del z.hits[uid]  # sightings must be consecutive
                    unstable = True
            for uid in list(z.present):
                if uid in seen:
                    continue
                n = z.misses.get(uid, 0) + 1
                if n == 1:
                    unstable = True  # first miss
                if n >= self.absent_after:
                    z.present.discard(uid)
                    z.misses.pop(uid, None)
                    changed = True
                else:
                    z.misses[uid] = n
        if unstable:
            z.last_unstable_ms = now
        quiet = not (unstable or z.hits or z.misses) and complete and (
            ticks_diff(now, z.last_unstable_ms) >= self._settle_ms(index)
        )
        if changed:
            z.settled = quiet
            z.watch = not quiet
            return self._publish(z, quiet)
        if not z.settled and quiet:
            z.settled = True
            z.watch = False
            return self._publish(z, True)
        return None
