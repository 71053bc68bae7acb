"""Rule profiles: the named parameters that make one rulebook differ from another.

Rules are data. The engine reads a ``RuleProfile`` and never branches on the name of a
ruleset; TDA 2024 is the default and other editions are the same dataclass with other
values, loaded from the TOML rulebooks in ``controller/rules/rulebooks/`` (``profiles.py``).
Every row of the ruleset-difference tables (docs/profiles.md) is a parameter here, with an
enum of its allowed values where it is not a number or a switch; docs/profiles.md gives
each one's meaning and value per edition. Every ruling cites rules via
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
from typing import overload

from pokertable.controller.rules.citations import TDA_2024_CITATIONS

Seconds = int
"""A duration in whole seconds; ``profiles.load`` refuses a negative one, naming it. (Not
``Annotated[int, Ge(0)]``: annotated_types and typing_extensions were a tenth of every
replay's start-up, for one bound.)"""

READER_MS = (200, 10_000)
"""The bounds of a reader-timing window (ms) an installer may tune: the profile's chip
``motion_window_ms`` and table.toml's ``[reading]`` windows. Below 200 ms the readers' own
scan and poll cycle splits one deal or one motion; above 10 s the dealer is told too late."""


class BbaShortOrder(StrEnum):
    """How a big-blind-ante poster who cannot cover both splits his chips (RP-11, open
    question A4)."""

    BIG_BLIND_FIRST = "big_blind_first"  # TDA 2024 RP-11: blind first, remainder to the ante
    ANTE_FIRST = "ante_first"  # Clubs NZ 2022 RP-11: ante first, remainder to the blind


class ShortBlindCallTo(StrEnum):
    """What the others must call when the big blind is short all-in (open question A5)."""

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


# --- profile enums (issue 8): one per ruleset-difference row (docs/profiles.md) ---


class OfficialLanguage(StrEnum):
    """R6 (T11 R2): which language players may use during a hand."""

    HOUSE_POSTED = "house_posted"  # TDA 2024 R6: the house posts and announces them
    ENGLISH_US_LOCAL_ABROAD = "english_us_local_abroad"  # TDA 2011 R2
    ENGLISH_ONLY = "english_only"  # Clubs NZ R6, ACE R6


class ClockExpiry(StrEnum):
    """R29 (T11 R24): what happens to a player NOT facing a bet when the clock runs out."""

    CHECK = "check"  # TDA 2024 R29: not facing a bet -> checked (facing a bet -> dead)
    DEAD_HAND = "dead_hand"  # TDA 2011 R24: "the hand is dead" in every case


class ClockCallers(StrEnum):
    """Who may call for a clock (R29, R30 / T11 R26)."""

    SEATED_PLAYER = "seated_player"  # TDA: any player, who must be at his seat
    HAND_PLAYER_OR_STAFF = "hand_player_or_staff"  # ACE R29: in the hand, dealer, director


class LevelStart(StrEnum):
    """R23 (T11 R19): what starts a new level, which applies from the next hand."""

    ANNOUNCEMENT_OR_SIGNAL = "announcement_or_signal"  # TDA 2024 R23: floor or clock audio
    STAFF_ANNOUNCEMENT = "staff_announcement"  # TDA 2011 R19 (and TDA 2022: 2024 phrase absent)
    CLOCK_ZERO = "clock_zero"  # Clubs NZ R23: announcement after the clock reaches zero
    DEALER_CALL = "dealer_call"  # ACE R23: the dealer's "blinds up" binds (next/current hand)


class DisputeWindows(StrEnum):
    """R22 (T11 R18): until when a hand's result may be disputed."""

    READING_ACCOUNTING_BREAK = "reading_accounting_break"  # TDA 2024 R22: three windows
    NEW_HAND = "new_hand"  # TDA 2011 R18: ends when a new hand begins
    CARDS_PICKED_UP = "cards_picked_up"  # ACE R22: before the dealer picks up the cards


class ButtonMode(StrEnum):
    """R32: how the button moves when a blind seat empties."""

    DEAD_BUTTON = "dead_button"  # TDA 2024 R32, TDA 2011 R28
    NO_DEAD_BUTTON = "no_dead_button"  # Clubs NZ R32: replacement method not stated (A3)
    DEALER_CHOICE = "dealer_choice"  # ACE R32: dead button or left on the last active player


class BlindDodging(StrEnum):
    """R33 (T11 R29): which blind dodging is penalised."""

    ANY_BLIND = "any_blind"  # TDA 2024 R33
    BROKEN_TABLE_ONLY = "broken_table_only"  # TDA 2011 R29: when moving from a broken table
    BLIND_POSTED_WHEN_ABSENT = "blind_posted_when_absent"  # ACE R33: cannot dodge, blind posted


class BreakingMethod(StrEnum):
    """R10 (T11 R7): how players from a broken table get their seats."""

    RANDOM_TWO_STEP = "random_two_step"  # TDA 2024 R10-B + Add. 10
    ASSUME_POSITION = "assume_position"  # TDA 2011 R7: no method; they take the seat's rights
    TD_ASSIGNED_CARD_DRAW = "td_assigned_card_draw"  # Clubs NZ R10 + Add. 10
    PACE_PLACEMENT = "pace_placement"  # ACE R10: placed to limit the impact on the pace


class BalanceHalt(StrEnum):
    """R11-D (T11 R8-A): when play halts on a short table."""

    BY_ELIMINATION_BLINDS_IMPACTED = "by_elimination_blinds_impacted"  # TDA 2024 R11-D
    THREE_SHORT = "three_short"  # TDA 2011 R8-A, Clubs NZ R11-D: 3 short is enough


class BalanceSelect(StrEnum):
    """R11-A (T11 R8-A): which player moves to balance tables."""

    NEXT_BIG_BLIND = "next_big_blind"  # TDA R11-A: the player due to be big blind next
    COUNT_BACK_FROM_BUTTON = "count_back_from_button"  # ACE R11


class LateEntryStack(StrEnum):
    """R8 : the stack of a late entrant."""

    FULL = "full"  # TDA 2024 R8-A
    REDUCED_FOR_MISSED_BLINDS = "reduced_for_missed_blinds"  # ACE R8 (formula unstated, A30)


class FinalTableSize(StrEnum):
    """RP-9 (T11 R9): how many players make the final table."""

    RP9_NINE_OR_SEVEN = "rp9_nine_or_seven"  # TDA 2024 RP-9: 9/8-handed -> 9, 7/6-handed -> 7
    TDA2011_TEN_FLOP = "tda2011_ten_flop"  # TDA 2011 R9: flop 10, six-handed 7, stud 9, 7-h 8


class FouledDeckRule(StrEnum):
    """R35-E: what makes a deck fouled."""

    DUPLICATE_CARD = "duplicate_card"  # TDA 2024 R35-E: 2+ cards of the same rank and suit
    HOUSE_POLICY = "house_policy"  # Clubs NZ R35-E (and TDA 2011, no rule): the floor decides


class FlopIrregularity(StrEnum):
    """R39 (T11 R33): which irregular flops have a prescribed fix."""

    TDA_2024 = "tda_2024"  # R39-A 4-card flop, R39-B no burn, R39-D reshuffle
    FOUR_CARD_ONLY = "four_card_only"  # TDA 2011 R33, Clubs NZ R39: anything else to the floor
    DIRECTOR_DISCRETION = "director_discretion"  # ACE R39: "common sense", director decides


class PrematureCards(StrEnum):
    """RP-5: how prematurely dealt board cards are replaced."""

    RESHUFFLE_NO_BURN = "reshuffle_no_burn"  # TDA 2024 RP-5 A-D
    SET_ASIDE_NZ = "set_aside_nz"  # Clubs NZ RP-5 B/C/D: premature turn set aside, extra burn
    FLOOR = "floor"  # TDA 2011: no procedure, Rule 1


class PresenceRule(StrEnum):
    """R30 (T11 R26): when a player must be at his seat to have a live hand."""

    LAST_CARD_OF_DEAL = "last_card_of_deal"  # TDA 2024 R30; TDA 2011 R26 same moment
    DEALER_DISCRETION = "dealer_discretion"  # ACE R30: dealer may wait for a returning player


class DeclarationPrecedence(StrEnum):
    """R40-A (T11 R34): words and chips disagree."""

    FIRST_DEFINES = "first_defines"  # TDA 2024 R40-A: whichever came first; else clear verbal
    VERBAL_BINDING = "verbal_binding"  # TDA 2011 R34 (no precedence rule), ACE R3


class StringBetRule(StrEnum):
    """R56 (T11 R43): who calls string bets and what follows."""

    NOT_ALLOWED = "not_allowed"  # TDA 2024 R56: not allowed; consequence to the TD (A15)
    DEALER_CALLS = "dealer_calls"  # TDA 2011 R43, Clubs NZ R56: dealers call them
    WARNING_FOR_BORDERLINE = "warning_for_borderline"  # ACE R56


class FiftyBasis(StrEnum):
    """What "50%" in the raise standard is measured against (R43-A; T11 R37, A31)."""

    LAST_INCREMENT = "last_increment"  # TDA 2024 R43-A: the last full bet/raise increment
    PREVIOUS_BET = "previous_bet"  # TDA 2011 R37 literally: "50% ... of the previous bet"
    FLOOR = "floor"  # the readings differ -> the TD chooses (TDA11-39-D2)


class MinReraise(StrEnum):
    """The minimum re-raise (R43-A; Clubs NZ R48, A29)."""

    LAST_INCREMENT = "last_increment"  # TDA R43-A: call + the largest full increment
    DOUBLE_PREVIOUS_BET = "double_previous_bet"  # Clubs NZ R48: at least twice the bet faced


class MultichipRule(StrEnum):
    """R45 (T11 R39): which silent multi-chip pushes the "one chip less" test covers."""

    ANY_DENOMINATIONS = "any_denominations"  # TDA 2024 R45
    SAME_DENOMINATION_ONLY = "same_denomination_only"  # TDA 2011 R39: mixed -> 50% (R37)


class PriorChipsOrder(StrEnum):
    """Add. 46 situations (R46-C): the order and qualifiers of the prior-chip situations."""

    TDA_2024 = "tda_2024"  # qualifiers "don't cover the call AND", "whether or not ..."
    NZ_2022 = "nz_2022"  # Clubs NZ Add. 46: Sit 2 cover, Sit 3 fully pulled, Sit 4 partly


class NlPotDeclaration(StrEnum):
    """R54-D (T11 R42): "I bet the pot" in no-limit."""

    BINDS_VALID_BET = "binds_valid_bet"  # TDA 2024 R54-D, TDA 2011 R42: binds to a bet
    NOT_A_BET = "not_a_bet"  # ACE R54: not legal; the player must declare an amount


class ConditionalRule(StrEnum):
    """R59 (T11 R46): conditional and premature declarations."""

    CONDITIONAL_AND_PREMATURE = "conditional_and_premature"  # TDA 2024 R59-A and B
    CONDITIONAL_ONLY = "conditional_only"  # TDA 2011 R46: no premature-call clause


class OverbetChange(StrEnum):
    """R61: pushing more than the call expecting change."""

    RAISE_UNLESS_CALL_DECLARED = "raise_unless_call_declared"  # TDA 2024 R61 with R40-A
    RAISE_EVEN_IF_CALL_DECLARED = "raise_even_if_call_declared"  # ACE R61


class ChipsFoundBehind(StrEnum):
    """R62: a hidden chip found behind an all-in after the call."""

    TD_DISCRETION = "td_discretion"  # TDA 2024 R62
    WINNER_UNPAID_COVERING_WINNER_GETS = "winner_unpaid_covering_winner_gets"  # ACE R62


class SkippedPlayer(StrEnum):
    """R53-B: a player skipped by out-of-turn action who does not speak up."""

    BACK_UP = "back_up"  # TDA 2024 R53-B: OOT actions binding, action backs up to him
    CONTINUE = "continue"  # ACE R53-B: action continues and is not backed up
    FLOOR = "floor"  # TDA 2011 R35: no skipped-player clause, Rule 1


class PotCountDisplay(StrEnum):
    """R54-A / RP-21 (T11 R42): who may be told the pot size."""

    POT_LIMIT_ONLY = "pot_limit_only"  # TDA R54-A, TDA 2011 R42, Clubs NZ R54-A
    NEVER = "never"  # ACE R54-A: pot counts are denied


class NonValueItems(StrEnum):
    """RP-22: a bounty chip or clock token pushed as a bet."""

    CALL_OR_ALL_IN = "call_or_all_in"  # TDA 2024 RP-22: TD rules call or all in
    NOT_COVERED = "not_covered"  # TDA 2022 / 2011 / Clubs NZ: no RP-22, Rule 1


class AllInFaceUp(StrEnum):
    """R16 (T11 R11): when all-in hands are turned face up."""

    BETTING_COMPLETE = "betting_complete"  # TDA R16: once all betting action is complete
    IMMEDIATELY = "immediately"  # ACE R16: "flip immediately, before more cards"


class SeeHandRule(StrEnum):
    """R18 (T11 R14): asking to see a hand at showdown."""

    RIGHT_VS_RIVER_AGGRESSOR = "right_vs_river_aggressor"  # TDA 2024 R18-B
    TD_PRIVILEGE = "td_privilege"  # TDA 2011 R14: a privilege at the TD's discretion only
    PAID_CALLER = "paid_caller"  # ACE R18: a player who paid is entitled to see


class MuckDeadWhen(StrEnum):
    """R14: when a hand released toward the muck is dead."""

    IRRETRIEVABLE = "irretrievable"  # TDA 2024 R14: pushed into the muck / irretrievable
    TOUCHES_MUCK = "touches_muck"  # ACE R14: touching the muck pile, even on top


class KilledHandRetrieval(StrEnum):
    """R65-B: when a killed or fouled hand may be retrieved."""

    CLEARLY_IDENTIFIABLE = "clearly_identifiable"  # TDA 2024 R65-B
    OFF_MUCK_OR_CERTAIN = "off_muck_or_certain"  # ACE R65: not in the muck or 100% sure


class ColorUp(StrEnum):
    """R24 (T11 R20): removing a chip denomination."""

    RACE_THEN_EXCHANGE = "race_then_exchange"  # TDA 2024 R24: race, then equal-value exchange
    RACE_NO_EXCHANGE = "race_no_exchange"  # TDA 2011 R20: race only
    ROUND_UP_NO_RACE = "round_up_no_race"  # Clubs NZ R24, ACE R24: per player, round up


class PenaltyScheme(StrEnum):
    """R71 (T11 R50): the penalties the TD can give."""

    MISSED_HANDS = "missed_hands"  # TDA 2024 R71: missed hands/rounds, DQ
    TDA2011_HAND_OR_ROUNDS = "tda2011_hand_or_rounds"  # TDA 2011 R50: 1 hand or 1-4 rounds
    NO_SIT_OUT = "no_sit_out"  # ACE R71: warnings, talks, removal


class HandForHandClock(StrEnum):
    """RP-8-B: the level clock during hand-for-hand."""

    DEDUCT_UP_TO_3_MIN = "deduct_up_to_3_min"  # TDA 2024 RP-8-B (C/D recommend 2 min, A18)
    FIXED_2_MIN_PER_HAND = "fixed_2_min_per_hand"  # Clubs NZ RP-8-B: 17:30 -> 15:30 -> 13:30


class RebuyRule(StrEnum):
    """R27 (T11 R23): re-buys."""

    ANNOUNCED_PLAYS_BEHIND = "announced_plays_behind"  # TDA R27 / T11 R23
    DECLARE_IMMEDIATELY = "declare_immediately"  # ACE R27: declare at once, fetch later


class DeckChange(StrEnum):
    """R26 (T11 R22): when decks are changed."""

    PUSH_LEVEL_OR_HOUSE = "push_level_or_house"  # TDA R26 / T11 R22
    DAMAGED_CARD_ONLY = "damaged_card_only"  # ACE R26: end of hand unless outcome-relevant


class DrawReshuffle(StrEnum):
    """Draw games, a house rule (TDA R35-A7): what is shuffled into a new stub when the stub
    cannot serve a draw (shuffled face down, R39-D)."""

    DISCARDS = "discards"  # the discards and the muck, not the burns, nor the drawer's own
    ALL_NOT_IN_PLAY = "all_not_in_play"  # every card outside the live hands (PokerKit's)


class DrawLimping(StrEnum):
    """Draw games: whether a player may just call the big blind before the first draw."""

    ALLOWED = "allowed"  # RP-17 (single draw); no TDA rule forbids it in triple draw
    SINGLE_DRAW_ONLY = "single_draw_only"  # house: triple draw's first player in raises or folds


class DrawDealExposure(StrEnum):
    """Draw games, a house rule (TDA R35-A7: its exposed-card misdeal is for flop games):
    what a downcard the dealer exposes on the initial deal of a draw game is."""

    AS_FLOP_GAMES = "as_flop_games"  # R35-A7's flop-game test: first two off the deck, or two
    FLOOR = "floor"  # every exposure on a draw deal goes to the floor: misdeal or play on


class DrawExposedCard(StrEnum):
    """Draw games, a house rule (R35-A7): a replacement card the dealer exposes on a draw."""

    REPLACED_AFTER_OTHERS = "replaced_after_others"  # to the muck; served after the others
    FLOOR = "floor"  # the floor decides: replace it (as above) or the player keeps it


class LeaveTable(StrEnum):
    """R31 (T11 R27): leaving the table with a live hand."""

    PENALTY = "penalty"  # TDA 2024 R31: subject to penalty
    HAND_MAY_BE_FOLDED = "hand_may_be_folded"  # ACE R31: risks the hand being folded


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
    # --- profile parameters (issue 8): ruleset-difference rows; docs/profiles.md explains each ---
    # 19.1 language, clock, levels, disputes
    official_language: OfficialLanguage = OfficialLanguage.HOUSE_POSTED  # R6
    clock_seconds: Seconds = 25  # R29: time to act once a clock is called
    clock_countdown_seconds: Seconds = 5  # R29: countdown after that
    clock_expiry_not_facing_bet: ClockExpiry = ClockExpiry.CHECK  # R29 (facing a bet: dead)
    clock_min_wait_seconds: Seconds | None = None  # ACE R29: ~2 min before a clock may be called
    clock_callers: ClockCallers = ClockCallers.SEATED_PLAYER  # R29/R30
    level_start: LevelStart = LevelStart.ANNOUNCEMENT_OR_SIGNAL  # R23
    level_push_extra_hand: bool = True  # R23: a level starting during a dealer push waits a hand
    dispute_windows: DisputeWindows = DisputeWindows.READING_ACCOUNTING_BREAK  # R22
    # 19.2 button, blinds, antes, seating, balancing
    button_mode: ButtonMode = ButtonMode.DEAD_BUTTON  # R32
    button_error_corrected_before_sa: bool = True  # R34-A: wrong button fixed before SA
    button_reset_at_final_table: bool = False  # ACE R10: the button resets at the final table
    blind_dodging: BlindDodging = BlindDodging.ANY_BLIND  # R33
    seating_breaking: BreakingMethod = BreakingMethod.RANDOM_TWO_STEP  # R10
    balance_halt: BalanceHalt = BalanceHalt.BY_ELIMINATION_BLINDS_IMPACTED  # R11-D
    balance_player_select: BalanceSelect = BalanceSelect.NEXT_BIG_BLIND  # R11-A
    late_entry_stack: LateEntryStack = LateEntryStack.FULL  # R8-A
    final_table_size: FinalTableSize = FinalTableSize.RP9_NINE_OR_SEVEN  # RP-9
    # 19.3 dealing, misdeals, irregularities
    fouled_deck_rule: FouledDeckRule = FouledDeckRule.DUPLICATE_CARD  # R35-E
    button_short_speak_before_flop: bool = False  # ACE R37: else the hand is folded
    flop_irregularity: FlopIrregularity = FlopIrregularity.TDA_2024  # R39
    premature_cards_procedure: PrematureCards = PrematureCards.RESHUFFLE_NO_BURN  # RP-5
    presence_rule: PresenceRule = PresenceRule.LAST_CARD_OF_DEAL  # R30
    self_dealt_cards_in_view: bool = False  # Clubs NZ R35-F: without a dealer
    all_in_buttons: bool = True  # RP-1 (Clubs NZ: not used)
    # 19.4 bet interpretation
    declaration_precedence: DeclarationPrecedence = DeclarationPrecedence.FIRST_DEFINES  # R40-A
    two_motion_raise: bool = False  # R42 ("eliminated in 2019"); TDA 2011 R36(3) allows it
    string_bets: StringBetRule = StringBetRule.NOT_ALLOWED  # R56
    fifty_basis: FiftyBasis = FiftyBasis.LAST_INCREMENT  # R43-A (T11 R37 "previous bet")
    min_reraise: MinReraise = MinReraise.LAST_INCREMENT  # R43-A (Clubs NZ R48 "double")
    multichip_rule: MultichipRule = MultichipRule.ANY_DENOMINATIONS  # R45 (T11 R39)
    prior_chips_order: PriorChipsOrder = PriorChipsOrder.TDA_2024  # Add. 46
    underraise_corrected: bool = True  # R52-A: corrected on the current street
    nl_pot_declaration: NlPotDeclaration = NlPotDeclaration.BINDS_VALID_BET  # R54-D
    nonstandard_fold_lenient: bool = False  # R58 binding + penalty (ACE: a chance or two)
    conditional_rule: ConditionalRule = ConditionalRule.CONDITIONAL_AND_PREMATURE  # R59
    overbet_change: OverbetChange = OverbetChange.RAISE_UNLESS_CALL_DECLARED  # R61
    chips_found_behind: ChipsFoundBehind = ChipsFoundBehind.TD_DISCRETION  # R62
    skipped_player: SkippedPlayer = SkippedPlayer.BACK_UP  # R53-B
    accepted_action_on_call_declared: bool = True  # R49: "or declares call" (T11 R41: places)
    tiny_chip_repeat_full_call: bool = False  # ACE R41: repeat offenders held to a full call
    pot_count_display: PotCountDisplay = PotCountDisplay.POT_LIMIT_ONLY  # R54-A, RP-21
    non_value_items: NonValueItems = NonValueItems.CALL_OR_ALL_IN  # RP-22
    # 19.5 showdown, odd chips
    all_in_face_up: AllInFaceUp = AllInFaceUp.BETTING_COMPLETE  # R16
    show_order_mandatory: bool = False  # R17-A "may" (T11 R12 "must")
    uncontested_must_table: bool = False  # R17-B (ACE: must table both cards to win)
    see_hand: SeeHandRule = SeeHandRule.RIGHT_VS_RIVER_AGGRESSOR  # R18
    odd_chip_identical_split_evenly: bool = False  # R20-D deleted 2022 (NZ Add. 20F, T11 R16)
    muck_dead_when: MuckDeadWhen = MuckDeadWhen.IRRETRIEVABLE  # R14
    killed_hand_retrieval: KilledHandRetrieval = KilledHandRetrieval.CLEARLY_IDENTIFIABLE
    # 19.6 color-up, penalties, H4H, misc
    color_up: ColorUp = ColorUp.RACE_THEN_EXCHANGE  # R24
    # ACE R24: every total rounds up; False: beyond one new chip the TD confirms (NZ R24 A/B)
    color_up_round_up_any_total: bool = False
    penalties: PenaltyScheme = PenaltyScheme.MISSED_HANDS  # R71
    hand_for_hand_clock: HandForHandClock = HandForHandClock.DEDUCT_UP_TO_3_MIN  # RP-8-B
    hand_for_hand_runout_held: bool = True  # RP-8-F: all in and called, cards stay down
    rebuy: RebuyRule = RebuyRule.ANNOUNCED_PLAYS_BEHIND  # R27
    deck_change: DeckChange = DeckChange.PUSH_LEVEL_OR_HOUSE  # R26
    leave_table: LeaveTable = LeaveTable.PENALTY  # R31
    # 19.7 draw games: house rules (R35-A7), RP-17
    draw_last_card_dealt: bool = False  # the stub's last card is shuffled in, not dealt
    draw_reshuffle: DrawReshuffle = DrawReshuffle.DISCARDS  # what a short stub takes in
    draw_change_of_mind: bool = True  # a player may change his discards until he is served
    draw_limping: DrawLimping = DrawLimping.ALLOWED  # RP-17
    draw_face_up_before_draws: bool = True  # R16 as written; false: down until the last draw
    draw_deal_exposure: DrawDealExposure = DrawDealExposure.AS_FLOP_GAMES  # R35-A7 (house)
    draw_exposed_card: DrawExposedCard = DrawExposedCard.REPLACED_AFTER_OTHERS  # R35-A7 (house)
    # stud dealing procedures (issue 30): engine/stud_procedures.py
    stud_exposed_downcard_misdeal: bool = False  # RP-10-A: the upcard (T11 R31: a misdeal)
    stud_seventh_exposed_replaced: bool = True  # RP-10-B (T11: no rule, the floor decides)
    stud_absent_posts_bring_in: bool = True  # R30, R71-C (T11 R26, R50: the floor decides)

    def rule_id(self, concept: str) -> str:
        """The rule id of a concept, e.g. ``TDA2024-47A`` (an unknown concept is a bug)."""
        number = self.citations[concept]
        return f"{self.citation_prefix}-{number}" if number else self.citation_prefix

    @overload
    def cite(self, concept: str, /) -> str: ...
    @overload
    def cite(self, concept: str, second: str, /, *more: str) -> tuple[str, ...]: ...
    def cite(self, *concepts: str) -> str | tuple[str, ...]:
        if len(concepts) == 1:  # the usual call, on every ruling: no tuple built
            return self.rule_id(concepts[0])
        return tuple([self.rule_id(c) for c in concepts])


TDA_2024 = RuleProfile()
