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

    # TDA 2024 R47-A: re-opened when what he faces since his action >= the last full increment
    CUMULATIVE = "cumulative"
    # House option: only a full raise made after his action re-opens
    SINGLE_ONLY = "single_only"
    # TDA 2011 R37: the cumulative case is not covered, so the floor decides it
    FLOOR_ON_CUMULATIVE = "floor_on_cumulative"


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
        "verbal_chips": "40A",
        "declaration_forms": "40B",
        "amount_only": "40C",
        "calling_methods": "41",
        "raising_methods": "42",
        "overchip": "44",
        "multichip_call": "45A",
        "multichip_fifty": "45B1",
        "multichip_all_in": "45B2",
        "prior_chips_verbalize": "46A",
        "prior_chips_pulled": "46B",
        "prior_chips": "46C",
        "accepted_action": "49",
        "wait_for_amount": "50B",
        "general_declaration": "51A",
        "undercall_sequence": "51C",
        "underbet": "52A",
        "pl_miscount": "52B",
        "pot_count": "54A",
        "nl_pot_declaration": "54D",
        "raise_is_min_bet": "55B",
        "string_bet": "56",
        "unclear_betting": "57",
        "conditional": "59A",
        "premature_call": "59B",
        "overbet_change": "61",
        "non_value_items": "RP-22",
        "chips_behind": "62",
        "floor_discretion": "1",
        "foreign_chip": "64",
        # --- irregularities citations (issue 4): add entries below this line ---
        "reader_fault": "1",  # no rule covers a reader fault: Rule 1, the floor decides
        "misdeal_boxed": "35A1",
        "misdeal_first_card": "35A2",
        "misdeal_not_entitled": "35A3",
        "misdeal_dealt_out": "35A4",
        "misdeal_card_count": "35A5",
        "misdeal_exposed": "35A7",
        "button_consecutive": "35B",
        "redeal": "35C",
        "no_misdeal_after_sa": "35D",
        "button_short": "37",
        "one_burn": "38",
        "four_card_flop": "39A",
        "flop_no_burn": "39B",
        "stub_reshuffle": "39D",
        "premature_cards": "RP-5",
        "skipped_player": "53B",
        "level_change": "23",
        "button_placement": "34A",
        "rabbit_hunting": "28",
        "muck_kills": "14",
        "see_hand_lost": "18A",
        "see_hand": "18B",
        "fouled_identifiable": "65B",
        "penalty_hand": "71C",
        "leave_table": "31",
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
    motion_window_ms: int = 800  # R56: chips settling within this window are one motion
    raise_threshold: float = 0.5  # R43-A: a raise of >= 50% of the last full raise completes
    exact_threshold_option: bool = False  # R43-A: exactly 50% raises (ACE: call option)
    tiny_chip_fraction: float = 0.05  # R41: undercall below this share of the call is "tiny"
    ambiguous_amount_highest: bool = True  # R57: highest amount <= pot (T11 R44: the lesser)
    undercall_mandatory: bool = True  # R51-B: heads-up / opening-bet undercalls are full calls
    # --- irregularities parameters (issue 4): add fields below this line ---
    sa_check_fold_counts: bool = False  # R36 main clause; True = its "(i.e. ...)" reading (A1)
    misdeal_on_card_count: bool = True  # R35-A5 (Clubs NZ: not listed, the floor decides)
    misdeal_on_nonstandard_card: bool = True  # R35-A6 (before SA; after SA "scraps of paper")
    misdeal_boxed_cards: int = 2  # R35-A1: this many boxed cards on the initial deal
    redeal_absent_players_play: bool = True  # R35-C: away at the original deal, plays the re-deal
    button_short_replace: bool = True  # R37: missing button cards replaced (if the game permits)

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
