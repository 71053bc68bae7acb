"""Rule profiles as data: every shipped profile loads, overrides are validated, rulings cite
the edition applied, and each difference row shows both behaviours on the same events."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from pokertable.controller.engine import HandSetup, start_hand
from pokertable.controller.engine.model import AnteFormat, HandState, Level, SeatState, Variant
from pokertable.controller.engine.rulings import RulingKind
from pokertable.controller.rules import TDA_2024, RuleProfile
from pokertable.controller.rules.profiles import (
    ProfileError,
    available_profiles,
    diff,
    load,
    load_profile,
)
from tests.engine.helpers import act, options, preflop, street_state, try_act

PROFILES = ("ace-league", "clubs-nz-2022", "tda-2011", "tda-2022", "tda-2024")


def test_every_profile_ships_and_loads() -> None:
    assert set(PROFILES) <= set(available_profiles())
    for name in PROFILES:
        loaded = load(name)
        assert loaded.profile.name == name and loaded.title


def test_default_profile_equals_the_built_in_tda_2024() -> None:
    assert diff(load_profile("tda-2024"), TDA_2024) == {}


def test_unknown_parameter_is_refused_with_the_key_and_a_suggestion() -> None:
    with pytest.raises(ProfileError, match=r"unknown parameter 'reopn'.*'reopen'"):
        load_profile("tda-2024", {"reopn": "cumulative"})


def test_bad_value_is_refused_with_the_allowed_values() -> None:
    with pytest.raises(ProfileError, match=r"'bba_short_order'.*'big_blind_first' or 'ante_first'"):
        load_profile("tda-2024", {"bba_short_order": "whatever"})


def test_unknown_profile_lists_the_available_ones() -> None:
    with pytest.raises(ProfileError, match="available: ace-league"):
        load_profile("wsop-2030")


def test_override_is_applied_and_named_as_the_source() -> None:
    loaded = load("tda-2024", {"bba_short_order": "ante_first"})
    assert loaded.profile.bba_short_order.value == "ante_first"
    assert loaded.sources["bba_short_order"] == "table override"


def test_rulings_cite_the_edition_applied() -> None:
    t11 = load_profile("tda-2011")
    state = street_state({1: 20_000, 2: 20_000, 3: 20_000}, button=3)
    state, _ = act(state, (1, "bet", 600), rules=t11)
    _, rulings = try_act(state, 2, "raise", 900, rules=t11)
    assert rulings[0].rule_ids == ("TDA2011-37",)
    _, rulings = try_act(state, 2, "raise", 900)
    assert rulings[0].rule_ids == ("TDA2024-43A",)


def _short_bba(rules: RuleProfile) -> SeatState:
    level = Level(small_blind=100, big_blind=200, ante=200, ante_format=AnteFormat.BIG_BLIND_ANTE)
    setup = HandSetup(
        hand_id="h",
        variant=Variant.NLHE,
        level=level,
        button=3,
        small_blind_seat=1,
        big_blind_seat=2,
        players=((1, "a", 5000), (2, "b", 300), (3, "c", 5000)),
    )
    state, _ = start_hand(setup, rules)
    return state.seat(2)


def test_difference_bba_order_tda24_big_blind_first_vs_nz_ante_first() -> None:
    t24 = _short_bba(load_profile("tda-2024"))
    nz = _short_bba(load_profile("clubs-nz-2022"))
    assert (t24.bet, t24.dead) == (200, 100)
    assert (nz.bet, nz.dead) == (100, 200)


def test_difference_pl_preflop_dead_small_blind_tda24_vs_nz_tda22() -> None:
    def max_to(name: str) -> int:
        rules = load_profile(name)
        state = preflop(
            {2: 10_000, 3: 10_000, 4: 10_000},
            button=4,
            sb=None,
            bb=2,
            level=Level(small_blind=100, big_blind=200),
            variant=Variant.PLO,
            rules=rules,
        )
        return options(state, rules).max_to

    assert max_to("tda-2024") == 700  # dead SB assumed posted (R54-B 2024)
    assert max_to("clubs-nz-2022") == 600  # only a short all-in blind is assumed
    assert max_to("tda-2022") == 600
    assert max_to("tda-2011") == 600


def _ex1_flop(rules: RuleProfile) -> HandState:
    state = street_state({1: 5000, 2: 125, 3: 5000, 4: 200, 5: 5000}, button=5)
    state, _ = act(
        state, (1, "bet", 100), (2, "all_in"), (3, "call"), (4, "all_in"), (5, "call"), rules=rules
    )
    return state


def test_difference_cumulative_reopen_tda24_vs_tda11_floor() -> None:
    """TDA24-47-EX1 under TDA 2011: cumulative short all-ins are not covered -> floor."""
    t24 = load_profile("tda-2024")
    state = _ex1_flop(t24)
    after, rulings = try_act(state, 1, "raise", 300, rules=t24)
    assert rulings[0].kind is RulingKind.ACCEPTED and after.call_to == 300
    t11 = load_profile("tda-2011")
    state = _ex1_flop(t11)
    same, rulings = try_act(state, 1, "raise", 300, rules=t11)
    assert same is state
    assert rulings[0].kind is RulingKind.FLOOR and rulings[0].rule_ids == ("TDA2011-37",)
    assert rulings[0].options == ("allow the raise", "call or fold only")
    from pokertable.controller.engine import step
    from pokertable.controller.engine.events import ActionKind, PlayerAction

    after, rulings = step(state, PlayerAction(1, ActionKind.RAISE, 300, floor_approved=True), t11)
    assert rulings[0].kind is RulingKind.ACCEPTED and after.call_to == 300


def test_rules_cli_show_and_diff() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "pokertable.controller.cli", "rules", "show", "tda-2011", "--json"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    shown = json.loads(out)
    assert shown["parameters"]["reopen"] == "floor_on_cumulative"
    assert "R37" in shown["sources"]["reopen"]
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "pokertable.controller.cli",
            "rules",
            "diff",
            "tda-2024",
            "clubs-nz-2022",
            "--json",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert json.loads(out)["bba_short_order"] == ["big_blind_first", "ante_first"]
    bad = subprocess.run(
        [
            sys.executable,
            "-m",
            "pokertable.controller.cli",
            "rules",
            "show",
            "tda-2024",
            "--set",
            "reopen=sometimes",
        ],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2 and "'reopen'" in bad.stderr and "cumulative" in bad.stderr
