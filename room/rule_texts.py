"""The rule text the floor console shows beside a rule id, from the shipped rulebooks.

Every profile in ``controller/rules/rulebooks`` quotes, for each parameter, the passage of its
rulebook the value comes from (``[sources]``, e.g. ``R29: 'A player on the clock has up to
25 seconds plus a 5 second countdown to act'``). A floor call cites rule ids such as
``TDA2024-29`` or ``TDA2011-24``: the console shows the passages of that rulebook that
quote that rule, and the concepts the profile cites it for. A rule no parameter quotes
shows its title (``[titles]`` of the rulebook, TDA 2024 numbering) and concepts only; the
full text stays in the rulebook.

>>> texts = rule_texts()
>>> texts["TDA2024-29"]["passages"][0][:60]
"R29: 'A player on the clock has up to 25 seconds plus a 5 se"
>>> texts["TDA2011-24"]["concepts"]
['clock']
>>> shown = lookup(texts, "TDA2024-71C")
>>> shown["title"], shown["concepts"]
(['Warnings, Penalties, and Disqualification'], ['penalty_hand'])
>>> shown["passages"]
['R71: missed hands = players at the table x rounds']
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from importlib import resources
from typing import Any

_QUOTES = re.compile(r"^(?:[A-Z]+ )?(RP-\d+|R\d+)")
"""The rule a passage quotes: ``R29``, ``RP-8-B`` (as RP-8), ``ACE R54`` (as R54)."""


def _number(rule: str) -> str:
    """``R29`` -> ``29``; ``RP-8`` stays."""
    return rule[1:] if rule.startswith("R") and not rule.startswith("RP") else rule


def rule_texts() -> dict[str, dict[str, list[str]]]:
    """Rule id (``<prefix>-<number>``) -> the concepts cited by it and the passages quoted."""
    from pokertable.controller.rules.profiles import available_profiles, load

    texts: dict[str, dict[str, list[str]]] = {}

    def entry(rule_id: str) -> dict[str, list[str]]:
        return texts.setdefault(rule_id, {"title": [], "concepts": [], "passages": []})

    for name in available_profiles():
        loaded = load(name)
        prefix = loaded.profile.citation_prefix
        for concept, number in sorted(loaded.profile.citations.items()):
            if number:
                entry(f"{prefix}-{number}")["concepts"].append(concept)
        rulebook = resources.files("pokertable.controller.rules") / "rulebooks" / f"{name}.toml"
        for number, title in tomllib.loads(rulebook.read_text("utf-8")).get("titles", {}).items():
            entry(f"{prefix}-{number}")["title"] = [str(title)]
        own = f"{name}: "
        for source in loaded.sources.values():
            if not source.startswith(own):
                continue  # inherited from the base rulebook: its numbers, not this one's
            passage = source.removeprefix(own)
            quoted = _QUOTES.match(passage)
            if quoted:
                entry(f"{prefix}-{_number(quoted.group(1))}")["passages"].append(passage)
    return texts


_RULE_ID = re.compile(r"^([A-Za-z0-9]+-(?:RP-)?\d+)")


def lookup(texts: Mapping[str, Any], rule_id: str) -> dict[str, list[str]]:
    """What to show for ``rule_id``: its own entry and its rule's (``71C`` adds ``71``).
    The floor page does the same in ``floor.js``."""
    found: dict[str, list[str]] = {"title": [], "concepts": [], "passages": []}
    base = _RULE_ID.match(rule_id)
    for key in dict.fromkeys([rule_id, base.group(1) if base else rule_id]):
        for part in ("title", "concepts", "passages"):
            found[part] += [x for x in texts.get(key, {}).get(part, []) if x not in found[part]]
    return found
