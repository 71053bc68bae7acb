"""The ``pokertable`` command: the composition root that wires packages together.

Each subcommand lives in the module that owns it; that module exposes
``add_arguments(parser)`` and ``run(args) -> int``. Modules are imported lazily so that
``pokertable replay`` never pays for MQTT or serial imports.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
from collections.abc import Sequence

# subcommand -> (module, one-line help)
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "replay": (
        "pokertable.controller.replay",
        "replay PHH files through the engine and print the outcome",
    ),
    "bench": (
        "pokertable.bench.runner",
        "run the benchmarks and print our figures beside the peers'",
    ),
    "watch": (
        "pokertable.mqtt.watch",
        "live terminal view of one table or the whole room from MQTT",
    ),
    "enroll": (
        "pokertable.hardware.enroll",
        "enroll chips or a deck into the tag registry",
    ),
    "rules": (
        "pokertable.controller.rules_cli",
        "show a rule profile's parameters or diff two profiles",
    ),
    "run": (
        "pokertable.controller.run",
        "run the table: readers, rules engine and MQTT (starts at boot)",
    ),
    "overlay": (
        "pokertable.room.overlay_service",
        "broadcast relay (delayed feed, equities) and the overlay page for OBS/vMix",
    ),
    "floor": (
        "pokertable.room.floor_service",
        "the floor console: a web page that answers floor calls and runs the tables",
    ),
    "clock": (
        "pokertable.room.clock_service",
        "the tournament clock: levels and breaks to every table, the big clock display",
    ),
    "journal": (
        "pokertable.controller.journal",
        "verify a table's journal record by record, or repair it keeping a backup",
    ),
    "demo": (
        "pokertable.controller.demo",
        "a whole simulated table with bot players, no hardware needed",
    ),
}


def _available() -> dict[str, tuple[str, str]]:
    """Subcommands whose module is present in this build."""
    found = {}
    for name, (module, help_text) in SUBCOMMANDS.items():
        if importlib.util.find_spec(module) is not None:
            found[name] = (module, help_text)
    return found


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pokertable",
        description="The smart poker table controller: RFID readers, a TDA rules engine, MQTT.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for name, (module, help_text) in _available().items():
        mod = importlib.import_module(module)
        sub_parser = sub.add_parser(name, help=help_text, description=help_text)
        mod.add_arguments(sub_parser)
        sub_parser.set_defaults(_module=mod)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    result: int = args._module.run(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
