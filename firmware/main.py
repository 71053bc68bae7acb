"""Reader node entry point on the board (RP2040 Pico or ESP32).

Copied to the board with the other firmware files (see docs/wiring.md); MicroPython
runs main.py at boot. It reads node_config.json, the board's pin map from
boards/<board>.json, builds the real SPI/pins/UART and runs the same `Node` loop the
simulated node runs on the host.

The config is checked against the board at boot: a zone on an antenna channel the
board's RF switch cannot reach, or a reader that does not answer, is a fault the node
reports in its BIRTH (and on this console) while it runs everything else; it is never
a reason to restart. It never drops to the REPL on its own: a hardware watchdog
(machine.WDT, 2 s) resets a hung node, and an exception while building or running the
node (an unreadable config, a driver bug) is printed and the node rebuilt after a pause,
with the watchdog fed meanwhile. Only Ctrl-C on the USB console stops it (a technician's REPL).
"""

import json

from machine import SPI, UART, Pin

import node_config
from antenna_mux import AntennaMux
from clock import SystemClock, ticks_add, ticks_diff
from link import Rs485Link, SerialLink
from node import Node
from reader_errors import ReaderError
from zone_scanner import ZoneScanner

try:
    from typing import Any
except ImportError:  # MicroPython: annotations are never evaluated
    pass

CONFIG_PATH = "node_config.json"
WDT_TIMEOUT_MS = 2000  # longest step: a reader reset (~0.1 s) or a 384-byte burst (33 ms)
RETRY_MS = 1000


def load_board(name: str, base: str = "") -> dict:
    """The pin map boards/<name>.json (relative to the board's root directory)."""
    with open("%sboards/%s.json" % (base, name)) as f:
        return dict(json.load(f))


def build(cfg: dict, board: dict, wdt: Any = None) -> Node:
    clock = SystemClock()
    s = board["spi"]
    spi = SPI(
        s["id"],
        baudrate=s["baudrate"],
        polarity=0,
        phase=0,
        sck=Pin(s["sck"]),
        mosi=Pin(s["mosi"]),
        miso=Pin(s["miso"]),
    )
    reader_fault = None
    if cfg["reader"] == "pn5180":
        from iso15693 import Iso15693Reader
        from pn5180 import Pn5180

        p = board["pn5180"]
        chip = Pn5180(
            spi, Pin(p["cs"], Pin.OUT), Pin(p["busy"], Pin.IN), Pin(p["rst"], Pin.OUT), clock
        )

        def start_pn5180() -> None:
            chip.reset()
            chip.versions()  # all-ones / all-zeros: the reader is not wired

        reader = Iso15693Reader(chip)
        recover = start_pn5180
        reader_type = "PN5180"
    else:
        from mfrc522 import Mfrc522

        m = board["mfrc522"]
        rfid = Mfrc522(spi, Pin(m["cs"], Pin.OUT), Pin(m["rst"], Pin.OUT), clock)
        reader = rfid  # type: ignore[assignment]
        recover = rfid.init
        reader_type = "MFRC522"
    try:
        recover()
    except ReaderError as e:
        reader_fault = "reader %s: %s" % (reader_type, e)  # reported in BIRTH, retried
    enable = board.get("mux_enable")
    mux = AntennaMux(
        [Pin(n, Pin.OUT) for n in board["mux_select"]],
        Pin(enable, Pin.OUT) if enable is not None else None,
    )
    scanner = ZoneScanner(
        reader,
        mux,
        node_config.zone_list(cfg),
        clock,
        cfg["present_after"],
        cfg["absent_after"],
        cfg["settle_ms"],
        bet_settle_ms=cfg["bet_settle_ms"],
    )
    u = board["uart"]
    uart = UART(u["id"], baudrate=cfg["baudrate"], tx=Pin(u["tx"]), rx=Pin(u["rx"]), timeout=0)
    if cfg["transport"] == "rs485":
        link: SerialLink = Rs485Link(uart, cfg["node_id"], Pin(board["rs485_de"], Pin.OUT, value=0))
    else:
        link = SerialLink(uart, cfg["node_id"])
    return Node(
        link, scanner, clock, cfg, reader_type, recover=recover, wdt=wdt, reader_fault=reader_fault
    )


def start_watchdog() -> Any:
    """machine.WDT when the port has one (every board we ship does), else None."""
    try:
        from machine import WDT

        return WDT(timeout=WDT_TIMEOUT_MS)
    except (ImportError, ValueError, OSError):
        return None


def _pause(wdt: Any, ms: int) -> None:
    """Wait ms while keeping the watchdog fed."""
    clock = SystemClock()
    end = ticks_add(clock.ticks_ms(), ms)
    while ticks_diff(end, clock.ticks_ms()) > 0:
        if wdt is not None:
            wdt.feed()
        clock.sleep_us(50000)


def main(attempts: int = -1) -> None:
    """Build and run the node; on any error print it, pause and build again.

    `attempts` bounds the rebuilds (tests); the board runs forever.
    """
    wdt = start_watchdog()
    while attempts != 0:
        attempts -= 1
        try:
            cfg = node_config.load(CONFIG_PATH)
            node = build(cfg, load_board(cfg["board"]), wdt)
            node.boot()
            while True:
                node.step()
        except KeyboardInterrupt:
            raise
        except Exception as e:
            print("node: %s: %s; restarting in %d ms" % (type(e).__name__, e, RETRY_MS))
            _pause(wdt, RETRY_MS)


if __name__ == "__main__":
    main()
