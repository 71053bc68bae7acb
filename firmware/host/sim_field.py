"""A simulated RF field of ISO 15693 tags and a PN5180 built from its datasheet (Rev 4.0).

Nothing here is taken from the driver: register addresses, bits, reset values and
timings come from the PN5180 datasheet tables cited next to each constant, the ISO 15693
air timing from ISO/IEC 15693-2/-3 and NXP's reader library, the tag behaviour from the
ICODE SLIX2 datasheet (SL2S2602 Rev 4.1). tests/firmware/fixtures/pn5180_datasheet.json
records the same figures with their sources and a test keeps this file in step with it.

`SimField` holds tags per antenna channel. A tag needs the field on for `tag_powerup_us`
before it answers and forgets STAY QUIET only after the field was off for
`tag_hold_us` (its supply capacitor keeps it alive across a short gap). In a 16-slot
inventory each ready tag whose low UID bits match the mask answers in the slot given by
its next 4 UID bits, so two tags in one slot really collide.

`FakePn5180` plugs into the host `machine.SPI` and follows its time from a clock
(`ticks_us`): reset needs a >= 10 us low pulse and 2.5 ms start-up ending in IDLE_IRQ;
BUSY is high while a frame is processed; SEND_DATA only starts a transmission; TIMER1
fires only when armed (TIMER1_RELOAD/TIMER1_CONFIG, reset value 0 = never); RF_ON with
collision avoidance refuses to switch on next to another reader's field
(RF_ACTIVE_ERROR_IRQ); a broken instruction condition raises GENERAL_ERROR_IRQ. Every
breach of the datasheet's rules is recorded in `violations`.
"""

try:
    import random
except ImportError:  # pragma: no cover
    random = None  # type: ignore[assignment]

# ---- PN5180 datasheet Rev 4.0: registers (Table 74) and bits --------------------------
REG_SYSTEM_CONFIG = 0x00  # Table 75
REG_IRQ_ENABLE = 0x01  # Table 76
REG_IRQ_STATUS = 0x02  # Table 77 (read only)
REG_IRQ_CLEAR = 0x03  # Table 78
REG_TIMER1_STATUS = 0x09  # Table 83 (read only)
REG_TIMER1_RELOAD = 0x0C  # Table 86: bits 19:0, reset 00000h
REG_TIMER1_CONFIG = 0x0F  # Table 89: reset 0 (timer disabled)
REG_CRC_RX_CONFIG = 0x12  # Table 92
REG_RX_STATUS = 0x13  # Table 93 (read only)
REG_TX_CONFIG = 0x18  # Table 98
REG_CRC_TX_CONFIG = 0x19  # Table 99
REG_RF_STATUS = 0x1D  # Table 103 (read only)
REG_SYSTEM_STATUS = 0x24  # Table 110 (read only)
READ_ONLY = (REG_IRQ_STATUS, 0x08, REG_TIMER1_STATUS, 0x0A, REG_RX_STATUS, REG_RF_STATUS,
             REG_SYSTEM_STATUS)

SYSCFG_COMMAND_MASK = 0x7  # Table 75 bits 2:0
SYSCFG_IDLE = 0x0
SYSCFG_TRANSCEIVE = 0x3
SYSCFG_SOFT_RESET = 1 << 8

IRQ_RX = 1 << 0  # Table 77
IRQ_TX = 1 << 1
IRQ_IDLE = 1 << 2
IRQ_TX_RFOFF = 1 << 8
IRQ_TX_RFON = 1 << 9
IRQ_RF_ACTIVE_ERROR = 1 << 10
IRQ_TIMER1 = 1 << 12
IRQ_RX_SOF_DET = 1 << 14  # Table 77: a start of frame (subcarrier) was detected
IRQ_GENERAL_ERROR = 1 << 17
IRQ_ALL = 0x000FFFFF

T1_ENABLE = 1 << 0  # Table 89
T1_MODE_SEL = 1 << 2  # prescaler on (else 13.56 MHz)
T1_PRESCALE_SHIFT = 3  # bits 5:3: 6.78 MHz >> n
T1_START_NOW = 1 << 6
T1_START_ON_TX_ENDED = 1 << 11
T1_STOP_ON_RX_STARTED = 1 << 20
T1_RELOAD_MASK = 0xFFFFF  # Table 86

RX_NUM_BYTES_MASK = 0x1FF  # Table 93
RX_DATA_INTEGRITY_ERROR = 1 << 16
RX_PROTOCOL_ERROR = 1 << 17
RX_COLLISION_DETECTED = 1 << 18
RX_COLL_POS_SHIFT = 19

TX_DATA_ENABLE = 1 << 10  # Table 98
TX_START_SYMBOL_MASK = 0x3 << 6
CRC_ENABLE = 1 << 0  # Tables 92 and 99, bit 0

RF_TX_RF_STATUS = 1 << 17  # Table 103
RF_DET_STATUS = 1 << 16
RF_ACTIVE_ERROR_CAUSE_SHIFT = 13
RF_TX_ACTIVE = 1 << 11
RF_RX_ACTIVE = 1 << 10
RF_TRANSCEIVE_STATE_SHIFT = 24

# Transceive states (Table 103 TRANSCEIVE_STATE, Figure 37).
ST_IDLE, ST_WAIT_TRANSMIT, ST_TRANSMITTING, ST_WAIT_RECEIVE, ST_WAIT_FOR_DATA, ST_RECEIVING = (
    0, 1, 2, 3, 4, 5)

# LOAD_RF_CONFIG (Table 32): ISO 15693 ASK100 26 kbit/s transmitter / receiver.
RF_CONFIG_15693 = (0x0D, 0x8D)
# Registers LOAD_RF_CONFIG 0x0D/0x8D writes (Tables 158 and 185), addresses from Table 74.
# TX_CONFIG after loading is not in those tables: 0x7C0 (data + SOF + EOF) is assumed until
# the golden register dump of docs/hardware-test-plan.md (H3) records the real value.
RF_CONFIG_15693_REGS = {
    0x21: 0x782, 0x16: 0x0, 0x14: 0xF000001F, 0x15: 0x0, 0x20: 0xDBC745, 0x29: 0x10,
    0x1F: 0x801F0, 0x1E: 0x804B, 0x1B: 0x0, 0x1C: 0x4010, 0x22: 0x1A, REG_TX_CONFIG: 0x7C0,
}
EEPROM_VERSIONS = bytes(16) + b"\x05\x03\x01\x04\x00\x91"  # 0x10..0x15 (Table 51)

# ---- timing ---------------------------------------------------------------------------
T_RESET_MIN_US = 10  # Table 129: t(reset) >= 10 us
T_BOOT_US = 2500  # Table 141: tboot typ 2.5 ms (min 2.3), then IDLE_IRQ (§11.2.2)
BUSY_US = {0x07: 60, 0x11: 450, 0x16: 40, 0x17: 40}  # assumed; default below (H2 measures)
BUSY_DEFAULT_US = 12
# §11.4.1: after a frame's data the host waits for BUSY to go high, deasserts NSS and
# waits for BUSY low. The rise takes a while after the last byte (no figure given;
# assumed, H2 measures it): a host that only checks "BUSY low" right after the frame
# can see the line before it rose and talk into the busy chip.
BUSY_RISE_US = 10
T_IDT_US = 330  # RF_ON with collision avoidance listens ~TIDT (ISO 18092: 4096/fc) first
FC = 13560000
# ISO/IEC 15693-2 at fc/512 (Table 64): 1-of-4 coding, 75.52 us per 2 bits.
READER_BYTE_US = 302.08
READER_SOF_US = 75.52
READER_EOF_US = 37.76
# Tag answer, high data rate single subcarrier (Table 65): 37.76 us per bit; SOF and EOF
# 151 us each (NXP phpalSli15693: HIGH_SOF_US 152, NRT 3928 us for a 12-byte answer).
TAG_BIT_US = 37.76
TAG_SOF_US = 151.04
TAG_EOF_US = 151.04
T1_US = 320.9  # ISO/IEC 15693-3 §9.1.4: 4352/fc from the reader's EOF to the answer
T2_US = 309.2  # ISO/IEC 15693-3 §9.1.4: t2 >= 4192/fc from a tag's answer to the next EOF


def crc15693(data: bytes | bytearray) -> bytes:
    """ISO/IEC 15693-3 CRC (poly 0x8408 reflected, preset 0xFFFF, inverted), LSB first."""
    crc = 0xFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    crc ^= 0xFFFF
    return bytes((crc & 0xFF, crc >> 8))


class SimTag:
    def __init__(self, uid: bytes, dsfid: int = 0) -> None:
        if len(uid) != 8:
            raise ValueError("uid: ISO 15693 UIDs are 8 bytes, got %d" % len(uid))
        self.uid = bytes(uid)  # MSB first, as printed (E0 ...)
        self.dsfid = dsfid
        self.quiet = False

    def response(self) -> bytes:
        """Inventory response as sent on air: flags, DSFID, UID LSB first, CRC."""
        out = bytearray(10)
        out[1] = self.dsfid
        for i in range(8):
            out[2 + i] = self.uid[7 - i]
        return bytes(out) + crc15693(out)


class SimField:
    """Tags per antenna channel; `channel()` says which antenna the RF switch feeds."""

    def __init__(self, channel=None, seed: int = 1, clock=None) -> None:  # type: ignore[no-untyped-def]
        self.tags: dict[int, list[SimTag]] = {}
        self._channel = channel if channel is not None else (lambda: 0)
        self.clock = clock
        self.powered = False
        self.external_field = False  # a neighbouring reader's field is on
        self.tag_powerup_us = 1000  # ISO/IEC 15693-3: ready within 1 ms of the field
        self.tag_hold_us = 1500  # state kept across a shorter field gap (assumed)
        self._on_since = -1  # when the present channel got a field
        self._on_channel = -1
        self._off_at: dict[int, int] = {}
        self._slots: list[list[SimTag]] | None = None
        self._slot = 0
        self.dropout = 0.0  # probability that a tag misses one answer (weak coupling)
        # Receiver imperfections (PN5180 §11.6: collisions are only flagged where the
        # subcarriers of the answers differ in phase; a strong tag can mask a weak one):
        self.crc_only_collision = 0.0  # probability a collision shows as a CRC error alone
        self.crc_error = 0.0  # probability a single answer arrives with a CRC error (noise)
        self.late_answer_us = 0  # tags answer this much after T1 (a slow or far tag)
        self.requests = 0
        self.early_requests = 0  # requests sent before the tags had power-up time
        self.collided_slots = 0
        if random is not None:
            random.seed(seed)

    def _now(self) -> int:
        return self.clock.ticks_us() if self.clock is not None else 0

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
        self._sync()
        self.powered = on
        self._sync()

    def _sync(self) -> None:
        """Follow the field on/off and antenna switching: which tags have power since when."""
        now = self._now()
        ch = self._channel() if self.powered else -1
        if ch == self._on_channel:
            return
        if self._on_channel >= 0:
            self._off_at[self._on_channel] = now
            self._slots = None
        if ch >= 0:
            off = self._off_at.get(ch)
            if off is None or now - off >= self.tag_hold_us:
                for t in self.tags.get(ch, []):
                    t.quiet = False  # power-on reset: STAY QUIET forgotten
            self._on_since = now
        self._on_channel = ch

    def _ready(self) -> list[SimTag]:
        self._sync()
        if self._on_channel < 0 or self._now() - self._on_since < self.tag_powerup_us:
            return []
        return self.tags.get(self._on_channel, [])

    def request(self, frame: bytes) -> list[bytes]:
        """A complete request frame (CRC stripped); returns the answers heard."""
        self.requests += 1
        self._slots = None
        tags = self._ready()
        if self._on_channel >= 0 and not tags and self.tags.get(self._on_channel):
            self.early_requests += 1
        if len(frame) < 2:
            return []
        flags, cmd = frame[0], frame[1]
        if flags & 0x04 and cmd == 0x01 and len(frame) >= 3:  # INVENTORY
            mask_len = frame[2]
            nbytes = (mask_len + 7) // 8
            if len(frame) < 3 + nbytes or mask_len > 60:
                return []
            mask = 0
            for i in range(nbytes):
                mask |= frame[3 + i] << (8 * i)
            mask &= (1 << mask_len) - 1
            one_slot = bool(flags & 0x20)
            slots: list[list[SimTag]] = [[] for _ in range(1 if one_slot else 16)]
            for t in tags:
                v = int.from_bytes(t.response()[2:10], "little")
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
        """An EOF alone: tags in an inventory move to the next slot."""
        self._ready()
        if self._slots is None:
            return []
        self._slot += 1
        if self._slot >= len(self._slots):
            self._slots = None
            return []
        return self._answers()

    def garbage(self) -> None:
        """A malformed frame: every tag leaves the inventory sequence."""
        self._slots = None

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
    """The PN5180 as its SPI host interface, pins and RF timing show it."""

    def __init__(self, field: SimField, cs, busy, rst, clock=None, yield_us: int = 0,  # type: ignore[no-untyped-def]
                 busy_scale: int = 1) -> None:
        if clock is None:
            from clock import FakeClock  # a frozen clock: tests that never look at time

            clock = FakeClock()
        self.field = field
        if field.clock is None:
            field.clock = clock
        self.clock = clock
        self._cs = cs
        self.yield_us = yield_us  # real-time host: sleep this long while polled and waiting
        self.busy_scale = busy_scale
        self.busy_rise_us = BUSY_RISE_US  # last byte in -> BUSY high (swept by the tests)
        self._busy_from = 0  # BUSY rises here after the last frame
        self.stuck_busy = False
        self.violations: list[str] = []
        self.resets = 0
        self.frames = 0
        self.commands = 0
        self.general_errors = 0
        self.air_us = 0  # time the transmitter or a tag was on the air
        self.unarmed_silences = 0  # exchanges nobody answered with TIMER1 not armed: no IRQ
        self.fail_next_send = False  # fault injection: the next SEND_DATA raises an exception
        self._rst_low_at = -1
        self._rx_end_at = -1  # when the last tag answer ended (t2 is counted from there)
        self._events: list[tuple[int, str]] = []
        self._power_on(self._now())
        busy.sim_drive(self._busy_level)
        rst.sim_on_change(self._on_rst)


    # ---- time and events
    def _now(self) -> int:
        return int(self.clock.ticks_us())

    def _at(self, t: float, name: str) -> None:
        self._events.append((int(t), name))
        self._events.sort()

    def _cancel(self, *names: str) -> None:
        self._events = [e for e in self._events if e[1] not in names]

    def _run(self) -> None:
        now = self._now()
        while self._events and self._events[0][0] <= now:
            t, name = self._events.pop(0)
            getattr(self, "_ev_" + name)(t)

    def _idle_wait(self) -> None:
        """On a real-time host, let time pass while the driver polls a chip that is busy."""
        if self.yield_us and self._events:
            wait = self._events[0][0] - self._now()
            if wait > 0:
                self.clock.sleep_us(min(wait, self.yield_us))

    def _power_on(self, now: int) -> None:
        self.regs: dict[int, int] = {}
        self._read_reply: bytes | None = None
        self._rx = b""
        self.rf_config = (0xFF, 0xFF)
        self.rf_on = False
        self._rf_error_cause = 0
        self._state = ST_IDLE
        self._busy_until = 0
        self._busy_from = 0
        self._timer_at = -1
        self._tx_active = False
        self._tx_corrupt = False
        self._pending_answers: list[bytes] = []
        self._events = []
        self.booted = False
        self.field.power(False)
        self._at(now + T_BOOT_US, "boot")

    def _ev_boot(self, t: int) -> None:
        self.booted = True
        self._irq(IRQ_IDLE)  # §11.2.2 / Table 141 note: IDLE_IRQ when ready

    def _irq(self, bits: int) -> None:
        self.regs[REG_IRQ_STATUS] = self.regs.get(REG_IRQ_STATUS, 0) | bits

    def _violate(self, msg: str) -> None:
        self.violations.append(msg)

    def _exception(self, msg: str) -> None:
        """§11.4.3.1: an instruction whose condition fails raises GENERAL_ERROR_IRQ."""
        self.general_errors += 1
        self._violate(msg)
        self._irq(IRQ_GENERAL_ERROR)

    # ---- pins
    def _busy_level(self) -> int:
        self._run()
        if self.stuck_busy:
            return 1
        if not self.booted:
            return 0  # pulled down during reset (§11.2.1.2), not driven before start-up
        now = self._now()
        if now < self._busy_from:
            return 0  # the frame ended but BUSY has not risen yet
        if now < self._busy_until:
            self._idle_wait()
            return 1
        return 0


    def _on_rst(self, pin, old, new) -> None:  # type: ignore[no-untyped-def]
        now = self._now()
        self._run()
        if old == 1 and new == 0:
            self._rst_low_at = now
            return
        if old == 0 and new == 1 and self._rst_low_at >= 0:
            low = now - self._rst_low_at
            self._rst_low_at = -1
            if low < T_RESET_MIN_US:
                self._violate("RESET_N low for %d us, under the 10 us of Table 129: ignored" % low)
                return
            self.resets += 1
            self._power_on(now)

    # ---- SPI
    def sim_transfer(self, tx: bytes) -> bytes:
        if self._cs.value():
            raise OSError("PN5180 SPI transfer with NSS high")
        self._run()
        now = self._now()
        if self._rst_low_at >= 0 or not self.booted:
            self._violate("SPI frame during reset or start-up (Table 141): lost")
            return b"\xff" * len(tx)
        if self.stuck_busy or now < self._busy_until:
            if now < self._busy_from:
                self._violate("SPI frame before BUSY rose after the last one (§11.4.1): lost")
            else:
                self._violate("SPI frame while BUSY was high (§11.4.1): lost")
            return b"\xff" * len(tx)
        self.frames += 1
        if self._read_reply is not None:
            reply = self._read_reply
            self._read_reply = None
            self._busy_from = now + self.busy_rise_us
            self._busy_until = self._busy_from + BUSY_DEFAULT_US * self.busy_scale
            return (reply + b"\xff" * len(tx))[: len(tx)]
        self.commands += 1
        self._command(tx)
        self._busy_from = self._now() + self.busy_rise_us
        self._busy_until = self._busy_from + BUSY_US.get(tx[0], BUSY_DEFAULT_US) * self.busy_scale
        return b"\xff" * len(tx)

    @staticmethod
    def _u32(b: bytes, at: int) -> int:
        return b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)

    def _command(self, tx: bytes) -> None:
        cmd = tx[0]
        if cmd in (0x00, 0x01, 0x02):
            if len(tx) != 6:
                self._exception("register write 0x%02x: %d bytes, needs 6" % (cmd, len(tx)))
                return
            self._write(cmd, tx[1], self._u32(tx, 2))
        elif cmd == 0x04:
            if len(tx) != 2:
                self._exception("READ_REGISTER: %d bytes, needs 2" % len(tx))
                return
            v = self._read(tx[1])
            self._read_reply = bytes((v & 0xFF, (v >> 8) & 0xFF, (v >> 16) & 0xFF, v >> 24))
        elif cmd == 0x07:
            if len(tx) != 3 or tx[1] + tx[2] > 255:
                self._exception("READ_EEPROM: bad address/length")
                return
            eeprom = EEPROM_VERSIONS + bytes(256)
            self._read_reply = eeprom[tx[1] : tx[1] + tx[2]]
        elif cmd == 0x0A:
            self._read_reply = self._rx
        elif cmd == 0x11:
            self.rf_config = (tx[1], tx[2])
            if self.rf_config == RF_CONFIG_15693:
                for reg, val in RF_CONFIG_15693_REGS.items():
                    self.regs[reg] = val
        elif cmd == 0x16:
            self._cmd_rf_on(tx[1] if len(tx) > 1 else 0)
        elif cmd == 0x17:
            self._cancel("rf_on")
            self.rf_on = False
            self.field.power(False)
            self._irq(IRQ_TX_RFOFF)
        elif cmd == 0x09:
            self._send_data(tx[1] if len(tx) > 1 else 0, tx[2:])
        else:
            self._exception("unknown host command 0x%02x" % cmd)

    def _read(self, reg: int) -> int:
        self._run()
        if reg == REG_RF_STATUS:
            v = self._state << RF_TRANSCEIVE_STATE_SHIFT
            v |= self._rf_error_cause << RF_ACTIVE_ERROR_CAUSE_SHIFT
            if self.rf_on:
                v |= RF_TX_RF_STATUS
            if self.field.external_field:
                v |= RF_DET_STATUS
            if self._tx_active:
                v |= RF_TX_ACTIVE
            if self._state == ST_RECEIVING:
                v |= RF_RX_ACTIVE
            return v
        v = self.regs.get(reg, 0)
        if reg == REG_IRQ_STATUS and not v & (IRQ_RX | IRQ_TIMER1 | IRQ_GENERAL_ERROR):
            self._idle_wait()
        return v

    def _write(self, cmd: int, reg: int, val: int) -> None:
        if reg in READ_ONLY:
            self._exception("write to read-only register 0x%02x" % reg)
            return
        if reg == REG_IRQ_CLEAR:
            self.regs[REG_IRQ_STATUS] = self.regs.get(REG_IRQ_STATUS, 0) & ~val
            return
        cur = self.regs.get(reg, 0)
        new = val if cmd == 0x00 else (cur | val) if cmd == 0x01 else (cur & val)
        new &= 0xFFFFFFFF
        if reg == REG_TX_CONFIG and self._tx_active and new != cur:
            self._violate("TX_CONFIG changed while the frame is on air (SEND_DATA note, p.28)")
            self._tx_corrupt = True
        self.regs[reg] = new
        if reg == REG_SYSTEM_CONFIG:
            self._system_config(cur, new)
        elif reg == REG_TIMER1_CONFIG and new & T1_START_NOW and new & T1_ENABLE:
            self._timer_start(self._now())

    def _system_config(self, old: int, new: int) -> None:
        cmd = new & SYSCFG_COMMAND_MASK
        if cmd == SYSCFG_IDLE:
            self._cancel("rx_start", "rx_sof", "rx_end", "timer")
            self._state = ST_IDLE
        elif cmd == SYSCFG_TRANSCEIVE and old & SYSCFG_COMMAND_MASK != SYSCFG_TRANSCEIVE:
            self._state = ST_WAIT_TRANSMIT  # initiator: Figure 37
        if new & SYSCFG_SOFT_RESET:
            self.resets += 1
            self._power_on(self._now())

    # ---- RF field
    def _cmd_rf_on(self, param: int) -> None:
        now = self._now()
        self._rf_error_cause = 0
        if param & 0x01:  # collision avoidance disabled
            self._at(now + 40, "rf_on")
        elif self.field.external_field:
            # §11.8.2: field detected during TIDT -> no field, RF_ACTIVE_ERROR (cause 1).
            self._at(now + T_IDT_US, "rf_refused")
        else:
            self._at(now + T_IDT_US, "rf_on")

    def _ev_rf_on(self, t: int) -> None:
        self.rf_on = True
        self.field.power(True)
        self._irq(IRQ_TX_RFON)

    def _ev_rf_refused(self, t: int) -> None:
        self._rf_error_cause = 1
        self._irq(IRQ_RF_ACTIVE_ERROR)

    # ---- transceive
    def _send_data(self, valid_bits: int, data: bytes) -> None:
        regs = self.regs
        if regs.get(REG_SYSTEM_CONFIG, 0) & SYSCFG_COMMAND_MASK != SYSCFG_TRANSCEIVE:
            self._exception("SEND_DATA without the Transceive command (Table 15 precondition)")
            return
        if self._tx_active:
            self._exception("SEND_DATA during an ongoing RF transmission (Table 15 condition)")
            return
        if self.fail_next_send:
            self.fail_next_send = False
            self._exception("SEND_DATA: injected fault")
            return
        if self._state != ST_WAIT_TRANSMIT:
            self._exception("SEND_DATA outside WaitTransmit (Table 15 condition)")
            return
        if len(data) > 260 or valid_bits > 7:
            self._exception("SEND_DATA: %d bytes / %d bits out of range" % (len(data), valid_bits))
            return
        now = self._now()
        self._tx_corrupt = False
        if self._rx_end_at >= 0 and now - self._rx_end_at < T2_US and self.rf_on:
            # The tags are not listening yet: the request or EOF is lost (the slot sequence
            # breaks), ISO/IEC 15693-3 §9.1.4.
            self._violate("frame %d us after a tag's answer, under t2 (309 us)"
                          % (now - self._rx_end_at))
            self._tx_corrupt = True
        txc = regs.get(REG_TX_CONFIG, 0)
        crc = regs.get(REG_CRC_TX_CONFIG, 0) & CRC_ENABLE
        if txc & TX_DATA_ENABLE:
            kind = "frame"
            n = len(data) + (2 if crc else 0)
            air = READER_SOF_US + n * READER_BYTE_US + READER_EOF_US
        elif not txc & TX_START_SYMBOL_MASK:
            kind = "eof"
            air = READER_EOF_US
        else:
            kind = "empty"
            air = READER_SOF_US + READER_EOF_US
        self._tx = (kind, bytes(data), bool(crc))
        self._tx_active = True
        self._state = ST_TRANSMITTING
        self._cancel("rx_start", "rx_sof", "rx_end", "timer")
        self.regs[REG_RX_STATUS] = 0
        self.air_us += int(air)
        self._at(now + air, "tx_end")

    def _ev_tx_end(self, t: int) -> None:
        self._tx_active = False
        self._irq(IRQ_TX)
        self._state = ST_WAIT_FOR_DATA
        kind, data, crc = self._tx
        answers: list[bytes] = []
        if not self.rf_on:
            pass  # no field: nobody hears anything
        elif self._tx_corrupt or kind == "empty" or self.rf_config != RF_CONFIG_15693:
            self.field.garbage()
        elif kind == "eof":
            answers = self.field.eof()
        elif crc:
            answers = self.field.request(data)
        else:
            self.field.garbage()  # tags reject a frame without its CRC
        self._pending_answers = answers
        cfg = self.regs.get(REG_TIMER1_CONFIG, 0)
        armed = cfg & T1_ENABLE and cfg & T1_START_ON_TX_ENDED and self.regs.get(REG_TIMER1_RELOAD)
        if armed:
            self._timer_start(t)
        elif not answers:
            self.unarmed_silences += 1  # nothing will ever end this exchange
        if answers:
            self._at(t + T1_US + self.field.late_answer_us, "rx_start")

    def _timer_start(self, t: int) -> None:
        cfg = self.regs.get(REG_TIMER1_CONFIG, 0)
        reload = self.regs.get(REG_TIMER1_RELOAD, 0) & T1_RELOAD_MASK
        self._cancel("timer")
        if reload == 0:
            return  # Table 86 reset value: a zero counter never expires
        freq = 6780000 >> ((cfg >> T1_PRESCALE_SHIFT) & 0x7) if cfg & T1_MODE_SEL else FC
        self._at(t + reload * 1000000 / freq, "timer")

    def _ev_timer(self, t: int) -> None:
        self._irq(IRQ_TIMER1)

    def _ev_rx_start(self, t: int) -> None:
        self._state = ST_RECEIVING
        answers = self._pending_answers
        n = len(answers[0]) * 8
        air = TAG_SOF_US + n * TAG_BIT_US + TAG_EOF_US
        self.air_us += int(air)
        self._at(t + TAG_SOF_US, "rx_sof")
        cfg = self.regs.get(REG_TIMER1_CONFIG, 0)
        if cfg & T1_STOP_ON_RX_STARTED:
            # Table 89: stopped once the first 4 bits are in.
            stop = t + TAG_SOF_US + 4 * TAG_BIT_US
            for et, name in self._events:
                if name == "timer" and et > stop:
                    self._cancel("timer")
                    break
        self._at(t + air, "rx_end")

    def _ev_rx_sof(self, t: int) -> None:
        if self._state == ST_RECEIVING:
            self._irq(IRQ_RX_SOF_DET)

    def _ev_rx_end(self, t: int) -> None:
        self._rx_end_at = t
        answers = self._pending_answers
        self._pending_answers = []
        status = 0
        strip = self.regs.get(REG_CRC_RX_CONFIG, 0) & CRC_ENABLE
        if self.field.external_field:
            data = answers[0]
            status |= RX_DATA_INTEGRITY_ERROR
        elif len(answers) == 1:
            data = answers[0][:-2] if strip else answers[0]
            noise = self.field.crc_error
            if noise and random is not None and random.random() < noise:
                status |= RX_DATA_INTEGRITY_ERROR  # noise hit one bit: the CRC fails
        elif (self.field.crc_only_collision and random is not None
              and random.random() < self.field.crc_only_collision):
            # The stronger answer dominates: no collision bit, only the failed CRC shows.
            data = answers[0][:-2] if strip else answers[0]
            status |= RX_DATA_INTEGRITY_ERROR
        else:
            pos = first_collision_bit(answers)
            data = answers[0][: pos // 8]
            status |= RX_COLLISION_DETECTED | RX_DATA_INTEGRITY_ERROR
            status |= (pos & 0x7F) << RX_COLL_POS_SHIFT
        self._rx = data
        self.regs[REG_RX_STATUS] = status | len(data)
        self._state = ST_WAIT_TRANSMIT  # Figure 37: reception done -> next transmit
        self._irq(IRQ_RX)
