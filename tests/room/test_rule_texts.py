"""The rule text beside a rule id on the floor console comes from the shipped rulebooks."""

from __future__ import annotations

import doctest

from pokertable.room import rule_texts as rule_texts_module
from pokertable.room.rule_texts import lookup, rule_texts


def test_module_examples_run() -> None:
    result = doctest.testmod(rule_texts_module)
    assert result.attempted > 0 and result.failed == 0


def test_each_edition_shows_its_own_rule_text_for_the_clock() -> None:
    texts = rule_texts()
    tda24, tda11, ace = (lookup(texts, r) for r in ("TDA2024-29", "TDA2011-24", "ACE-29"))
    assert tda24["title"] == ["Calling for a Clock"]
    assert any("25 seconds plus a 5 second countdown" in p for p in tda24["passages"])
    assert any("10-second countdown" in p for p in tda11["passages"])
    assert tda11["title"] == []  # TDA 2011's numbers are its own: no 2024 title borrowed
    assert any("approx 2 minutes" in p for p in ace["passages"])


def test_a_rule_part_shows_its_rule_and_every_title_is_a_tda_2024_rule() -> None:
    texts = rule_texts()
    assert lookup(texts, "TDA2024-RP-8")["title"] == ["Hand for Hand Procedures"]
    assert lookup(texts, "TDA2024-35A5")["title"] == ["Misdeals and Fouled Decks"]
    titled = [k for k, v in texts.items() if v["title"]]
    assert len(titled) == 71 + 22 and all(k.startswith("TDA2024-") for k in titled)
    assert lookup(texts, "NOPE-1") == {"title": [], "concepts": [], "passages": []}
