"""A simulated MFRC522 (register file over SPI) with ISO 14443A cards, from the datasheets.

Registers and bits follow the MFRC522 datasheet (Rev 3.9, §9 register tables); the card
side ISO/IEC 14443-3 (WUPA/REQA, bit-oriented anticollision, cascade levels for 4-, 7-
and 10-byte UIDs, SELECT with CRC_A, HLTA). Time comes from a clock (`ticks_us`):

- after RST goes high, or a SoftReset command, the oscillator starts (§8.8.2: crystal
  start-up + 37.74 us; 1 ms here): until then register writes are lost, reads give 0,
  and CommandReg.PowerDown reads 1 after a SoftReset;
- the timer counts only when armed (TModeReg.TAuto, TPrescaler, TReload: reset value 0,
  §9.3.3.10): a silent card with an unarmed timer raises no IRQ at all;
- a card answers only after the field reached it for `card_powerup_us` (ISO/IEC 14443-3
  allows a PICC up to 5 ms after field on; 2.5 ms here), so the driver needs a guard
  time after an antenna switch;
- two cards on one pad answer together: their bits collide, CollReg gives the first
  collision position and ErrorReg.CollErr is set, exactly what bit-oriented
  anticollision needs.
"""

REG_COMMAND = 0x01  # §9.3.1.2: bit 4 PowerDown, bits 3:0 command
REG_COM_IRQ = 0x04
REG_ERROR = 0x06
REG_FIFO_DATA = 0x09
REG_FIFO_LEVEL = 0x0A
REG_BIT_FRAMING = 0x0D  # bit 7 StartSend, 6:4 RxAlign, 2:0 TxLastBits
REG_COLL = 0x0E  # bit 5 CollPosNotValid, 4:0 CollPos
REG_TX_CONTROL = 0x14
REG_T_MODE = 0x2A
REG_T_PRESCALER = 0x2B
REG_T_RELOAD_H = 0x2C
REG_T_RELOAD_L = 0x2D
REG_VERSION = 0x37
POWER_DOWN = 0x10
CMD_IDLE = 0x00
CMD_TRANSCEIVE = 0x0C
CMD_SOFT_RESET = 0x0F
T_OSC_US = 1000
FC = 13560000
BIT_US = 9.44  # 106 kbit/s
FDT_US = 86  # ISO 14443-3: 1172/fc between PCD frame end and PICC answer
RESET_REGS = {REG_COMMAND: 0x20, REG_VERSION: 0x92, REG_TX_CONTROL: 0x80, REG_COLL: 0xA0}


def crc_a(data: bytes) -> int:
    crc = 0x6363
    for x in data:
        b = (x ^ (crc & 0xFF)) & 0xFF
        b = (b ^ (b << 4)) & 0xFF
        crc = ((crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)) & 0xFFFF
    return crc


def with_crc(data: bytes) -> bytes:
    c = crc_a(data)
    return bytes(data) + bytes((c & 0xFF, c >> 8))


def _bits(data: bytes, nbits: int) -> list[int]:
    return [(data[i // 8] >> (i % 8)) & 1 for i in range(nbits)]


def _pack(bits: list[int], align: int = 0) -> bytes:
    out = bytearray((len(bits) + align + 7) // 8)
    for i, b in enumerate(bits):
        j = i + align
        out[j // 8] |= b << (j % 8)
    return bytes(out)


class SimCard:
    def __init__(self, uid: bytes, sak: int = 0x08, channel: int = 0) -> None:
        if len(uid) not in (4, 7, 10):
            raise ValueError("uid: ISO 14443A UIDs are 4, 7 or 10 bytes, got %d" % len(uid))
        self.uid = bytes(uid)
        self.sak = sak
        self.channel = channel
        self.state = "IDLE"
        self.rest = "IDLE"  # where a READY card falls back to (IDLE, or HALT if woken)
        self.levels = {4: 1, 7: 2, 10: 3}[len(uid)]

    def cl(self, level: int) -> bytes:
        """UID CLn (4 bytes) + BCC as sent in anticollision at cascade level `level`."""
        u = self.uid
        if self.levels == 1:
            part = u
        elif level < self.levels:
            start = 3 * (level - 1)
            part = b"\x88" + u[start : start + 3]
        else:
            part = u[-4:]
        return part + bytes((part[0] ^ part[1] ^ part[2] ^ part[3],))

    def atqa(self) -> bytes:
        return bytes(({1: 0x04, 2: 0x44, 3: 0x84}[self.levels], 0x00))

    def answer(self, frame: bytes, nbits: int) -> list[int] | None:
        """The card's answer as a bit list (LSB first), or None if it stays silent.

        ISO/IEC 14443-3 state diagram: a READY card that is not selected (a SELECT for
        another UID, any unexpected frame) falls back to IDLE (HALT if WUPA woke it).
        """
        was = self.state
        out = self._answer(frame, nbits)
        if was.startswith("READY") and self.state == was and out is None:
            self.state = self.rest
        return out

    def _answer(self, frame: bytes, nbits: int) -> list[int] | None:
        if nbits == 7 and len(frame) == 1:
            if (frame[0] == 0x52 and self.state in ("IDLE", "HALT")) or (
                frame[0] == 0x26 and self.state == "IDLE"
            ):
                self.rest = self.state
                self.state = "READY1"
                return _bits(self.atqa(), 16)
            return None
        if len(frame) >= 2 and frame[0] in (0x93, 0x95, 0x97):
            level = (0x93, 0x95, 0x97).index(frame[0]) + 1
            if self.state != "READY%d" % level:
                return None
            nvb = frame[1]
            known = ((nvb >> 4) - 2) * 8 + (nvb & 0x0F)
            cl = self.cl(level)
            if nvb == 0x70 and nbits == 72:
                if crc_a(frame[:7]) != frame[7] | (frame[8] << 8) or frame[2:7] != cl:
                    return None
                if level < self.levels:
                    self.state = "READY%d" % (level + 1)
                    return _bits(with_crc(b"\x04"), 24)
                self.state = "ACTIVE"
                return _bits(with_crc(bytes((self.sak,))), 24)
            if known > 32 or nbits != 16 + known:
                return None
            mine = _bits(cl, 40)
            if _bits(frame[2:], known) != mine[:known]:
                return None  # not our prefix: stay silent
            return mine[known:]
        crc_ok = len(frame) == 4 and crc_a(frame[:2]) == frame[2] | (frame[3] << 8)
        hlta = crc_ok and frame[0] == 0x50
        if hlta and self.state == "ACTIVE":  # only the selected card halts
            self.state = "HALT"
        return None


class FakeMfrc522:
    def __init__(self, cs, rst, clock=None, channel=None, mux_pins=()) -> None:  # type: ignore[no-untyped-def]
        if clock is None:
            from clock import FakeClock

            clock = FakeClock()
        self.clock = clock
        self._cs = cs
        self._channel = channel if channel is not None else (lambda: 0)
        self.cards: list[SimCard] = []
        self.card_powerup_us = 2500
        self.violations: list[str] = []
        self.frames = 0
        self.resets = 0
        self._field_since = -1
        self._field_channel = -1
        self._power_on(self._now())
        rst.sim_on_change(self._on_rst)
        for pin in mux_pins:  # an antenna switch moves the field at once
            pin.sim_on_change(lambda p, old, new: self._cards())

    def _now(self) -> int:
        return int(self.clock.ticks_us())

    def _power_on(self, now: int) -> None:
        self.regs: dict[int, int] = dict(RESET_REGS)
        self.fifo: list[int] = []
        self._ready_at = now + T_OSC_US
        self._timer_at = -1
        self._irq_at = -1
        self._pending: tuple[int, list[int], int, int] | None = None
        self._set_field(False)
        for c in self.cards:
            c.state = "IDLE"

    def _on_rst(self, pin, old, new) -> None:  # type: ignore[no-untyped-def]
        if new == 0:
            self._set_field(False)
            self._ready_at = 1 << 62
        elif old == 0:
            self.resets += 1
            self._power_on(self._now())

    @property
    def antenna_on(self) -> bool:
        return (self.regs.get(REG_TX_CONTROL, 0) & 0x03) == 0x03

    def _set_field(self, on: bool) -> None:
        if not on:
            if self._field_channel >= 0:
                for c in self.cards:
                    if c.channel == self._field_channel:
                        c.state = "IDLE"
            self._field_channel = -1

    def _cards(self) -> list[SimCard]:
        """Cards that have power now (field on their pad long enough)."""
        now = self._now()
        ch = self._channel() if self.antenna_on else -1
        if ch != self._field_channel:
            self._set_field(False)
            self._field_channel = ch
            self._field_since = now
        if ch < 0 or now - self._field_since < self.card_powerup_us:
            return []
        return [c for c in self.cards if c.channel == ch]

    def _run(self) -> None:
        now = self._now()
        if self._pending is not None and now >= self._pending[0]:
            _t, bits, align, err_coll = self._pending
            self._pending = None
            self.fifo = list(_pack(bits, align))
            self.regs[REG_ERROR] = 0x08 if err_coll >= 0 else 0
            if err_coll >= 0:
                pos = err_coll + align + 1
                self.regs[REG_COLL] = (pos & 0x1F) if pos <= 32 else 0x20
            else:
                self.regs[REG_COLL] = 0x20
            self.regs[REG_COM_IRQ] = self.regs.get(REG_COM_IRQ, 0) | 0x30  # RxIRq, IdleIRq
            self._timer_at = -1
        if self._timer_at >= 0 and now >= self._timer_at:
            self._timer_at = -1
            self.regs[REG_COM_IRQ] = self.regs.get(REG_COM_IRQ, 0) | 0x01  # TimerIRq

    def sim_transfer(self, tx: bytes) -> bytes:
        if self._cs.value():
            raise OSError("MFRC522 SPI transfer with NSS high")
        self._run()
        self.frames += 1
        ready = self._now() >= self._ready_at
        rx = bytearray(len(tx))
        if tx[0] & 0x80:  # read: every address byte returns the previous one's value
            for i in range(len(tx) - 1):
                reg = (tx[i] >> 1) & 0x3F
                if ready:
                    rx[i + 1] = self._read(reg)
                elif reg == REG_COMMAND:
                    rx[i + 1] = 0x20 | POWER_DOWN  # oscillator still starting
        else:
            if not ready:
                self.violations.append("register write before the oscillator ran (§8.8.2)")
                return bytes(rx)
            reg = (tx[0] >> 1) & 0x3F
            for v in tx[1:]:
                self._write(reg, v)
        return bytes(rx)

    def _read(self, reg: int) -> int:
        if reg == REG_FIFO_DATA:
            return self.fifo.pop(0) if self.fifo else 0
        if reg == REG_FIFO_LEVEL:
            return len(self.fifo)
        return self.regs.get(reg, 0)

    def _write(self, reg: int, v: int) -> None:
        if reg == REG_FIFO_DATA:
            self.fifo.append(v)
        elif reg == REG_FIFO_LEVEL:
            if v & 0x80:
                self.fifo = []
        elif reg == REG_COM_IRQ:  # bit7 Set1: set marked bits, else clear them
            cur = self.regs.get(REG_COM_IRQ, 0)
            self.regs[REG_COM_IRQ] = (cur | (v & 0x7F)) if v & 0x80 else (cur & ~v & 0x7F)
        elif reg == REG_COMMAND:
            if v & 0x0F == CMD_SOFT_RESET:
                self.resets += 1
                self._power_on(self._now())
                return
            self.regs[reg] = v & 0x3F
            if v & 0x0F == CMD_IDLE:
                self._pending = None
                self._timer_at = -1
        elif reg == REG_BIT_FRAMING:
            self.regs[reg] = v & 0x7F
            if v & 0x80 and self.regs.get(REG_COMMAND, 0) & 0x0F == CMD_TRANSCEIVE:
                self._transceive(v & 0x07, (v >> 4) & 0x07)
        else:
            self.regs[reg] = v
            if reg == REG_TX_CONTROL:
                self._cards()  # antenna on/off: the field reaches the pad from now

    def _timer_period_us(self) -> float:
        mode = self.regs.get(REG_T_MODE, 0)
        if not mode & 0x80:
            return -1.0  # TAuto off: the timer never starts by itself
        presc = ((mode & 0x0F) << 8) | self.regs.get(REG_T_PRESCALER, 0)
        reload = (self.regs.get(REG_T_RELOAD_H, 0) << 8) | self.regs.get(REG_T_RELOAD_L, 0)
        if reload == 0:
            return -1.0
        return (reload + 1) * (2 * presc + 1) * 1e6 / FC

    def _transceive(self, last_bits: int, align: int) -> None:
        frame = bytes(self.fifo)
        self.fifo = []
        nbits = len(frame) * 8 - (8 - last_bits if last_bits else 0)
        now = self._now()
        tx_end = now + nbits * BIT_US + 20
        answers = [a for a in (c.answer(frame, nbits) for c in self._cards()) if a is not None]
        period = self._timer_period_us()
        self._timer_at = int(tx_end + period) if period > 0 else -1
        if not answers:
            return
        n = max(len(a) for a in answers)
        merged = []
        coll = -1
        for i in range(n):
            vals = {a[i] for a in answers if i < len(a)}
            if len(vals) > 1 and coll < 0:
                coll = i
            merged.append(1 if 1 in vals else 0)
        t = tx_end + FDT_US + n * BIT_US
        self._pending = (int(t), merged, align, coll)
