"""Every row of the ruleset-difference tables (docs/profiles.md) is a named parameter;
where a layer reads it, the same events under two profiles show both behaviours.

Rows whose ruling is the same in every profile (the difference is only the rule number)
map to a citation concept instead, and the test checks the numbers the rulings cite.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import fields
from importlib import resources
from pathlib import Path

import pytest

from pokertable.controller.engine.events import ActionKind
from pokertable.controller.engine.model import Level, Phase
from pokertable.controller.engine.rulings import RulingKind
from pokertable.controller.interpretation import Interpretation, InterpretedHand, Outcome
from pokertable.controller.irregularities.events import HandStart, HandStartKind, LevelStarted
from pokertable.controller.irregularities.levels import LevelClock, hand_started, level_started
from pokertable.controller.irregularities.showdown_requests import SeeAnswer, request_to_see
from pokertable.controller.rules import TDA_2024, RuleProfile
from pokertable.controller.rules.profiles import (
    available_profiles,
    load,
    load_profile,
    parameter_names,
)
from tests.interpretation.helpers import check, options, postflop, preflop, push, ruled, run, say
from tests.irregularities.table_driver import Table, codes, find, setup

ROOT = Path(__file__).resolve().parents[2]
T24 = load_profile("tda-2024")
T22 = load_profile("tda-2022")
T11 = load_profile("tda-2011")
NZ = load_profile("clubs-nz-2022")
ACE = load_profile("ace-league")

# config key of a difference row (docs/profiles.md) -> the RuleProfile parameters that
# carry it ("rule:" = citation)
ROWS: dict[str, tuple[str, ...]] = {
    # 19.1
    "language.official": ("official_language",),
    "clock": ("clock_seconds", "clock_countdown_seconds", "clock_expiry_not_facing_bet",
              "clock_min_wait_seconds", "clock_callers"),
    "level.start": ("level_start", "level_push_extra_hand"),
    "disputes.windows": ("dispute_windows",),
    # 19.2
    "button.mode": ("button_mode",),
    "button.error_rule": ("button_error_corrected_before_sa",),
    "headsup.button": ("button_reset_at_final_table", "rule:heads_up"),
    "ante.bba_order": ("bba_short_order",),
    "blinds.dodging": ("blind_dodging",),
    "seating.breaking": ("seating_breaking",),
    "balance.halt": ("balance_halt",),
    "balance.player_select": ("balance_player_select",),
    "late_entry.stack": ("late_entry_stack",),
    "final_table.size": ("final_table_size",),
    # 19.3
    "misdeal.triggers": ("misdeal_on_card_count", "misdeal_on_nonstandard_card",
                         "misdeal_boxed_cards"),
    "misdeal.redeal_absent": ("redeal_absent_players_play",),
    "fouled_deck": ("fouled_deck_rule",),
    "nonstandard_card": ("misdeal_on_nonstandard_card",),
    "button_short_cards": ("button_short_replace", "button_short_speak_before_flop"),
    "burns_after_SA": ("rule:one_burn",),
    "flop.irregular": ("flop_irregularity",),
    "premature_cards": ("premature_cards_procedure",),
    "presence.at_seat": ("presence_rule",),
    "self_dealing": ("self_dealt_cards_in_view",),
    "allin_buttons": ("all_in_buttons",),
    # 19.4
    "decl.precedence": ("declaration_precedence",),
    "raise.two_motion": ("two_motion_raise",),
    "string_bets": ("string_bets",),
    "raise.fifty_pct": ("raise_threshold", "exact_threshold_option", "fifty_basis"),
    "raise.min_reraise": ("min_reraise",),
    "multichip": ("multichip_rule",),
    "prior_chips": ("prior_chips_order",),
    "reopen": ("reopen",),
    "undercall": ("undercall_mandatory",),
    "underraise.correction": ("underraise_corrected",),
    "pl.preflop_blinds": ("pot_limit_preflop_blinds",),
    "nl.pot_declaration": ("nl_pot_declaration",),
    "ambiguous_amount": ("ambiguous_amount_highest",),
    "invalid_decl": ("rule:check_facing_bet", "rule:call_is_check"),
    "nonstandard_fold": ("nonstandard_fold_lenient",),
    "conditional": ("conditional_rule",),
    "overbet_change": ("overbet_change",),
    "chips_found_behind": ("chips_found_behind",),
    "oot": ("skipped_player",),
    "accepted_action": ("accepted_action_on_call_declared",),
    "tiny_chip_call": ("tiny_chip_fraction", "tiny_chip_repeat_full_call"),
    "pot_count_display": ("pot_count_display",),
    "non_value_items": ("non_value_items",),
    # 19.5
    "allin.face_up": ("all_in_face_up",),
    "showdown.order": ("show_order_mandatory",),
    "showdown.uncontested_no_table": ("uncontested_must_table",),
    "showdown.see_hand": ("see_hand",),
    "odd_chip": ("odd_chip_identical_split_evenly",),
    "muck.dead_when": ("muck_dead_when",),
    "killed_hand.refund": ("killed_hand_retrieval", "rule:fouled_hand"),
    # 19.6
    "color_up": ("color_up", "color_up_round_up_any_total"),
    "penalties": ("penalties",),
    "h4h.clock": ("hand_for_hand_clock",),
    "rp.20_22": ("non_value_items", "pot_count_display", "rule:non_value_items"),
    "rebuy": ("rebuy",),
    "deck_change": ("deck_change",),
    "leave_table": ("leave_table",),
}


def test_every_difference_row_names_parameters_that_exist() -> None:
    known = set(parameter_names())
    concepts = set(TDA_2024.citations)
    assert len(ROWS) == 62
    for key, names in ROWS.items():
        for name in names:
            if name.startswith("rule:"):
                assert name[5:] in concepts, key
            else:
                assert name in known, (key, name)


def test_every_row_differs_somewhere_or_only_in_its_rule_numbers() -> None:
    profiles = [load_profile(n) for n in available_profiles()]

    def value(p: RuleProfile, name: str) -> object:
        if name.startswith("rule:"):
            return p.rule_id(name[5:]).split("-", 1)[1]
        return getattr(p, name)

    for key, names in ROWS.items():
        assert any(value(p, n) != value(T24, n) for p in profiles for n in names), key


def test_every_parameter_is_documented_with_allowed_values() -> None:
    doc = (ROOT / "docs" / "profiles.md").read_text("utf-8")
    for f in fields(RuleProfile):
        if f.name in ("name", "citation_prefix", "citations"):
            continue
        assert f"`{f.name}`" in doc, f.name


def test_every_shipped_parameter_value_has_a_source() -> None:
    """tda-2024 documents every parameter; other profiles quote a source for each change."""
    base = load("tda-2024")
    assert set(base.sources) >= set(parameter_names()), set(parameter_names()) - set(base.sources)
    for name in available_profiles():
        rulebook = resources.files("pokertable.controller.rules") / "rulebooks" / f"{name}.toml"
        text = rulebook.read_text("utf-8")
        data = tomllib.loads(text)
        sources = data.get("sources", {})
        for key in data.get("parameters", {}):
            assert sources.get(key, "").strip(), f"{name}.toml: {key} has no [sources] line"


def test_tda_2022_sources_say_where_wording_is_lost() -> None:
    loaded = load("tda-2022")
    lost = [k for k, v in loaded.sources.items() if "2022 wording not recoverable" in v]
    lost_keys = {"bba_short_order", "fouled_deck_rule", "string_bets", "hand_for_hand_clock"}
    assert lost_keys <= set(lost)
    for key in lost:  # where the wording is lost the 2024 value is kept
        assert getattr(loaded.profile, key) == getattr(T24, key), key


def test_profile_only_rows_carry_each_editions_value() -> None:
    """Rows no module reads yet (docs/rules-coverage.md "profile only"): the values per edition."""
    expected: dict[str, dict[str, str]] = {
        "rebuy": {"ace-league": "declare_immediately"},
        "deck_change": {"ace-league": "damaged_card_only"},
        "dispute_windows": {"tda-2011": "new_hand", "ace-league": "cards_picked_up"},
        "penalties": {"tda-2011": "tda2011_hand_or_rounds", "ace-league": "no_sit_out"},
        "final_table_size": {"tda-2011": "tda2011_ten_flop"},
        "pot_count_display": {"ace-league": "never"},
        "button_mode": {"clubs-nz-2022": "no_dead_button", "ace-league": "dealer_choice"},
        "level_start": {"tda-2022": "staff_announcement", "tda-2011": "staff_announcement",
                        "clubs-nz-2022": "clock_zero", "ace-league": "dealer_call"},
        "official_language": {"tda-2011": "english_us_local_abroad",
                              "clubs-nz-2022": "english_only", "ace-league": "english_only"},
        "late_entry_stack": {"ace-league": "reduced_for_missed_blinds"},
        "uncontested_must_table": {"ace-league": "True"},
        "all_in_buttons": {"clubs-nz-2022": "False"},
    }
    for name in available_profiles():
        profile = load_profile(name)
        for key, values in expected.items():
            want = values.get(name, str(getattr(TDA_2024, key)))
            assert str(getattr(profile, key)) == want, (name, key)


# --- behaviour rows, same events under two profiles ------------------------------------------


def test_row_undercall_T24_mandatory_call_T11_floor() -> None:
    def undercall(rules: RuleProfile) -> Interpretation:
        hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200, rules=rules)
        _, out = run(hand, say(1, "bet", 1000), push(2, 500))
        return ruled(out)

    check(undercall(T24), "call", 1000, add=500, rules=("51B",))
    reading = undercall(T11)
    assert set(options(reading)) == {"full_call", "forfeit_fold"}
    assert reading.floor is not None and "TDA2011-1" in reading.floor.rule_ids


def test_row_fifty_pct_ACE_43_EX1_exactly_half_gives_the_option() -> None:
    def push_1500(rules: RuleProfile) -> Interpretation:
        hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200, rules=rules)
        _, out = run(hand, say(1, "bet", 1000), push(2, 1000, 500))
        return ruled(out)

    check(push_1500(T24), "raise", 2000, add=500, rules=("43A",))
    assert options(push_1500(ACE)) == {"call": ("call", 1000, 500, 0),
                                       "raise": ("raise", 2000, 0, 500)}
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200, rules=ACE)
    _, out = run(hand, say(1, "bet", 1000), say(2, "raise"), push(2, 1000, 500))
    assert (ruled(out).action, ruled(out).total) == (ActionKind.RAISE, 2000)


def _six(rules: RuleProfile) -> Table:
    return Table(setup({s: 5000 for s in range(1, 7)}, button=6, sb=1, bb=2), rules=rules)


def test_row_nonstandard_card_T24_misdeal_NZ_no_trigger() -> None:
    table = _six(T24)
    table.seat(1)
    assert find(table.seat(2, "Jk", "joker-1"), "misdeal_nonstandard_card")
    table = _six(NZ)
    table.seat(1)
    out = table.seat(2, "Jk", "joker-1")
    assert "misdeal_nonstandard_card" not in codes(out) and table.t.misdeal is None


def test_row_button_short_cards_T24_replaced_T11_floor() -> None:
    order = [1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5]  # the button (6) gets one card
    table = _six(T24)
    table.deal(order)
    assert find(table.act(3, "fold"), "button_short").rule_ids == ("TDA2024-37",)
    assert "button_short_replaced" in codes(table.seat(6))
    table = _six(T11)
    table.deal(order)
    assert "Replace" not in find(table.act(3, "fold"), "button_short").text
    ruling = find(table.seat(6), "button_short_floor")
    assert ruling.kind is RulingKind.FLOOR and ruling.rule_ids == ("TDA2011-1",)
    assert ruling.options == ("keep_hand", "dead_hand") and not table.t.hand.seat(6).hole


def test_row_level_start_push_extra_hand_T24_yes_NZ_T22_no() -> None:
    l100 = Level(number=1, small_blind=100, big_blind=200)
    l150 = Level(number=2, small_blind=150, big_blind=300)
    for rules, first in ((T24, l100), (NZ, l150), (T22, l150), (T11, l150)):
        clock, _ = level_started(LevelClock(current=l100),
                                 LevelStarted(l150, during_dealer_push=True), rules)
        _, level = hand_started(clock, HandStart(HandStartKind.DEALER_PUSH))
        assert level == first, rules.name


def _flop_without_burn(rules: RuleProfile) -> Table:
    table = _six(rules)
    table.deal()
    table.acts((3, "call"), (4, "call"), (5, "call"), (6, "call"), (1, "call"), (2, "check"))
    table.board(*(table.next_card() for _ in range(3)))
    return table


def test_row_flop_irregular_T24_procedure_T11_NZ_floor() -> None:
    assert "flop_no_burn" in codes(_flop_without_burn(T24).log)
    for rules in (T11, NZ):
        ruling = find(_flop_without_burn(rules).log, "flop_no_burn_floor")
        assert ruling.kind is RulingKind.FLOOR
        assert ruling.options == ("scramble_and_reburn", "play_as_dealt")
    assert find(_flop_without_burn(T11).log, "flop_no_burn_floor").rule_ids == ("TDA2011-1",)


def test_row_see_hand_T24_right_T11_privilege_ACE_paid_caller_only() -> None:
    def river(rules: RuleProfile) -> Table:
        table = Table(setup({1: 50_000, 2: 50_000, 3: 50_000}, button=3, sb=1, bb=2,
                            level=Level(small_blind=50, big_blind=100)), rules=rules)
        table.deal()
        table.acts((3, "call"), (1, "call"), (2, "check"))
        for n in (3, 1):
            table.street(n)
            table.acts((1, "check"), (2, "check"), (3, "check"))
        table.street(1)
        table.acts((1, "bet", 1000), (2, "call"), (3, "call"))
        assert table.t.hand.phase is Phase.SHOWDOWN
        return table

    answer, ruling = request_to_see(river(T24).t.hand, 2, 1, T24)
    assert answer is SeeAnswer.MUST_TABLE and ruling.rule_ids == ("TDA2024-18B",)
    answer, ruling = request_to_see(river(T11).t.hand, 2, 1, T11)
    assert answer is SeeAnswer.TD_DISCRETION and ruling.rule_ids == ("TDA2011-14",)
    ace = river(ACE).t.hand
    assert request_to_see(ace, 2, 1, ACE)[0] is SeeAnswer.MUST_TABLE  # he paid to see it
    answer, ruling = request_to_see(ace, 1, 3, ACE)  # the bettor asks a caller: not owed
    assert answer is SeeAnswer.DENIED and ruling.code == "see_hand_not_required"
    answer, _ = request_to_see(river(T24).t.hand, 1, 3, T24)
    assert answer is SeeAnswer.TD_DISCRETION


@pytest.mark.parametrize(
    ("concept", "t24", "t11"),
    [
        ("multichip_call", "TDA2024-45A", "TDA2011-39"),
        ("overchip", "TDA2024-44", "TDA2011-38"),
        ("min_raise", "TDA2024-43A", "TDA2011-37"),
        ("accepted_action", "TDA2024-49", "TDA2011-41"),
        ("pot_limit", "TDA2024-54", "TDA2011-42"),
        ("string_bet", "TDA2024-56", "TDA2011-43"),
        ("unclear_betting", "TDA2024-57", "TDA2011-44"),
        ("one_burn", "TDA2024-38", "TDA2011-1"),
        ("heads_up", "TDA2024-34B", "TDA2011-30"),
        ("check_facing_bet", "TDA2024-55", "TDA2011-1"),
        ("fouled_hand", "TDA2024-65A", "TDA2011-48"),
    ],
)
def test_rule_numbers_follow_the_edition(concept: str, t24: str, t11: str) -> None:
    assert (T24.cite(concept), T11.cite(concept)) == (t24, t11)
    assert NZ.cite(concept).startswith("NZ2022-") and ACE.cite(concept).startswith("ACE-")


def test_nz_and_t22_cite_rule_1_where_their_edition_has_no_rule() -> None:
    assert NZ.cite("non_value_items") == "NZ2022-1" and T22.cite("non_value_items") == "TDA2022-1"
    assert NZ.cite("min_reraise") == "NZ2022-48" and NZ.cite("heads_up") == "NZ2022-34"
    assert ACE.cite("non_value_items") == "ACE-RP-22"


def test_every_t11_citation_is_a_2011_rule_number() -> None:
    for concept, number in T11.citations.items():
        if number:
            assert re.fullmatch(r"\d{1,2}", number) and 1 <= int(number) <= 54, concept


def test_row_nl_pot_declaration_T24_binds_a_bet_ACE_not_a_bet() -> None:
    def said_pot(rules: RuleProfile) -> tuple[InterpretedHand, Outcome]:
        hand = postflop({1: 20000, 2: 20000}, button=2, big=200, pot=1000, rules=rules)
        return run(hand, say(1, "pot"))

    hand, out = said_pot(T24)
    assert ruled(out).waiting  # committed to a bet; the chips give its size
    _, out = run(hand, push(1, 100))
    check(ruled(out), "bet", 200, add=100, rules=("54D", "52A"))
    hand, out = said_pot(ACE)
    assert (ruled(out).code, ruled(out).action) == ("pot_not_a_bet", None)
    assert ruled(out).rule_ids == ("ACE-54D",) and hand.state.action_on == 1
    _, out = run(hand, say(1, "bet", 600))
    assert (ruled(out).action, ruled(out).total) == (ActionKind.BET, 600)


def test_row_overbet_change_ACE_61_EX1_b_raise_even_if_call_declared() -> None:
    def call_then_1100(rules: RuleProfile) -> tuple[InterpretedHand, Outcome]:
        hand = preflop({1: 20000, 2: 20000, 3: 20000, 4: 20000}, button=4, sb=1, bb=2,
                       small=300, big=600, rules=rules)
        return run(hand, say(3, "call"), push(3, 1000, 100))

    hand, out = call_then_1100(T24)  # verbal first: a call of 600, 500 change
    assert (ruled(out).code, ruled(out).returned) == ("paid", 500)
    assert hand.state.seat(3).bet == 600 and hand.state.call_to == 600
    hand, out = call_then_1100(ACE)
    reading = ruled(out)
    assert (reading.code, reading.action, reading.total) == ("overbet_raise", ActionKind.RAISE,
                                                             1200)
    assert "ACE-61" in reading.rule_ids and reading.add == 100
    assert hand.state.seat(3).bet == 1200 and hand.state.call_to == 1200
    assert hand.state.increment == 600 and hand.state.action_on == 4

