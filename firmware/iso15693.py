"""ISO 15693 protocol layer on a PN5180: 16-slot inventory with mask anticollision.

A stack of chips puts 20+ tags in one field. A 16-slot inventory lets each tag answer
in the slot given by the 4 UID bits after the mask; a slot where two or more answer
collides, and that slot's bits are appended to the mask for a sub-round; the inventory
is complete when no collided (or garbled) slot is left to walk into. No STAY QUIET is
needed for that: a sub-round's mask keeps every tag identified elsewhere silent. With
`confirm` on, identified tags are also sent STAY QUIET and a final unmasked round must
be silent (a tag that missed its answer is found in the same scan, for ~4.5 ms of air
per tag). A zone that was empty is first asked in one slot (`probe`).

Where collided slots hold two or three tags (a bet, the first look at a stack), a
collided slot whose collision bit (RX_STATUS RX_COLL_POS, Table 93) is the first bit
after the slot's own is split there into two one-slot requests, each holding at least
one of the tags, instead of a 16-slot sub-round of mostly empty slots. The two halves
cover the slot's whole subtree, so a wrong position costs time, never a tag. Usage::

    reader = Iso15693Reader(chip, clock)
    uids = reader.scan()                  # field on, inventory, field off (blocking)
    job = reader.scan_steps()             # the same, one RF exchange per next(job)

`scan_steps()` is a generator: the node runs one step between two services of its
serial link, so a 0.4 s scan of a 20-chip stack never keeps a poll waiting. Its
StopIteration value is the UID list; `complete` says whether the inventory finished
(a cut-short list must not be read as "the others left").

A stack too big for one scan's `max_scan_ms` is inventoried over several scans of its
antenna: a scan that runs out of time keeps the collision subtrees it has not walked
yet (each holds only tags not yet identified) and the UIDs found, and the next scan of
that antenna walks on from there instead of starting again (`resuming` is True in
between). The inventory is complete when no subtree is left. One that needs more than
`MAX_INVENTORY_MS` of scan time is given up (`complete` False, `resuming` False): the
zone is flagged. The budget is time, not a count of scans: the node cuts a stack's
inventory into 60 ms slices between its bet sweeps, and a 150-chip stack needs ~20 of
them.

Timing (NXP NFC Reader Library and ISO/IEC 15693-3): every exchange runs with TIMER1
armed for 324 us (T1) + 152 us (answer SOF) + 321 us (PN5180 receive delay); after RF_ON
the field stays unmodulated 5 ms before the first request (tags power up), and the field
stays off at least 5 ms between scans so every tag forgets STAY QUIET.

UIDs are reported MSB first, the way they are printed on tag labels; on air they
travel LSB first, and the mask covers the least significant bits.
"""

from micropython import const

from clock import ticks_diff
from pn5180 import (
    CRC_ENABLE,
    IRQ_RX,
    REG_CRC_RX_CONFIG,
    REG_CRC_TX_CONFIG,
    REG_RX_STATUS,
    RF_CONFIG_ISO15693_RX,
    RF_CONFIG_ISO15693_TX,
    RX_COLL_POS_MASK,
    RX_COLL_POS_SHIFT,
    RX_COLLISION_DETECTED,
    RX_DATA_INTEGRITY_ERROR,
    RX_NUM_BYTES_MASK,
    RX_PROTOCOL_ERROR,
)
from reader_errors import ReaderProtocolError

try:
    from collections.abc import Generator
    from typing import Any
except ImportError:
    pass

_DEBUG = const(False)

# Request flags (ISO 15693-3 table 3/4).
_INVENTORY_16_SLOTS = const(0x06)  # high data rate | inventory
_INVENTORY_1_SLOT = const(0x26)  # high data rate | inventory | one slot
_ADDRESSED_REQUEST = const(0x22)  # high data rate | addressed

_CMD_INVENTORY = const(0x01)
_CMD_STAY_QUIET = const(0x02)

_UID_LEN = const(8)
_UID_BITS = const(64)
_INVENTORY_RESPONSE_LEN = const(10)  # flags, DSFID, UID (CRC stripped by the chip)
_SLOTS = const(16)
RX_TIMEOUT_US = const(797)  # 324 (T1) + 152 (SOF, high rate) + 321 (PN5180 digital delay)
GUARD_US = const(5000)  # field on -> first request (NXP FIELD_RECOVERY_DEFAULT 5 ms)
T2_US = const(310)  # ISO/IEC 15693-3 §9.1.4: t2 >= 4192/fc from an answer to the next EOF
FIELD_OFF_US = const(5000)  # field off -> field on again (NXP FIELD_OFF_DEFAULT 5 ms)
MAX_SCAN_MS = const(1500)  # one scan's share of an inventory; the next scan resumes it
MAX_INVENTORY_MS = const(18000)  # scan time one inventory may take (over all its slices)
HINT_MIN = const(20)  # known tags from which the inventory starts from their prefixes
_HINT_MAX_LEN = const(56)  # deepest prefix probed in one slot; below it a 16-slot round
_ROUND16_MS = const(20)  # about what a 16-slot round of a few tags takes (slice planning)
_ROUND1_MS = const(6)  # the same for a one-slot prefix probe
_ROUND_TAG_MS = const(4)  # and what each expected answer adds to a 16-slot round
_SPLIT = const(2)  # pending kind: a collided slot whose tags differ at the next bit
_SPLIT_MAX_FILL = const(3)  # split collided slots while they have held <= 3 tags each
_ROUND16_MIN_KNOWN = const(5)  # known tags in different slots: one 16-slot round pays

# Slot outcomes.
SLOT_EMPTY = const(0)
SLOT_ONE = const(1)
SLOT_COLLISION = const(2)


class Iso15693Reader:
    """Protocol layer: complete inventory of every ISO 15693 tag in the field."""

    def __init__(self, chip: Any, clock: Any = None, max_uids: int = 1024,
                 max_scan_ms: int = MAX_SCAN_MS) -> None:
        self._chip = chip
        self._clock = clock if clock is not None else chip._clock
        self.max_uids = max_uids
        self.max_scan_ms = max_scan_ms
        self._req = bytearray(12)  # flags, cmd, mask_len, up to 8 mask bytes
        self._quiet = bytearray(2 + _UID_LEN)
        # (mask, mask_len, slots) rounds to run: 16-slot sub-rounds, one-slot prefix probes
        self._pending: list[tuple[int, int, int]] = []
        self._found_round: list[bytes] = []
        self._off_us: dict[int, int] = {}  # per antenna: when its field went off
        self._channel = 0
        self.collisions = 0  # slots that collided (diagnostics: counts a real stack)
        self.late_answers = 0  # answers that started as TIMER1 ran out (slow or far tags)
        self.rounds = 0
        self._coll_bit = -1  # the last collision's first differing UID bit (-1: unknown)
        # (sub-rounds of collided slots, tags they held) in this inventory: `_split_pays`
        self._fill = [0, 0]
        self.complete = True
        self.resuming = False  # the last scan ran out of time; the next one carries on
        # confirm: STAY QUIET every tag found and end with a silent unmasked round (a tag
        # that missed its answer is found in the same inventory). Off, the inventory is
        # the collision tree walk alone (complete once every collided slot was walked):
        # about 4.5 ms of air less per tag, and a missed answer is left to the debounce.
        self.confirm = False
        # probe: start with a one-slot inventory; silence there is an empty zone (about
        # 2.5 ms instead of a 20 ms round of 16 empty slots). Worth it where the zone was
        # empty last time (the scanner sets it).
        self.probe = False
        self.probes = 0  # probes that found the zone empty
        # Per antenna: (found, pending subtrees, scan ms so far, fill) of an unfinished
        # inventory.
        self._resume: dict[
            int, tuple[list[bytes], list[tuple[int, int, int]], int, list[int]]] = {}
        # known: the UIDs the zone held at the last look (the scanner sets it). From
        # HINT_MIN of them the inventory starts from the prefixes that tell them apart
        # instead of one unmasked 16-slot round (see `prefix_rounds`).
        self.known: list[bytes] = []

    def _wait_us(self, since: int, us: int) -> "Generator[int, None, None]":
        """Yield until `us` passed since `since`; each yield says how long is left."""
        clock = self._clock
        while True:
            left = us - ticks_diff(clock.ticks_us(), since)
            if left <= 0:
                return
            yield left

    def start_steps(self) -> "Generator[int, None, None]":
        """This antenna's field off long enough, RF config + CRCs + timer, RF_ON, guard."""
        chip = self._chip
        off = self._off_us.get(self._channel)
        if off is not None:
            yield from self._wait_us(off, FIELD_OFF_US)
        chip.load_rf_config(RF_CONFIG_ISO15693_TX, RF_CONFIG_ISO15693_RX)
        chip.write_register_or_mask(REG_CRC_RX_CONFIG, CRC_ENABLE)
        chip.write_register_or_mask(REG_CRC_TX_CONFIG, CRC_ENABLE)
        chip._timer_reload = -1  # LOAD_RF_CONFIG may reload timer registers: arm again
        chip.arm_rx_timeout(RX_TIMEOUT_US)
        chip.start_rf_on()
        while not chip.poll_rf_on():
            yield 0
        yield from self._wait_us(self._clock.ticks_us(), GUARD_US)

    def stop(self) -> None:
        """Field off: every tag loses power and (after FIELD_OFF_US) its quiet state."""
        self._chip.rf_off()
        self._off_us[self._channel] = self._clock.ticks_us()

    def scan_steps(self, channel: int = 0) -> "Generator[int, None, list[bytes]]":
        """One zone scan, one RF exchange per step; returns the UIDs (MSB first).

        `channel` is the antenna the RF switch selected: only the same antenna needs its
        field off FIELD_OFF_US before the next scan (tags on the others had no field).
        """
        self._channel = channel
        yield from self.start_steps()
        try:
            found = yield from self.inventory_steps()
        finally:
            self.stop()
        return found

    def scan(self) -> list[bytes]:
        """Blocking scan (bring-up, tests)."""
        job = self.scan_steps()
        clock = self._clock
        while True:
            try:
                wait = next(job)
            except StopIteration as done:
                return list(done.value)
            if wait:
                clock.sleep_us(wait)  # a guard time: nothing to poll meanwhile

    def inventory_steps(self) -> "Generator[int, None, list[bytes]]":
        """Inventory of every tag in the field, bounded by max_uids; resumed across scans."""
        saved = self._resume.pop(self._channel, None)
        if saved is not None:
            found, pending, used_ms, self._fill = saved
        else:
            found, pending, used_ms = [], [(0, 0, _SLOTS)], 0
            self._fill = [0, 0]
            if len(self.known) >= HINT_MIN and not self.confirm:
                pending = prefix_rounds(self.known)
                self._fill = [1, 1]  # a known part holds one tag: a collision there, two
            elif self.probe:
                pending = [(0, 0, 1)]  # asked in one slot: silence is an empty zone
        self._pending = pending
        start_ms = self._clock.ticks_ms()
        rounds = 0
        self.complete = False
        self.resuming = False
        while len(found) < self.max_uids:
            spent = ticks_diff(self._clock.ticks_ms(), start_ms)
            if pending and rounds:
                # Leave before a round that would outrun the slice (the bets wait on it).
                kind = pending[-1][2]
                spent += _ROUND1_MS if kind == 1 else (
                    _ROUND16_MS + _ROUND_TAG_MS * max(0, kind - _SLOTS))
            if spent >= self.max_scan_ms:
                used_ms += ticks_diff(self._clock.ticks_ms(), start_ms)
                if used_ms < MAX_INVENTORY_MS:
                    self._resume[self._channel] = (found, pending, used_ms, self._fill)
                    self.resuming = True
                break
            if not pending:
                if saved is not None or not self.confirm:
                    # Walked to the end over several scans: every collision subtree was
                    # resolved (tags found earlier lost STAY QUIET with the field, so the
                    # silent unmasked round cannot be the proof here).
                    self.complete = True
                    break
                # Everyone identified is quiet: a silent unmasked round proves the
                # stack complete (a drowned-out tag answers here).
                pending.append((0, 0, _SLOTS))
            mask, mask_len, slots = pending.pop()
            if slots == _SPLIT:
                if self._split_pays():
                    # The colliding tags differ at bit mask_len: each half holds one of
                    # them, asked in one slot (two short requests instead of a 16-slot
                    # round of mostly empty slots).
                    pending.append((mask | (1 << mask_len), mask_len + 1, 1))
                    pending.append((mask, mask_len + 1, 1))
                    continue
                slots = _SLOTS
            if slots == 1:
                answered = yield from self._round1(mask, mask_len, found)
            else:
                answered = yield from self._round(mask, mask_len, found, slots == _SLOTS)
            rounds += 1
            if mask_len == 0 and not answered:
                if slots == 1 and saved is None:
                    self.probes += 1
                self.complete = True  # nobody answered an unmasked request: nobody is there
                break
        self.rounds = rounds
        return list(found)

    def _split_pays(self) -> bool:
        """Whether a collided slot is worth splitting in two one-slot requests: only
        where collided slots have held about two tags so far (a slot of a big stack holds
        many, and halving it over and over costs more than one 16-slot round)."""
        rounds, tags = self._fill
        return rounds > 0 and tags <= _SPLIT_MAX_FILL * rounds

    def _collided(self, prefix: int, prefix_len: int) -> None:
        """Queue the walk into a collided (or garbled) slot whose tags share `prefix`."""
        self.collisions += 1
        if prefix_len > _UID_BITS - 4:
            return
        split = self._coll_bit == prefix_len and prefix_len < _UID_BITS - 4
        self._pending.append((prefix, prefix_len, _SPLIT if split else _SLOTS))

    def _await_answer(self) -> "Generator[int, None, int]":
        """Yield until the exchange ends; its IRQ bits. A late answer (TIMER1 ran out
        after its start of frame) is waited for (the command deadline bounds it) instead
        of being called an empty slot."""
        chip = self._chip
        irq: int = chip.poll_transceive()
        while not irq:
            yield 0
            irq = chip.poll_transceive()
        if not irq & IRQ_RX and chip.receiving(irq):
            self.late_answers += 1
            while not irq & IRQ_RX:
                yield 0
                irq = chip.poll_transceive()
        return irq

    def _request(self, flags: int, mask: int, mask_len: int) -> memoryview:
        """The INVENTORY request for `mask` (its `mask_len` low bits, LSB first)."""
        req = self._req
        n_mask = (mask_len + 7) // 8
        req[0] = flags
        req[1] = _CMD_INVENTORY
        req[2] = mask_len
        for i in range(n_mask):
            req[3 + i] = (mask >> (8 * i)) & 0xFF
        return memoryview(req)[: 3 + n_mask]

    def _round(
        self, mask: int, mask_len: int, found: list[bytes], walk: bool = True
    ) -> "Generator[int, None, bool]":
        """One 16-slot round; returns True if any tag answered (or collided). `walk`: it
        walks into a collided slot (False: planned over known tags, see prefix_rounds)."""
        chip = self._chip
        frame = self._request(_INVENTORY_16_SLOTS, mask, mask_len)
        new = self._found_round
        del new[:]
        answered = False
        collided = 0
        answer_us = -1  # when the last answer was seen: the next EOF waits t2 after it
        for slot in range(_SLOTS):
            if answer_us >= 0:
                yield from self._wait_us(answer_us, T2_US)
                answer_us = -1
            chip.start_transceive(frame, slot > 0)
            irq = yield from self._await_answer()
            outcome = self._slot_result(irq, new)
            if outcome == SLOT_EMPTY:
                continue
            answer_us = self._clock.ticks_us()
            answered = True
            if outcome == SLOT_COLLISION:
                collided += 1
                self._collided(mask | (slot << mask_len), mask_len + 4)
        if answer_us >= 0:
            yield from self._wait_us(answer_us, T2_US)  # slot 15 answered: t2 first
        if mask_len and walk:
            # A sub-round of a collided slot: how many tags such a slot held (at least).
            self._fill[0] += 1
            self._fill[1] += len(new) + 2 * collided
        elif answered and collided < _SLOTS - 1 - len(new) and not self._fill[0]:
            # Two or more slots of the unmasked round were empty: a few tags per slot at
            # most, so its collided slots hold two or three.
            self._fill = [1, 2]
        for uid in new:
            if uid not in found and len(found) < self.max_uids:
                found.append(uid)
            if self.confirm:
                yield from self._stay_quiet(uid)
        if _DEBUG:
            print("iso15693 round mask", mask, mask_len, "found", len(new))
        return answered

    def _round1(self, mask: int, mask_len: int, found: list[bytes]) -> "Generator[int, None, bool]":
        """One-slot inventory of the tags whose UID starts (LSB first) with `mask`.

        One clean answer is the only tag with that prefix (two would collide or garble
        the CRC); a collision or garbled answer is walked into (split in two where the
        collision bit says the tags differ at the next bit, else a 16-slot sub-round);
        silence means no tag has that prefix. Unmasked, it is the probe of a zone that
        was empty: silence there is an empty zone in ~9 ms instead of a 20 ms round.
        """
        chip = self._chip
        chip.start_transceive(self._request(_INVENTORY_1_SLOT, mask, mask_len))
        irq = yield from self._await_answer()
        new = self._found_round
        del new[:]
        outcome = self._slot_result(irq, new)
        if outcome == SLOT_EMPTY:
            return False
        yield from self._wait_us(self._clock.ticks_us(), T2_US)  # the next request waits t2
        if outcome == SLOT_COLLISION:
            self._collided(mask, mask_len)
        for uid in new:
            if uid not in found and len(found) < self.max_uids:
                found.append(uid)
            if self.confirm:
                yield from self._stay_quiet(uid)
        return True

    def _slot_result(self, irq: int, new: list[bytes]) -> int:
        chip = self._chip
        self._coll_bit = -1
        if not irq & IRQ_RX:
            return SLOT_EMPTY
        status = chip.read_register(REG_RX_STATUS)
        if status & RX_COLLISION_DETECTED:
            # Table 93 RX_COLL_POS: the first bit where the answers differed; the answer
            # opens with the flags and DSFID bytes, then the UID, LSB first.
            self._coll_bit = ((status >> RX_COLL_POS_SHIFT) & RX_COLL_POS_MASK) - 16
            return SLOT_COLLISION
        if status & (RX_DATA_INTEGRITY_ERROR | RX_PROTOCOL_ERROR):
            # A garbled answer still means someone is in this slot: dig into it.
            return SLOT_COLLISION
        n = status & RX_NUM_BYTES_MASK
        if n != _INVENTORY_RESPONSE_LEN:
            return SLOT_COLLISION
        data = chip.read_data(n)
        if data[0] & 0x01:
            raise ReaderProtocolError("inventory response error flag 0x%02x" % data[0])
        uid = bytearray(_UID_LEN)
        for i in range(_UID_LEN):
            uid[i] = data[_INVENTORY_RESPONSE_LEN - 1 - i]  # LSB first on air
        new.append(bytes(uid))
        return SLOT_ONE

    def _stay_quiet(self, uid: bytes) -> "Generator[int, None, None]":
        """Addressed STAY QUIET: the tag ignores inventories until the field drops."""
        q = self._quiet
        q[0] = _ADDRESSED_REQUEST
        q[1] = _CMD_STAY_QUIET
        for i in range(_UID_LEN):
            q[2 + i] = uid[_UID_LEN - 1 - i]
        chip = self._chip
        chip.start_transceive(q)
        while not chip.poll_transceive():  # no answer expected: TIMER1 ends it
            yield 0


def prefix_rounds(uids: list[bytes]) -> list[tuple[int, int, int]]:
    """One-slot probes that cover every UID once: the prefixes telling `uids` apart.

    The UID space is split bit by bit (LSB first, as the mask reads it) until each part
    holds at most one known UID; the parts with none are probed too, so a newcomer is
    found wherever it lies and the walk is as complete as one from an unmasked round.
    A known stack costs one short request per tag (plus the empty parts) instead of
    the mostly empty slots of 16-slot sub-rounds. A part whose _ROUND16_MIN_KNOWN or
    more known UIDs fall in different slots of a 16-slot round there is asked in one
    (an EOF opens each slot: ~5.5 ms per tag and ~1.4 ms per empty slot, against ~8 ms
    per one-slot request). Parts still shared below _HINT_MAX_LEN bits become 16-slot
    rounds. Returned in pop order (last runs first) as (mask, mask length, kind): kind 1
    is a one-slot request, 16 a 16-slot round, 16 + k a 16-slot round expected to hear k
    known tags (what the slice planning reckons with).
    """
    values = []
    for u in uids:
        v = 0
        for i in range(_UID_LEN):
            v |= u[_UID_LEN - 1 - i] << (8 * i)  # MSB-first label -> LSB-first air order
        values.append(v)
    out: list[tuple[int, int, int]] = []
    todo = [(0, 0, values)]
    while todo:
        mask, n, vs = todo.pop()
        if len(vs) <= 1:
            out.append((mask, n, 1))
        elif n >= _HINT_MAX_LEN:
            out.append((mask, n, _SLOTS))
        elif len(vs) >= _ROUND16_MIN_KNOWN and len({(v >> n) & 0xF for v in vs}) == len(vs):
            out.append((mask, n, _SLOTS + len(vs)))  # a round expected to hear len(vs)
        else:
            bit = 1 << n
            todo.append((mask, n + 1, [v for v in vs if not v & bit]))
            todo.append((mask | bit, n + 1, [v for v in vs if v & bit]))
    return out
