"""A simulated MFRC522 (register file over SPI) with ISO 14443A cards in its field.

The fake decodes the MFRC522 SPI register protocol (address byte, read bit 0x80),
keeps a FIFO, and when the firmware starts a Transceive it runs the frame against
cards that follow the ISO 14443A state machine (IDLE/HALT -> READY -> ACTIVE) with
CRC_A checks, cascade levels for 7-byte UIDs, and real collisions when two answer.
"""


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


class SimCard:
    def __init__(self, uid: bytes, sak: int = 0x08) -> None:
        if len(uid) not in (4, 7):
            raise ValueError("uid: ISO 14443A UIDs here are 4 or 7 bytes, got %d" % len(uid))
        self.uid = bytes(uid)
        self.sak = sak
        self.state = "IDLE"

    def _cl(self, level: int) -> bytes:
        if len(self.uid) == 4:
            part = self.uid
        elif level == 1:
            part = bytes((0x88,)) + self.uid[:3]
        else:
            part = self.uid[3:7]
        return part + bytes((part[0] ^ part[1] ^ part[2] ^ part[3],))

    def answer(self, frame: bytes, bits: int) -> bytes | None:
        if bits == 7 and len(frame) == 1:
            if (frame[0] == 0x52 and self.state in ("IDLE", "HALT")) or (
                frame[0] == 0x26 and self.state == "IDLE"
            ):
                self.state = "READY1"
                return b"\x44\x00" if len(self.uid) == 7 else b"\x04\x00"
            return None
        if len(frame) >= 2 and frame[0] in (0x93, 0x95):
            level = 1 if frame[0] == 0x93 else 2
            if self.state != "READY%d" % level:
                return None
            if frame[1] == 0x20:
                return self._cl(level)
            if frame[1] == 0x70 and len(frame) == 9:
                if crc_a(frame[:7]) != frame[7] | (frame[8] << 8) or frame[2:7] != self._cl(level):
                    return None
                if len(self.uid) == 7 and level == 1:
                    self.state = "READY2"
                    return with_crc(b"\x04")
                self.state = "ACTIVE"
                return with_crc(bytes((self.sak,)))
        if len(frame) == 4 and frame[0] == 0x50 and crc_a(frame[:2]) == frame[2] | (frame[3] << 8):
            self.state = "HALT"
        return None


class FakeMfrc522:
    def __init__(self, cs, rst) -> None:  # type: ignore[no-untyped-def]
        self._cs = cs
        self.cards: list[SimCard] = []
        self.regs: dict[int, int] = {0x37: 0x92}
        self.fifo: list[int] = []
        self.antenna_on = False
        self.frames = 0
        rst.sim_on_change(self._on_rst)

    def _on_rst(self, pin, old, new) -> None:  # type: ignore[no-untyped-def]
        if new == 0:
            self.regs = {0x37: 0x92}
            self.fifo = []
            for c in self.cards:
                c.state = "IDLE"  # field dropped: cards lose power

    def sim_transfer(self, tx: bytes) -> bytes:
        if self._cs.value():
            raise OSError("MFRC522 SPI transfer with NSS high")
        self.frames += 1
        rx = bytearray(len(tx))
        if tx[0] & 0x80:  # read: every address byte returns the previous one's value
            for i in range(len(tx) - 1):
                rx[i + 1] = self._read((tx[i] >> 1) & 0x3F)
        else:
            reg = (tx[0] >> 1) & 0x3F
            for v in tx[1:]:
                self._write(reg, v)
        return bytes(rx)

    def _read(self, reg: int) -> int:
        if reg == 0x09:
            return self.fifo.pop(0) if self.fifo else 0
        if reg == 0x0A:
            return len(self.fifo)
        return self.regs.get(reg, 0)

    def _write(self, reg: int, v: int) -> None:
        if reg == 0x09:
            self.fifo.append(v)
        elif reg == 0x0A:
            if v & 0x80:
                self.fifo = []
        elif reg == 0x04:  # ComIrqReg: bit7 set -> set marked bits, else clear them
            cur = self.regs.get(0x04, 0)
            self.regs[0x04] = (cur | (v & 0x7F)) if v & 0x80 else (cur & ~v & 0x7F)
        elif reg == 0x14:
            self.regs[reg] = v
            self.antenna_on = (v & 0x03) == 0x03
        elif reg == 0x0D:
            self.regs[reg] = v & 0x7F
            if v & 0x80 and self.regs.get(0x01, 0) == 0x0C:
                self._transceive(v & 0x07)
        else:
            self.regs[reg] = v

    def _transceive(self, bits: int) -> None:
        frame = bytes(self.fifo)
        self.fifo = []
        answers = []
        if self.antenna_on:
            for c in self.cards:
                a = c.answer(frame, bits)
                if a is not None:
                    answers.append(a)
        err = 0
        if not answers:
            irq = 0x01  # timer: nobody answered
        else:
            irq = 0x30
            self.fifo = list(answers[0])
            if len(answers) > 1 and any(a != answers[0] for a in answers):
                err = 0x08
        self.regs[0x06] = err
        self.regs[0x04] = self.regs.get(0x04, 0) | irq
