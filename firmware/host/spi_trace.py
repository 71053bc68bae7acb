"""SPI traces: record a reader's bus traffic, replay it as a simulated chip (regression).

A trace is the list of SPI frames of a session (NSS low .. NSS high), each with what the
host sent (MOSI) and what the chip answered (MISO), as JSON lines::

    {"t_us": 1234, "mosi": "0402", "miso": "ffff"}

On real hardware the trace comes from a logic analyser on NSS/SCK/MOSI/MISO (4 channels,
>= 8x the SPI clock), exported as CSV and decoded by `from_logic_csv` (SPI mode 0, the
PN5180's only mode, datasheet §11.4.1); docs/hardware-test-plan.md (H10) says how to take
one. In the simulator `TraceRecorder` wraps a fake chip and writes the same format.

`TraceReplay` stands in for the chip: it answers each frame with the recorded MISO as
long as the driver sends exactly the recorded MOSI, and records the first divergence.
Replaying a trace from a real chip therefore checks that a driver change still speaks to
that chip byte for byte, and that it reads the same tags from the same answers.
"""

import json


class TraceRecorder:
    """A transparent SPI device wrapper that keeps every frame."""

    def __init__(self, device, clock=None) -> None:  # type: ignore[no-untyped-def]
        self.device = device
        self.clock = clock
        self.frames: list[dict] = []

    def sim_transfer(self, tx: bytes) -> bytes:
        rx = self.device.sim_transfer(tx)
        t = int(self.clock.ticks_us()) if self.clock is not None else len(self.frames)
        self.frames.append({"t_us": t, "mosi": bytes(tx).hex(), "miso": bytes(rx).hex()})
        return rx

    def dumps(self) -> str:
        return "".join(json.dumps(f) + "\n" for f in self.frames)


def loads(text: str) -> list[dict]:
    """Frames from JSON lines; a bad line raises ValueError naming it."""
    frames = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            f = json.loads(line)
            bytes.fromhex(f["mosi"])
            bytes.fromhex(f["miso"])
        except (ValueError, KeyError, TypeError):
            raise ValueError("trace line %d: not a {t_us, mosi, miso} frame" % n) from None
        frames.append(f)
    return frames


class TraceReplay:
    """A chip that only knows the recorded session; BUSY stays low (the trace is ordered)."""

    def __init__(self, frames: list[dict], cs) -> None:  # type: ignore[no-untyped-def]
        self.frames = frames
        self._cs = cs
        self.pos = 0
        self.divergence = ""  # first frame the driver sent differently

    def sim_transfer(self, tx: bytes) -> bytes:
        if self._cs.value():
            raise OSError("SPI transfer with NSS high")
        tx = bytes(tx)
        if self.divergence or self.pos >= len(self.frames):
            if not self.divergence:
                self.divergence = "frame %d: %s after the end of the trace" % (self.pos, tx.hex())
            return b"\xff" * len(tx)
        f = self.frames[self.pos]
        if tx.hex() != f["mosi"]:
            self.divergence = "frame %d: sent %s, recorded %s" % (self.pos, tx.hex(), f["mosi"])
            return b"\xff" * len(tx)
        self.pos += 1
        return bytes.fromhex(f["miso"])

    @property
    def complete(self) -> bool:
        return not self.divergence and self.pos == len(self.frames)


def from_logic_csv(text: str, nss: str = "NSS", sck: str = "SCK", mosi: str = "MOSI",
                   miso: str = "MISO") -> list[dict]:
    """Decode a logic-analyser CSV (time column first, one column per channel, 0/1 samples)
    into frames: SPI mode 0 (CPOL 0, CPHA 0), MSB first, bits sampled on SCK rising edges
    while NSS is low. Headers name the channels (sigrok/PulseView and Saleae both export
    this shape)."""
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.startswith(";")]
    head = [h.strip() for h in lines[0].split(",")]
    try:
        i_nss, i_sck, i_mosi, i_miso = (head.index(c) for c in (nss, sck, mosi, miso))
    except ValueError:
        raise ValueError("logic CSV: needs columns %s, %s, %s, %s; has %r"
                         % (nss, sck, mosi, miso, head)) from None
    frames: list[dict] = []
    bits_o: list[int] = []
    bits_i: list[int] = []
    prev_sck = 0
    prev_nss = 1
    t_start = 0.0
    for line in lines[1:]:
        cols = [c.strip() for c in line.split(",")]
        t = float(cols[0])
        v_nss, v_sck = int(cols[i_nss]), int(cols[i_sck])
        if prev_nss == 1 and v_nss == 0:
            bits_o, bits_i, t_start = [], [], t
        if v_nss == 0 and prev_sck == 0 and v_sck == 1:
            bits_o.append(int(cols[i_mosi]))
            bits_i.append(int(cols[i_miso]))
        if prev_nss == 0 and v_nss == 1 and bits_o:
            frames.append({"t_us": int(t_start * 1e6), "mosi": _bytes(bits_o).hex(),
                           "miso": _bytes(bits_i).hex()})
        prev_sck, prev_nss = v_sck, v_nss
    return frames


def _bytes(bits: list[int]) -> bytes:
    out = bytearray(len(bits) // 8)
    for i in range(len(out)):
        v = 0
        for b in bits[8 * i : 8 * i + 8]:
            v = (v << 1) | b
        out[i] = v
    return bytes(out)
