"""Loading rule profiles from the TOML rulebooks shipped in ``controller/rules/rulebooks/``.

A profile names a base (``based_on``) and lists only what differs, each value with the
rulebook passage it comes from. A table config names a profile and may override single
parameters; unknown names and bad values are refused with the key and what is allowed.

>>> profile = load_profile("clubs-nz-2022")
>>> profile.bba_short_order.value, profile.cite("min_raise")
('ante_first', 'NZ2022-43A')
>>> try:
...     load_profile("tda-2024", {"bba_short_odrer": "ante_first"})
... except ProfileError as exc:
...     print(exc)
tda-2024 override: unknown parameter 'bba_short_odrer' (did you mean 'bba_short_order'?)
"""

from __future__ import annotations

import difflib
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, fields
from importlib import resources
from types import MappingProxyType
from typing import Any

from pydantic import TypeAdapter, ValidationError

from pokertable.controller.errors import ControllerError
from pokertable.controller.rules import READER_MS, TDA_2024_CITATIONS, RuleProfile

DEFAULT_PROFILE = "tda-2024"
# Fields that describe the profile itself rather than a rule.
_IDENTITY = {"name", "citation_prefix", "citations"}


class ProfileError(ControllerError, ValueError):
    """A profile or an override the table cannot run with; the message names the key."""


@dataclass(frozen=True, slots=True)
class LoadedProfile:
    profile: RuleProfile
    title: str
    sources: Mapping[str, str]  # parameter -> where its value comes from


def parameter_names() -> tuple[str, ...]:
    return tuple(f.name for f in fields(RuleProfile) if f.name not in _IDENTITY)


def available_profiles() -> tuple[str, ...]:
    folder = resources.files("pokertable.controller.rules") / "rulebooks"
    return tuple(
        sorted(p.name.removesuffix(".toml") for p in folder.iterdir() if p.name.endswith(".toml"))
    )


def _read(name: str) -> dict[str, Any]:
    if name not in available_profiles():
        raise ProfileError(
            f"unknown profile {name!r}; available: {', '.join(available_profiles())}"
        )
    rulebook = resources.files("pokertable.controller.rules") / "rulebooks" / f"{name}.toml"
    text = rulebook.read_text("utf-8")
    return tomllib.loads(text)


def _check_names(where: str, names: Mapping[str, object]) -> None:
    known = parameter_names()
    for key in names:
        if key not in known:
            close = difflib.get_close_matches(key, known, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else f"; known: {', '.join(known)}"
            raise ProfileError(f"{where}: unknown parameter {key!r}{hint}")


def load(
    name: str = DEFAULT_PROFILE,
    overrides: Mapping[str, object] | None = None,
) -> LoadedProfile:
    """Resolve ``based_on`` chains, apply overrides, validate every value."""
    chain: list[dict[str, Any]] = []
    seen: set[str] = set()
    current: str | None = name
    while current is not None:
        if current in seen:
            raise ProfileError(f"{name}: 'based_on' loops through {current!r}")
        seen.add(current)
        data = _read(current)
        chain.append(data)
        current = data.get("profile", {}).get("based_on")
    values: dict[str, object] = {}
    sources: dict[str, str] = {}
    citations: dict[str, str] = dict(TDA_2024_CITATIONS)
    for data in reversed(chain):
        profile_name = data["profile"]["name"]
        params = data.get("parameters", {})
        _check_names(f"{profile_name}.toml [parameters]", params)
        _check_names(f"{profile_name}.toml [sources]", data.get("sources", {}))
        values.update(params)
        for key in params:
            sources[key] = f"{profile_name}: {data.get('sources', {}).get(key, '')}".rstrip(": ")
        for key, text in data.get("sources", {}).items():
            if key not in params:
                sources[key] = f"{profile_name}: {text}"
        unknown = set(data.get("citations", {})) - set(TDA_2024_CITATIONS)
        if unknown:
            raise ProfileError(
                f"{profile_name}.toml [citations]: unknown concept(s) {sorted(unknown)}"
            )
        citations.update(data.get("citations", {}))
    if overrides:
        _check_names(f"{name} override", overrides)
        values.update(overrides)
        for key in overrides:
            sources[key] = "table override"
    head = chain[0]["profile"]
    try:
        profile = TypeAdapter(RuleProfile).validate_python(
            {
                **values,
                "name": name,
                "citation_prefix": head["citation_prefix"],
                "citations": MappingProxyType(citations),
            }
        )
    except ValidationError as exc:
        err = exc.errors()[0]
        key = ".".join(str(p) for p in err["loc"])
        raise ProfileError(
            f"{name}: parameter {key!r}: {err['msg']} (got {err.get('input')!r})"
        ) from None
    for key in _SECONDS:
        value = getattr(profile, key)
        if value is not None and value < 0:
            raise ProfileError(
                f"{name}: parameter {key!r}: Input should be greater than or "
                f"equal to 0 (got {value!r})"
            )
    low, high = READER_MS
    if not low <= profile.motion_window_ms <= high:
        raise ProfileError(
            f"{name}: parameter 'motion_window_ms': a reader-timing window is {low} to "
            f"{high} ms (got {profile.motion_window_ms!r})"
        )
    return LoadedProfile(profile, str(head.get("title", name)), MappingProxyType(sources))


_SECONDS = tuple(f.name for f in fields(RuleProfile) if "Seconds" in str(f.type))
"""The durations of a profile (``Seconds``): never negative."""


def load_profile(
    name: str = DEFAULT_PROFILE, overrides: Mapping[str, object] | None = None
) -> RuleProfile:
    return load(name, overrides).profile


def effective_parameters(profile: RuleProfile) -> dict[str, object]:
    """Parameter -> plain value (enums as their strings), for printing and diffs."""
    out: dict[str, object] = {}
    for key in parameter_names():
        value = getattr(profile, key)
        out[key] = getattr(value, "value", value)
    return out


def diff(a: RuleProfile, b: RuleProfile) -> dict[str, tuple[object, object]]:
    pa, pb = effective_parameters(a), effective_parameters(b)
    out = {k: (pa[k], pb[k]) for k in pa if pa[k] != pb[k]}
    for concept in sorted(set(a.citations) | set(b.citations)):
        if not a.citations.get(concept) and not b.citations.get(concept):
            continue
        ra, rb = a.rule_id(concept), b.rule_id(concept)
        if ra.split("-", 1)[-1] != rb.split("-", 1)[-1]:
            out[f"rule:{concept}"] = (ra, rb)
    return out
