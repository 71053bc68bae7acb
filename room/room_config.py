"""``pokertable room``: every room service of a venue from one ``room.toml``.

One file says where the broker is, which services run and with which logins; passwords
stay in files of their own (``password_file``, mode 0600), never on a command line or in
a unit file. ``--check`` validates it (pydantic, as ``table.toml``) and ends; ``--service
NAME`` runs one service, which is what the systemd template unit
``deploy/pokertable-room@.service`` starts, one instance per service (docs/room.md): the
clock, the floor console, the seating desk, the archive and one broadcast relay per
broadcast table (``[relay.<table>]``, service ``relay-<table>``).

A bad file is one line naming the field, exit 78 (configuration).
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

EX_CONFIG = 78
RELAY = "relay-"
NAME = r"^[A-Za-z0-9_-]{1,64}$"
AnyPath = Annotated[Path, Field(strict=False)]  # TOML has strings; numbers stay strict


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class BrokerSection(_Strict):
    host: str = "127.0.0.1"
    port: int = Field(default=1883, ge=1, le=65535)
    ws_url: str = Field(default="ws://127.0.0.1:9001", pattern=r"^wss?://")
    """The broker's WebSocket URL as the pages' browsers reach it."""


class LoginSection(_Strict):
    user: str = Field(min_length=1, max_length=128)
    password_file: AnyPath


class PagesSection(_Strict):
    http_port: int = Field(ge=0, le=65535)
    bind: str = "127.0.0.1"


class ClockSection(LoginSection, PagesSection):
    structure: AnyPath
    state_file: AnyPath | None = None
    rules: str = "tda-2024"
    export_dir: AnyPath | None = None
    # The prize pool and payouts the display and leaderboard show (docs/clock.md).
    buy_in: int = Field(default=0, ge=0)
    re_entry: int = Field(default=0, ge=0)
    add_on: int = Field(default=0, ge=0)
    rake_percent: float = Field(default=0.0, ge=0, le=100)
    guarantee: int = Field(default=0, ge=0)
    payouts: AnyPath | None = None
    """A payout table CSV; none: the built-in chart by entrants."""
    ha_discovery: str | None = Field(default=None, min_length=1, pattern=r"^[A-Za-z0-9_/-]+$")
    """Home Assistant's discovery prefix (usually "homeassistant"); none: no discovery."""


class FloorSection(PagesSection):
    pass


class SeatingSection(LoginSection):
    profile: str = "tda-2024"
    state_file: AnyPath | None = None
    """Confirmed moves and the move under way across restarts (default
    seating-<venue>.json in the unit's state directory)."""


class ArchiveSection(LoginSection):
    db: str = Field(min_length=1)
    key_file: AnyPath | None = None


class RelaySection(LoginSection, PagesSection):
    """``[relay.<table>]``: the broadcast relay and overlay page of one table."""

    delay_s: float = Field(default=1800.0, ge=0)
    delay_file: AnyPath | None = None
    """The held feed across restarts (default broadcast-<venue>-<table>.sqlite3 in the
    unit's state directory)."""
    layout: AnyPath | None = None


class RoomSection(_Strict):
    venue: str = Field(pattern=NAME)
    log_level: str = Field(default="info", pattern=r"^(debug|info|warning|error)$")


class RoomConfig(_Strict):
    room: RoomSection
    broker: BrokerSection = BrokerSection()
    clock: ClockSection | None = None
    floor: FloorSection | None = None
    seating: SeatingSection | None = None
    archive: ArchiveSection | None = None
    relay: dict[Annotated[str, Field(pattern=NAME)], RelaySection] = {}
    """One broadcast relay per broadcast table, keyed by the table's id."""

    def services(self) -> dict[str, BaseModel]:
        """Every service the file runs, by the name ``--service`` (and the unit) takes."""
        named: dict[str, BaseModel | None] = {
            "clock": self.clock, "floor": self.floor, "seating": self.seating,
            "archive": self.archive}
        named |= {f"{RELAY}{table}": section for table, section in self.relay.items()}
        return {name: section for name, section in named.items() if section is not None}


class RoomConfigError(ValueError):
    """A room.toml that cannot run; the message is one line naming the field."""


def load_room_config(path: Path) -> RoomConfig:
    """Parse and validate ``path``, then check what it points at (the structure, each
    password file, distinct page ports); RoomConfigError names the first problem."""
    try:
        raw = tomllib.loads(path.read_text("utf-8"))
        config = RoomConfig.model_validate(raw)
    except OSError as error:
        raise RoomConfigError(f"{path}: {error.strerror or error}") from None
    except tomllib.TOMLDecodeError as error:
        raise RoomConfigError(f"{path}: {error}") from None
    except ValidationError as error:
        first = error.errors()[0]
        field = ".".join(str(p) for p in first["loc"])
        raise RoomConfigError(f"{path}: {field}: {first['msg']}") from None
    ports: dict[int, str] = {}
    for name, section in config.services().items():
        field = _section_key(name)
        if isinstance(section, LoginSection):
            _password(section.password_file, f"{path}: {field}.password_file")
        if isinstance(section, PagesSection) and section.http_port:
            if section.http_port in ports:
                raise RoomConfigError(f"{path}: {field}.http_port: {section.http_port} is also "
                                      f"{ports[section.http_port]}'s")
            ports[section.http_port] = name
    for table, relay in config.relay.items():
        if relay.layout is not None:
            from pokertable.room.overlay_service import LayoutError, load_layout

            try:
                load_layout(relay.layout)
            except LayoutError as error:
                raise RoomConfigError(f"{path}: relay.{table}.layout: {error}") from None
    if config.clock is not None:
        from pokertable.room.clock import StructureError, parse_structure

        try:
            parse_structure(config.clock.structure.read_text("utf-8"))
        except OSError as error:
            raise RoomConfigError(f"{path}: clock.structure: {config.clock.structure}: "
                                  f"{error.strerror or error}") from None
        except StructureError as error:
            raise RoomConfigError(f"{path}: clock.structure: {config.clock.structure}: "
                                  f"{error}") from None
        if config.clock.payouts is not None:
            from pokertable.room.payouts import PayoutError, parse_chart

            try:
                parse_chart(config.clock.payouts.read_text("utf-8"))
            except OSError as error:
                raise RoomConfigError(f"{path}: clock.payouts: {config.clock.payouts}: "
                                      f"{error.strerror or error}") from None
            except PayoutError as error:
                raise RoomConfigError(f"{path}: clock.payouts: {config.clock.payouts}: "
                                      f"{error}") from None
    return config


def _section_key(service: str) -> str:
    """Where a service's section is in the file: ``relay-t07`` is ``relay.t07``."""
    if service.startswith(RELAY):
        return f"relay.{service.removeprefix(RELAY)}"
    return service


def _password(path: Path, where: str) -> str:
    """A password file's first line; readable by its owner only, never empty."""
    try:
        if path.stat().st_mode & 0o077:
            raise RoomConfigError(f"{where}: {path} is readable by others: chmod 600 it")
        password = path.read_text("utf-8").strip()
    except OSError as error:
        raise RoomConfigError(f"{where}: {path}: {error.strerror or error}") from None
    if not password:
        raise RoomConfigError(f"{where}: {path} is empty")
    return password


def _clock_argv(config: RoomConfig) -> tuple[list[str], dict[str, str]]:
    clock, broker = config.clock, config.broker
    assert clock is not None
    argv = ["--venue", config.room.venue, "--structure", str(clock.structure),
            "--broker", f"{broker.host}:{broker.port}", "--user", clock.user,
            "--ws-url", broker.ws_url, "--http-port", str(clock.http_port),
            "--bind", clock.bind, "--rules", clock.rules]
    if clock.state_file is not None:
        argv += ["--state-file", str(clock.state_file)]
    if clock.export_dir is not None:
        argv += ["--export-dir", str(clock.export_dir)]
    argv += ["--buy-in", str(clock.buy_in), "--re-entry", str(clock.re_entry),
             "--add-on", str(clock.add_on), "--rake-percent", repr(clock.rake_percent),
             "--guarantee", str(clock.guarantee)]
    if clock.payouts is not None:
        argv += ["--payouts", str(clock.payouts)]
    if clock.ha_discovery is not None:
        argv += ["--ha-discovery", clock.ha_discovery]
    return argv, {"POKERTABLE_CLOCK_PASSWORD": _password(clock.password_file, "clock")}


def _floor_argv(config: RoomConfig) -> tuple[list[str], dict[str, str]]:
    floor = config.floor
    assert floor is not None
    return ["--venue", config.room.venue, "--ws-url", config.broker.ws_url, "--http-port",
            str(floor.http_port), "--bind", floor.bind], {}


def _seating_argv(config: RoomConfig) -> tuple[list[str], dict[str, str]]:
    seating, broker = config.seating, config.broker
    assert seating is not None
    state = ["--state-file", str(seating.state_file)] if seating.state_file else []
    return (["--venue", config.room.venue, "--broker", f"{broker.host}:{broker.port}",
             "--user", seating.user, "--profile", seating.profile, *state],
            {"POKERTABLE_SEATING_PASSWORD": _password(seating.password_file, "seating")})


def _archive_argv(config: RoomConfig) -> tuple[list[str], dict[str, str]]:
    archive, broker = config.archive, config.broker
    assert archive is not None
    key = ["--key-file", str(archive.key_file)] if archive.key_file else []
    return (["run", "--venue", config.room.venue, "--db", archive.db, "--broker",
             f"{broker.host}:{broker.port}", "--user", archive.user, *key],
            {"POKERTABLE_ARCHIVE_PASSWORD": _password(archive.password_file, "archive")})


def _relay_argv(config: RoomConfig, table: str) -> tuple[list[str], dict[str, str]]:
    relay, broker = config.relay[table], config.broker
    argv = ["--venue", config.room.venue, "--table", table, "--broker",
            f"{broker.host}:{broker.port}", "--relay-user", relay.user, "--ws-url",
            broker.ws_url, "--http-port", str(relay.http_port), "--bind", relay.bind,
            "--delay", repr(relay.delay_s)]
    if relay.delay_file is not None:
        argv += ["--delay-file", str(relay.delay_file)]
    if relay.layout is not None:
        argv += ["--layout", str(relay.layout)]
    return argv, {"POKERTABLE_RELAY_PASSWORD": _password(relay.password_file, f"relay.{table}")}


Build = Callable[[RoomConfig], tuple[list[str], dict[str, str]]]
SERVICES: dict[str, tuple[str, Build]] = {
    "clock": ("pokertable.room.clock_service", _clock_argv),
    "floor": ("pokertable.room.floor_service", _floor_argv),
    "seating": ("pokertable.room.seating_service", _seating_argv),
    "archive": ("pokertable.room.archive_service", _archive_argv),
}
RELAY_MODULE = "pokertable.room.overlay_service"


def _service(name: str) -> tuple[str, Build]:
    """The module and the argument builder of service ``name`` (``relay-<table>`` too)."""
    if name.startswith(RELAY):
        table = name.removeprefix(RELAY)
        return RELAY_MODULE, lambda config: _relay_argv(config, table)
    return SERVICES[name]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = __doc__.split("\n\n")[0] if __doc__ else None
    parser.add_argument("--config", type=Path, required=True, help="the room.toml")
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--check", action="store_true",
                        help="validate the file and what it names, then exit")
    action.add_argument("--service", metavar="NAME",
                        help="run this service of the room (one systemd unit each): "
                        f"{', '.join(SERVICES)} or {RELAY}<table>")
    parser.add_argument("--log-level", choices=("debug", "info", "warning", "error"),
                        help="override room.log_level (logs go to stderr: journald)")


def run(args: argparse.Namespace) -> int:
    try:
        config = load_room_config(args.config)
    except RoomConfigError as error:
        print(f"pokertable room: {error}", file=sys.stderr)
        return EX_CONFIG
    if args.check:
        names = ", ".join(config.services()) or "no service"
        print(f"{args.config}: venue {config.room.venue}: {names}: ok")
        return 0
    section = config.services().get(args.service)
    if section is None:
        print(f"pokertable room: {args.config}: no [{_section_key(args.service)}] section",
              file=sys.stderr)
        return EX_CONFIG
    logging.basicConfig(level=(args.log_level or config.room.log_level).upper(),
                        format="%(levelname)s %(name)s: %(message)s")
    import importlib

    module_name, build = _service(args.service)
    argv, secrets = build(config)
    os.environ.update(secrets)  # read by the service at start; never on a command line
    module: Any = importlib.import_module(module_name)
    parser = argparse.ArgumentParser(prog=f"pokertable {args.service}")
    module.add_arguments(parser)
    result: int = module.run(parser.parse_args(argv))
    return result
