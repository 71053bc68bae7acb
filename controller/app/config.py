"""``table.toml``: one table's configuration, checked completely before anything starts.

An installer's typo must not surface at 2 a.m. in the middle of a level: every key is
validated up front (pydantic), unknown keys are refused with a "did you mean", and every
error in the file is reported at once, one line each, naming the key path and the reason,
e.g. ``mqtt.port: Input should be less than or equal to 65535``. :func:`check_environment`
adds what only this machine can answer (files, the GPIO backend, the console's pins), so
``pokertable run --check`` sees every error ``run`` would meet.
"""

from __future__ import annotations

import difflib
import importlib.util
import re
import tomllib
import types
import typing
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from pokertable.controller.engine.model import AnteFormat, Level, Variant, dealt_game, game_named
from pokertable.controller.errors import ControllerError
from pokertable.controller.rules import READER_MS, RuleProfile
from pokertable.controller.rules.profiles import ProfileError, load_profile


class ConfigError(ControllerError, ValueError):
    """The configuration cannot run a table; one line per problem, naming key and reason."""

    def __init__(self, problems: str | Sequence[str]) -> None:
        self.problems: tuple[str, ...] = (
            (problems,) if isinstance(problems, str) else tuple(problems)
        )
        super().__init__("\n".join(self.problems))


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class TableSection(_Strict):
    venue: str = Field(pattern=r"^[A-Za-z0-9_-]{1,64}$")
    id: str = Field(pattern=r"^[A-Za-z0-9_-]{1,64}$")
    seats: int = Field(default=10, ge=2, le=10)
    variant: Literal[
        "NT", "PO", "FT", "FO/8", "PO/8", "F7S", "F7S/8", "FR", "F2L3D", "N2L1D", "FB"
    ] = "NT"
    profile: str = "tda-2024"
    overrides: dict[str, str | int | float | bool] = Field(default_factory=dict)
    first_button: int | None = Field(default=None, ge=1, le=10)

    @model_validator(mode="after")
    def _not_a_room_topic(self) -> TableSection:
        from pokertable.mqtt.topics import check_name

        check_name("table", self.id)  # clock, leaderboard, seating are the room's topics
        return self


class LevelSection(_Strict):
    number: int = Field(ge=1)
    small_blind: int = Field(ge=0)
    big_blind: int = Field(gt=0)
    ante: int = Field(default=0, ge=0)
    ante_format: Literal["none", "bb_ante", "per_player"] = "none"
    chip_unit: int = Field(default=1, gt=0)
    bring_in: int = Field(default=0, ge=0)  # stud games: the bring-in (RP-10-E)
    game: str | None = None  # mixed games: the level's game as a PHH code (None: table.variant)

    _known_game = field_validator("game")(dealt_game)

    def to_level(self) -> Level:
        fmt = {
            "none": AnteFormat.NONE,
            "bb_ante": AnteFormat.BIG_BLIND_ANTE,
            "per_player": AnteFormat.PER_PLAYER,
        }[self.ante_format]
        return Level(
            number=self.number,
            small_blind=self.small_blind,
            big_blind=self.big_blind,
            ante=self.ante,
            ante_format=fmt,
            chip_unit=self.chip_unit,
            bring_in=self.bring_in,
            game=None if self.game is None else game_named(self.game, "game"),
        )


class PlayerSection(_Strict):
    seat: int = Field(ge=1, le=10)
    name: str = Field(min_length=1, max_length=64)
    stack: int = Field(gt=0)


class PathSection(_Strict):
    path: str


class SealingSection(_Strict):
    # Hole cards sealed at rest in the journal and the outbox (controller/sealing.py);
    # no [sealing] section: they are stored in clear (``pokertable run`` warns at start).
    key_file: str


class ReaderSection(_Strict):
    port: str  # a device path or any pyserial URL (loop://, a pty path)
    transport: Literal["uart", "rs485"] = "uart"
    baudrate: int = Field(default=115_200, gt=0)
    addresses: list[int] = Field(default_factory=list)  # rs485: node addresses to poll

    @model_validator(mode="after")
    def _addresses(self) -> ReaderSection:
        if self.transport == "rs485" and not self.addresses:
            raise ValueError("rs485 readers need 'addresses' (the node ids to poll)")
        if any(not 1 <= a <= 247 for a in self.addresses):
            raise ValueError("addresses: node ids are 1 to 247")
        return self


class ReadingSection(_Strict):
    """How long the table waits on its readers: a longer window tolerates slower readers
    (more nodes on a bus, more antennas per node), a shorter one tells the dealer sooner.
    A key left out keeps ``SessionConfig``'s default (1500 and 1000 ms), its one owner."""

    # R35-A2, R38: the reads of one deal in any order within this many ms of the first
    card_read_window_ms: int | None = Field(default=None, ge=READER_MS[0], le=READER_MS[1])
    # RP-5: a street card read before the last call's chips waits this long for them
    chip_report_lag_ms: int | None = Field(default=None, ge=READER_MS[0], le=READER_MS[1])


class GpioSection(_Strict):
    backend: Literal["auto", "rpi", "fake", "none"] = "none"
    pins: dict[str, int] = Field(default_factory=dict)


class MqttSection(_Strict):
    host: str = "127.0.0.1"
    port: int = Field(default=1883, ge=1, le=65535)
    username: str | None = None
    password_file: str | None = None
    tls_ca: str | None = None
    secure_delay_s: float = Field(default=0.0, ge=0)
    outbox: str = "outbox.sqlite3"
    session: str | None = None  # default: the table id and the journal's creation


class AppConfig(_Strict):
    table: TableSection
    levels: list[LevelSection] = Field(min_length=1)
    players: list[PlayerSection] = Field(default_factory=list)
    registry: PathSection = PathSection(path="registry.sqlite3")
    journal: PathSection = PathSection(path="journal.jsonl")
    readers: list[ReaderSection] = Field(default_factory=list)
    reading: ReadingSection = ReadingSection()
    gpio: GpioSection = GpioSection()
    mqtt: MqttSection | None = None
    sealing: SealingSection | None = None

    @property
    def seal_key_file(self) -> str | None:
        return None if self.sealing is None else self.sealing.key_file

    @model_validator(mode="after")
    def _consistent(self) -> AppConfig:
        seats = [p.seat for p in self.players]
        if len(seats) != len(set(seats)):
            raise ValueError("players: two players in one seat")
        if any(s > self.table.seats for s in seats):
            raise ValueError(f"players: a seat number is above table.seats={self.table.seats}")
        numbers = [lv.number for lv in self.levels]
        if numbers != sorted(set(numbers)):
            raise ValueError("levels: numbers must be increasing")
        for lv in self.levels:
            game = lv.game or self.table.variant
            if game in ("F7S", "F7S/8", "FR") and lv.bring_in <= 0:
                raise ValueError(f"levels: level {lv.number} deals {game}: it needs a bring_in")
        return self

    def rules(self) -> RuleProfile:
        try:
            return load_profile(self.table.profile, self.table.overrides)
        except ProfileError as exc:
            key = "table.overrides" if "override" in str(exc) else "table.profile"
            named = re.search(r"parameter '(\w+)'", str(exc))
            if named is not None and named[1] in self.table.overrides:
                key = f"table.overrides.{named[1]}"  # the table's value, not the profile's
            raise ConfigError(f"{key}: {exc}") from exc

    def variant(self) -> Variant:
        return Variant(self.table.variant)


def parse_config(data: dict[str, object], base: Path | None = None) -> AppConfig:
    """Validate a parsed table.toml; every problem in it is in the one ConfigError."""
    try:
        config = AppConfig.model_validate(data)
    except ValidationError as exc:
        raise ConfigError([_describe(err) for err in exc.errors()]) from None
    config.rules()  # unknown profiles and bad overrides fail now, not at the first hand
    if base is not None:
        # Relative paths are relative to the config file, as installers expect.
        def rel(path: str) -> str:
            return path if Path(path).is_absolute() else str(base / path)

        updates: dict[str, object] = {
            "registry": PathSection(path=rel(config.registry.path)),
            "journal": PathSection(path=rel(config.journal.path)),
        }
        if config.mqtt is not None:
            mq = config.mqtt
            updates["mqtt"] = mq.model_copy(
                update={
                    "outbox": rel(mq.outbox),
                    "password_file": rel(mq.password_file) if mq.password_file else None,
                    "tls_ca": rel(mq.tls_ca) if mq.tls_ca else None,
                }
            )
        if config.sealing is not None:
            updates["sealing"] = SealingSection(key_file=rel(config.sealing.key_file))
        config = config.model_copy(update=updates)
    return config


def _describe(err: Any) -> str:
    """One pydantic error as ``key.path: reason``, with a "did you mean" for unknown keys."""
    loc = tuple(err["loc"])
    key = ".".join(str(p) for p in loc) or "(top level)"
    message = str(err["msg"]).removeprefix("Value error, ")
    if err["type"] == "extra_forbidden" and loc:
        known = _known_keys(loc[:-1])
        close = difflib.get_close_matches(str(loc[-1]), known, n=1, cutoff=0.6)
        message = "unknown key" + (f"; did you mean {close[0]!r}?" if close else "")
        if known:
            message += f" (known: {', '.join(known)})"
    return f"{key}: {message}"


def _known_keys(loc: tuple[object, ...]) -> list[str]:
    """The keys the section at ``loc`` accepts (walking the models, lists and optionals)."""
    model: Any = AppConfig
    for part in loc:
        if isinstance(part, int):
            continue  # an item of a list: the same model
        field = model.model_fields.get(part)
        if field is None:
            return []
        model = _model_in(field.annotation)
        if model is None:
            return []
    return list(model.model_fields)


def _model_in(annotation: Any) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    origin = typing.get_origin(annotation)
    if origin in (list, typing.Union, types.UnionType):
        for arg in typing.get_args(annotation):
            found = _model_in(arg)
            if found is not None:
                return found
    return None


def check_files(config: AppConfig) -> None:
    """Files the table needs to exist before it starts (not at parse time: an installer
    checks a config before it writes the secrets)."""
    problems = _file_problems(config)
    if problems:
        raise ConfigError(problems)


def _file_problems(config: AppConfig) -> list[str]:
    problems = []
    if config.mqtt is not None:
        for key in ("password_file", "tls_ca"):
            path = getattr(config.mqtt, key)
            if path is not None and not Path(path).is_file():
                problems.append(f"mqtt.{key}: {path} does not exist or is not a file")
    if config.sealing is not None:
        from pokertable.controller.sealing import Sealer, SealError

        try:
            Sealer.from_file(config.sealing.key_file)
        except SealError as exc:
            problems.append(str(exc))
    return problems


def check_environment(config: AppConfig, *, model_path: Path | None = None) -> None:
    """Everything ``run`` would refuse on this machine, checked before it starts: missing
    secrets, a GPIO backend this machine cannot give, a console pin map that cannot work."""
    problems = _file_problems(config) + gpio_problems(config.gpio, model_path=model_path)
    if problems:
        raise ConfigError(problems)


def gpio_problems(gpio: GpioSection, *, model_path: Path | None = None) -> list[str]:
    """The ``[gpio]`` section against this machine: backend available, pin map usable."""
    problems: list[str] = []
    if gpio.backend == "none":
        return problems
    from pokertable.hardware.console import ConsoleError, ConsolePinMap
    from pokertable.hardware.gpio import DEVICE_TREE_MODEL, running_on_pi

    try:
        ConsolePinMap.from_config(gpio.pins)
    except ConsoleError as exc:
        problems.append(str(exc))
    on_pi = running_on_pi(model_path or DEVICE_TREE_MODEL)
    if gpio.backend == "auto" and on_pi is None:
        problems.append(
            'gpio.backend: "auto" needs a Raspberry Pi and this is not one; '
            'use "fake" to run without a dealer console, or "none"'
        )
    elif gpio.backend in ("auto", "rpi") and importlib.util.find_spec("RPi") is None:
        problems.append(
            f'gpio.backend: "{gpio.backend}" needs RPi.GPIO: '
            "pip install 'pokertable-controller[pi]' (it brings rpi-lgpio) in a venv that "
            "sees Pi OS's python3-lgpio (docs/packaging.md, GPIO)"
        )
    return problems


def file_problems(path: str | Path, *, model_path: Path | None = None) -> list[str]:
    """Every problem in one table.toml, one line each: what ``run --check`` prints.

    When the file does not validate, its ``[gpio]`` section is still checked against this
    machine, so one pass shows a typo and a pin clash together."""
    try:
        config = load_config(path)
    except ConfigError as exc:
        problems = list(exc.problems)
        raw = _raw_gpio(Path(path))
        if raw is not None:
            problems += gpio_problems(raw, model_path=model_path)
        return problems
    try:
        check_environment(config, model_path=model_path)
    except ConfigError as exc:
        return list(exc.problems)
    return []


def _raw_gpio(path: Path) -> GpioSection | None:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        return GpioSection.model_validate(data.get("gpio", {}))
    except (OSError, tomllib.TOMLDecodeError, ValidationError, AttributeError):
        return None


def load_config(path: str | Path) -> AppConfig:
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from exc
    return parse_config(data, path.parent)
