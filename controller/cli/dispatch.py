"""The ``pokertable`` command: the composition root that wires packages together.

Each subcommand lives in the module that owns it; that module exposes
``add_arguments(parser)`` and ``run(args) -> int``. Modules are imported lazily so that
``pokertable replay`` never pays for MQTT or serial imports.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import sys
import typing
from collections.abc import Sequence

from pokertable.controller.extras import MissingExtra

DISTRIBUTION = "pokertable-controller"

# subcommand -> (module, one-line help)
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "replay": (
        "pokertable.controller.history.replay",
        "replay PHH files through the engine and print the outcome",
    ),
    "export": (
        "pokertable.controller.app.journal_export",
        "export a table's journal: one PHH hand history per completed hand",
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
    "readers": (
        "pokertable.hardware.readers",
        "live diagnostic of the reader nodes: heartbeat, scan rate, errors, tags per antenna",
    ),
    "rules": (
        "pokertable.controller.cli.rules",
        "show a rule profile's parameters or diff two profiles",
    ),
    "init": (
        "pokertable.controller.cli.init",
        "write a table.toml for this machine after a few questions",
    ),
    "run": (
        "pokertable.controller.app.runtime",
        "run the table: readers, rules engine and MQTT (starts at boot)",
    ),
    "archive": (
        "pokertable.room.archive_service",
        "the room's hand-history archive: every hand as PHH (SQLite/PostgreSQL), for replay; "
        "exports for trackers (PokerStars text, OHH)",
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
    "seating": (
        "pokertable.room.seating_service",
        "the seating desk: balancing, breaking, late entries and chip races for the floor",
    ),
    "room": (
        "pokertable.room.room_config",
        "every room service of a venue from one room.toml: --check it, --service NAME runs one",
    ),
    "journal": (
        "pokertable.controller.app.journal",
        "verify a table's journal record by record, or repair it keeping a backup",
    ),
    "demo": (
        "pokertable.controller.demo.main",
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


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a usage error is one line that says where the help is."""

    def error(self, message: str) -> typing.NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def version() -> str:
    """The installed distribution's version (importlib.metadata), without importing it."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed_version

    try:
        return installed_version(DISTRIBUTION)
    except PackageNotFoundError:
        return "unknown (not installed; pip install -e . in the checkout)"


class _VersionAction(argparse.Action):
    """``--version``: the version is looked up only when asked for (importlib.metadata and
    the email package it loads were a fifth of every command's start-up)."""

    def __init__(self, option_strings: Sequence[str], dest: str, help: str | None = None
                 ) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        print(f"{parser.prog} {version()}")  # stdout, as argparse's own "version" action
        parser.exit()


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser; only ``command``'s module is imported (all of them when None).

    Importing every subcommand's module cost every call, ``--help`` included, the
    imports of the heaviest one (MQTT, pydantic, rich): start-up is measured in bench/.
    """
    parser = OneLineParser(
        prog="pokertable",
        description="The smart poker table controller: RFID readers, a TDA rules engine, MQTT.",
    )
    parser.add_argument(
        "--version", action=_VersionAction, help="print the installed version and exit"
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for name, (module, help_text) in _available().items():
        sub_parser = sub.add_parser(name, help=help_text, description=help_text)
        if command is None or name == command:
            mod = importlib.import_module(module)
            mod.add_arguments(sub_parser)
            sub_parser.set_defaults(_module=mod)
    return parser


def _command_in(argv: Sequence[str]) -> str:
    """The subcommand named in ``argv`` ("" when none: the top-level help or an error)."""
    for arg in argv:
        if not arg.startswith("-"):
            return arg
    return ""


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(_command_in(args_list))
    args = parser.parse_args(args_list)
    try:
        result: int = args._module.run(args)
    except KeyboardInterrupt:
        return 130
    except MissingExtra as missing:  # an optional dependency: which extra brings it
        print(f"pokertable {args.command}: {missing}", file=sys.stderr)
        return 69  # EX_UNAVAILABLE
    except Exception as exc:  # the last line of defence: one line, no traceback
        if os.environ.get("POKERTABLE_TRACEBACK"):
            raise
        where = f"pokertable {args.command}"
        print(
            f"{where}: {type(exc).__name__}: {exc} (a bug: please report it; "
            "POKERTABLE_TRACEBACK=1 shows the traceback)",
            file=sys.stderr,
        )
        return 70  # EX_SOFTWARE
    return result


if __name__ == "__main__":
    sys.exit(main())
