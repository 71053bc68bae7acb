"""A simulated RF field of ISO 15693 tags and a PN5180 faked at the SPI-command level.

`SimField` holds tags per antenna channel and answers ISO 15693 requests the way tags
do: in a 16-slot inventory each ready tag whose low UID bits match the mask answers
in the slot given by its next 4 UID bits, so two tags in one slot really collide and
the driver must recurse with a longer mask. STAY QUIET silences a tag until it loses
power (field off or antenna switched away).

`FakePn5180` plugs into the host `machine.SPI` (`spi.sim_attach(chip)`) and decodes
the real PN5180 host-interface frames: register writes and masks, READ_REGISTER,
SEND_DATA/READ_DATA, RF on/off, LOAD_RF_CONFIG, BUSY and RST. It never looks at the
driver's Python objects, only at bytes and pin levels.
"""

try:
    import random
except ImportError:  # pragma: no cover
    random = None  # type: ignore[assignment]

# Kept in step with firmware/pn5180.py by the driver tests, not by import: a fake
# that imported the driver's constants would agree with the driver's mistakes.
_REG_SYSTEM_CONFIG = 0x00
_REG_IRQ_STATUS = 0x02
_REG_IRQ_CLEAR = 0x03
_REG_RX_STATUS = 0x13
_REG_TX_CONFIG = 0x18
_IRQ_RX = 1 << 0
_IRQ_TX = 1 << 1
_IRQ_IDLE = 1 << 2
_IRQ_TX_RFON = 1 << 9
_IRQ_TIMER1 = 1 << 12
_RX_COLLISION = 1 << 18
_RX_COLL_POS_SHIFT = 19
_TX_DATA_ENABLE = 0x000004C0
_SYSCFG_TRANSCEIVE = 0x3


class SimTag:
    def __init__(self, uid: bytes, dsfid: int = 0) -> None:
        if len(uid) != 8:
            raise ValueError("uid: ISO 15693 UIDs are 8 bytes, got %d" % len(uid))
        self.uid = bytes(uid)  # MSB first, as printed (E0 ...)
        self.value = int.from_bytes(self.uid, "big")
        self.dsfid = dsfid
        self.quiet = False

    def response(self) -> bytes:
        """Inventory response as sent on air: flags, DSFID, UID LSB first."""
        out = bytearray(10)
        out[1] = self.dsfid
        for i in range(8):
            out[2 + i] = self.uid[7 - i]
        return bytes(out)


class SimField:
    """Tags per antenna channel; `channel()` says which antenna is switched in."""

    def __init__(self, channel=None, seed: int = 1) -> None:  # type: ignore[no-untyped-def]
        self.tags: dict[int, list[SimTag]] = {}
        self._channel = channel if channel is not None else (lambda: 0)
        self.powered = False
        self._powered_channel = -1
        self._slots: list[list[SimTag]] | None = None
        self._slot = 0
        self.dropout = 0.0  # probability that a tag misses one answer (weak coupling)
        self.requests = 0
        self.collided_slots = 0
        if random is not None:
            random.seed(seed)

    # ---- scene editing (sim_node stdin, tests)
    def add(self, channel: int, uid: bytes) -> None:
        tags = self.tags.setdefault(channel, [])
        for t in tags:
            if t.uid == uid:
                return
        tags.append(SimTag(uid))

    def remove(self, channel: int, uid: bytes) -> None:
        tags = self.tags.get(channel, [])
        self.tags[channel] = [t for t in tags if t.uid != uid]

    def clear(self, channel: int) -> None:
        self.tags[channel] = []

    # ---- RF side
    def power(self, on: bool) -> None:
        if not on:
            self._powered_channel = -1
            self._slots = None
        self.powered = on

    def _active(self) -> list[SimTag]:
        if not self.powered:
            return []
        ch = self._channel()
        if ch != self._powered_channel:
            # Tags on the newly switched-in antenna just got power: none is quiet.
            for t in self.tags.get(ch, []):
                t.quiet = False
            self._powered_channel = ch
        return self.tags.get(ch, [])

    def request(self, frame: bytes) -> list[bytes]:
        """A new request frame; returns the answers heard (one entry per tag)."""
        self.requests += 1
        self._slots = None
        tags = self._active()
        if len(frame) < 2:
            return []
        flags, cmd = frame[0], frame[1]
        if flags & 0x04 and cmd == 0x01:  # INVENTORY
            mask_len = frame[2]
            nbytes = (mask_len + 7) // 8
            mask = 0
            for i in range(nbytes):
                mask |= frame[3 + i] << (8 * i)
            mask &= (1 << mask_len) - 1
            one_slot = bool(flags & 0x20)
            slots: list[list[SimTag]] = [[] for _ in range(1 if one_slot else 16)]
            for t in tags:
                v = int.from_bytes(t.response()[2:], "little")
                if t.quiet or (v & ((1 << mask_len) - 1)) != mask:
                    continue
                slots[0 if one_slot else (v >> mask_len) & 0xF].append(t)
            self._slots = slots
            self._slot = 0
            return self._answers()
        if cmd == 0x02 and flags & 0x20 and len(frame) >= 10:  # addressed STAY QUIET
            uid = bytes(frame[9 - i] for i in range(8))
            for t in tags:
                if t.uid == uid:
                    t.quiet = True
        return []

    def eof(self) -> list[bytes]:
        """An EOF alone: tags move to the next inventory slot."""
        self._active()
        if self._slots is None:
            return []
        self._slot += 1
        if self._slot >= len(self._slots):
            self._slots = None
            return []
        return self._answers()

    def _answers(self) -> list[bytes]:
        if self._slots is None:
            return []
        out = []
        for t in self._slots[self._slot]:
            if self.dropout and random is not None and random.random() < self.dropout:
                continue
            out.append(t.response())
        if len(out) > 1:
            self.collided_slots += 1
        return out


def first_collision_bit(answers: list[bytes]) -> int:
    """Bit index (LSB first on air) where the superposed answers first disagree."""
    first = answers[0]
    for i in range(len(first) * 8):
        bit = (first[i // 8] >> (i % 8)) & 1
        for other in answers[1:]:
            if ((other[i // 8] >> (i % 8)) & 1) != bit:
                return i
    return -1


class FakePn5180:
    """The PN5180 as its SPI host interface and pins show it."""

    def __init__(self, field: SimField, cs, busy, rst, busy_polls: int = 1) -> None:  # type: ignore[no-untyped-def]
        self.field = field
        self._cs = cs
        self.busy_polls = busy_polls
        self.stuck_busy = False
        self._busy_left = 0
        self.regs: dict[int, int] = {}
        self._read_reply: bytes | None = None
        self._rx = b""
        self.rf_config = (0xFF, 0xFF)
        self.resets = 0
        self.frames = 0
        busy.sim_drive(self._busy_level)
        rst.sim_on_change(self._on_rst)

    def _busy_level(self) -> int:
        if self.stuck_busy:
            return 1
        if self._busy_left > 0:
            self._busy_left -= 1
            return 1
        return 0

    def _on_rst(self, pin, old, new) -> None:  # type: ignore[no-untyped-def]
        if old == 1 and new == 0:
            self.regs = {}
            self._read_reply = None
            self.field.power(False)
            self.resets += 1
            self._busy_left = self.busy_polls

    def _u32(self, b: bytes, at: int) -> int:
        return b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)

    def sim_transfer(self, tx: bytes) -> bytes:
        if self._cs.value():
            raise OSError("PN5180 SPI transfer with NSS high")
        if self._busy_left or self.stuck_busy:
            raise OSError("PN5180 SPI transfer while BUSY is high")
        self.frames += 1
        if self._read_reply is not None:
            reply = self._read_reply
            self._read_reply = None
            return (reply + b"\x00" * len(tx))[: len(tx)]
        self._command(tx)
        self._busy_left = self.busy_polls
        return b"\xff" * len(tx)

    def _command(self, tx: bytes) -> None:
        cmd = tx[0]
        regs = self.regs
        if cmd in (0x00, 0x01, 0x02):
            reg, val = tx[1], self._u32(tx, 2)
            if reg == _REG_IRQ_CLEAR:
                regs[_REG_IRQ_STATUS] = regs.get(_REG_IRQ_STATUS, 0) & ~val
                return
            cur = regs.get(reg, 0)
            regs[reg] = val if cmd == 0x00 else (cur | val) if cmd == 0x01 else (cur & val)
        elif cmd == 0x04:
            v = regs.get(tx[1], 0)
            self._read_reply = bytes(
                (v & 0xFF, (v >> 8) & 0xFF, (v >> 16) & 0xFF, (v >> 24) & 0xFF)
            )
        elif cmd == 0x07:
            # EEPROM 0x10..0x15: product 3.5, firmware 4.1, EEPROM 145.0 (LSB = minor)
            eeprom = bytes(16) + b"\x05\x03\x01\x04\x00\x91" + bytes(234)
            self._read_reply = eeprom[tx[1] : tx[1] + tx[2]]
        elif cmd == 0x0A:
            self._read_reply = self._rx
        elif cmd == 0x11:
            self.rf_config = (tx[1], tx[2])
        elif cmd == 0x16:
            self.field.power(True)
            regs[_REG_IRQ_STATUS] = regs.get(_REG_IRQ_STATUS, 0) | _IRQ_TX_RFON
        elif cmd == 0x17:
            self.field.power(False)
        elif cmd == 0x09:
            self._send_data(tx[2:])
        else:
            raise OSError("PN5180 unknown host command 0x%02x" % cmd)

    def _send_data(self, data: bytes) -> None:
        regs = self.regs
        if regs.get(_REG_SYSTEM_CONFIG, 0) & 0x7 != _SYSCFG_TRANSCEIVE:
            return  # not in transceive state: the chip ignores the data
        if self.rf_config != (0x0D, 0x8D) or not self.field.powered:
            answers: list[bytes] = []
        elif regs.get(_REG_TX_CONFIG, _TX_DATA_ENABLE) & _TX_DATA_ENABLE:
            answers = self.field.request(data)
        else:
            answers = self.field.eof()
        irq = regs.get(_REG_IRQ_STATUS, 0) | _IRQ_TX | _IRQ_IDLE
        if not answers:
            regs[_REG_IRQ_STATUS] = irq | _IRQ_TIMER1
            regs[_REG_RX_STATUS] = 0
            self._rx = b""
            return
        regs[_REG_IRQ_STATUS] = irq | _IRQ_RX
        if len(answers) == 1:
            self._rx = answers[0]
            regs[_REG_RX_STATUS] = len(self._rx)
            return
        pos = first_collision_bit(answers)
        self._rx = answers[0][: pos // 8]
        regs[_REG_RX_STATUS] = len(self._rx) | _RX_COLLISION | ((pos & 0x7F) << _RX_COLL_POS_SHIFT)
