"""``table.toml``: one table's configuration, checked completely before anything starts.

An installer's typo must not surface at 2 a.m. in the middle of a level: every key is
validated up front (pydantic), unknown keys are refused, and each error names the key
path and the reason, e.g. ``mqtt.port: Input should be less than or equal to 65535``.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from pokertable.controller.model import AnteFormat, Level, Variant
from pokertable.controller.profiles import ProfileError, load_profile
from pokertable.controller.rules import RuleProfile


class ConfigError(ValueError):
    """The configuration cannot run a table; the message names the key and the reason."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class TableSection(_Strict):
    venue: str = Field(pattern=r"^[A-Za-z0-9_-]{1,64}$")
    id: str = Field(pattern=r"^[A-Za-z0-9_-]{1,64}$")
    seats: int = Field(default=10, ge=2, le=10)
    variant: Literal["NT", "PO", "FT"] = "NT"
    profile: str = "tda-2024"
    overrides: dict[str, str | int | float | bool] = Field(default_factory=dict)
    first_button: int | None = Field(default=None, ge=1, le=10)


class LevelSection(_Strict):
    number: int = Field(ge=1)
    small_blind: int = Field(ge=0)
    big_blind: int = Field(gt=0)
    ante: int = Field(default=0, ge=0)
    ante_format: Literal["none", "bb_ante", "per_player"] = "none"
    chip_unit: int = Field(default=1, gt=0)

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
        )


class PlayerSection(_Strict):
    seat: int = Field(ge=1, le=10)
    name: str = Field(min_length=1, max_length=64)
    stack: int = Field(gt=0)


class PathSection(_Strict):
    path: str


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
    gpio: GpioSection = GpioSection()
    mqtt: MqttSection | None = None

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
        return self

    def rules(self) -> RuleProfile:
        try:
            return load_profile(self.table.profile, self.table.overrides)
        except ProfileError as exc:
            key = "table.overrides" if "override" in str(exc) else "table.profile"
            raise ConfigError(f"{key}: {exc}") from exc

    def variant(self) -> Variant:
        return Variant(self.table.variant)


def parse_config(data: dict[str, object], base: Path | None = None) -> AppConfig:
    try:
        config = AppConfig.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        key = ".".join(str(p) for p in err["loc"]) or "(top level)"
        raise ConfigError(f"{key}: {err['msg']}") from None
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
        config = config.model_copy(update=updates)
    return config


def check_files(config: AppConfig) -> None:
    """Files the table needs to exist before it starts (not at parse time: an installer
    checks a config before it writes the secrets)."""
    if config.mqtt is not None:
        for key in ("password_file", "tls_ca"):
            path = getattr(config.mqtt, key)
            if path is not None and not Path(path).is_file():
                raise ConfigError(f"mqtt.{key}: {path} does not exist or is not a file")


def load_config(path: str | Path) -> AppConfig:
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from exc
    return parse_config(data, path.parent)
