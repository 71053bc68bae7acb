"""Rule profiles: the named parameters that make one rulebook differ from another.

Rules are data. The engine reads a ``RuleProfile`` and never branches on the name of a
ruleset; TDA 2024 is the default and other editions are the same dataclass with other
values (loaded from TOML profiles in the profiles issue). Every ruling cites rules via
``profile.cite(concept)`` so that a TDA 2011 table cites TDA 2011 rule numbers.

>>> TDA_2024.cite("reopen")
'TDA2024-47A'
>>> TDA_2024.cite("reopen", "min_raise")
('TDA2024-47A', 'TDA2024-43A')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import overload


class BbaShortOrder(StrEnum):
    """How a big-blind-ante poster who cannot cover both splits his chips (RP-11, rules-spec A4)."""

    BIG_BLIND_FIRST = "big_blind_first"  # TDA 2024 RP-11: blind first, remainder to the ante
    ANTE_FIRST = "ante_first"  # Clubs NZ 2022 RP-11: ante first, remainder to the blind


class ShortBlindCallTo(StrEnum):
    """What the others must call when the big blind is short all-in (rules-spec A5)."""

    FULL_LEVEL_BLIND = "full_level_blind"  # common floor practice: the level's big blind
    POSTED_AMOUNT = "posted_amount"  # only what the short blind actually posted


class PotLimitPreflopBlinds(StrEnum):
    """Which missing blinds R54-B tells a pot-limit count to treat as fully posted."""

    DEAD_OR_SHORT = "dead_or_short"  # TDA 2024 R54-B
    SHORT_ONLY = "short_only"  # Clubs NZ 2022 R54-B, probably TDA 2022
    ACTUAL = "actual"  # no assumption: count the chips that are there


class ReopenRule(StrEnum):
    """How short all-ins re-open the betting to players who already acted (R47)."""

    CUMULATIVE = (
        "cumulative"  # TDA 2024 R47-A: re-opened when the total faced >= last full increment
    )
    SINGLE_ONLY = (
        "single_only"  # TDA 2011 R37: only one full raise re-opens; cumulative is undefined
    )


# Concept -> rule number under TDA 2024. Other editions override entries (issue: profiles).
TDA_2024_CITATIONS: Mapping[str, str] = MappingProxyType(
    {
        "rules": "",
        "odd_chip": "20A",
        "side_pots": "21",
        "dead_button": "32",
        "heads_up": "34B",
        "new_player_deal_in": "8A",
        "at_seat": "30",
        "substantial_action": "36",
        "all_in_face_up": "16",
        "show_order": "17A",
        "uncontested": "17B",
        "tabling": "13A",
        "in_turn_binding": "50A",
        "acting_in_turn": "53A",
        "min_raise": "43A",
        "raise_total": "43B",
        "reopen": "47A",
        "reopen_limit": "47B",
        "raise_cap": "48",
        "call_undercall": "51B",
        "check_facing_bet": "55C",
        "call_is_check": "55A",
        "fouled_deck": "35E",
        "nonstandard_card": "35A6",
        "pot_limit": "54",
        "pot_limit_preflop": "54B",
        "nonstandard_fold": "58",
        "antes": "RP-11",
        "fouled_hand": "65A",
        "uncalled_bet": "65A",
        # --- interpretation citations (issue 3): add entries below this line ---
        # --- irregularities citations (issue 4): add entries below this line ---
    }
)


@dataclass(frozen=True, slots=True, kw_only=True)
class RuleProfile:
    """One rulebook's parameters: keyword-only, TDA 2024 defaults, so a diff shows the deltas."""

    name: str = "tda-2024"
    citation_prefix: str = "TDA2024"
    citations: Mapping[str, str] = field(default_factory=lambda: TDA_2024_CITATIONS)
    bba_short_order: BbaShortOrder = BbaShortOrder.BIG_BLIND_FIRST
    short_blind_call_to: ShortBlindCallTo = ShortBlindCallTo.FULL_LEVEL_BLIND
    pot_limit_preflop_blinds: PotLimitPreflopBlinds = PotLimitPreflopBlinds.DEAD_OR_SHORT
    reopen: ReopenRule = ReopenRule.CUMULATIVE
    limit_reopen_fraction: float = 0.5  # R47-B: a short all-in of >= 50% of a bet re-opens in limit
    limit_max_bets_per_street: int | None = 4  # R48 house cap: voluntary bets+raises per street
    limit_cap_heads_up: bool = True  # R48: the cap applies heads-up until the event is down to 2
    # --- interpretation parameters (issue 3): add fields below this line ---
    # --- irregularities parameters (issue 4): add fields below this line ---

    def rule_id(self, concept: str) -> str:
        """The rule id of a concept, e.g. ``TDA2024-47A`` (an unknown concept is a bug)."""
        number = self.citations[concept]
        return f"{self.citation_prefix}-{number}" if number else self.citation_prefix

    @overload
    def cite(self, concept: str, /) -> str: ...
    @overload
    def cite(self, concept: str, second: str, /, *more: str) -> tuple[str, ...]: ...
    def cite(self, *concepts: str) -> str | tuple[str, ...]:
        ids = tuple(self.rule_id(c) for c in concepts)
        return ids[0] if len(ids) == 1 else ids


TDA_2024 = RuleProfile()
