"""Differential test: PokerKit generates hands, writes PHH; ``pokertable replay`` must agree.

The corpus is PokerKit's alone (bench/phh_corpus.py never asks our engine). Where the
TDA rules and PokerKit differ, the expected answer comes from the rule, not from us:
finishing stacks with odd chips split by Rule 20-A, and a refusal citing Rule 47 for a
raise PokerKit allows after short all-ins that did not re-open the betting.
"""

from __future__ import annotations

import json

import pytest

from pokertable.bench.phh_corpus import generate
from pokertable.bench.pokerkit_corpus import HAND_FILE, replay_json

pytestmark = pytest.mark.needs("pokerkit")

HANDS = 1200


@pytest.fixture(scope="module")
def replayed(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, dict, object]:
    corpus = generate(HANDS, seed=20241009)
    folder = tmp_path_factory.mktemp("phh")
    proc = replay_json(corpus.hands, folder)
    def index_of(text: str) -> int:
        found = HAND_FILE.search(text)
        assert found, text
        return int(found.group(1))

    results = {}
    for line in proc.stdout.splitlines():
        result = json.loads(line)
        results[index_of(result["hand"])] = result
    errors = {index_of(line): line for line in proc.stderr.splitlines() if line.startswith("error")}
    assert len(results) + len(errors) == HANDS, proc.stderr[-2000:]
    return results, errors, corpus


def test_finishing_stacks_equal_pokerkit_with_odd_chips_by_rule_20A(replayed) -> None:
    results, _, corpus = replayed
    compared = 0
    for index, result in results.items():
        ours = result["finishing_stacks"]
        assert sum(ours) == sum(corpus.pokerkit_stacks[index]), result["hand"]
        assert ours == corpus.expected_stacks[index], (
            result["hand"], ours, corpus.expected_stacks[index], corpus.pokerkit_stacks[index])
        compared += 1
    assert compared > HANDS * 0.9, compared
    # The Rule 20-A oracle is exercised: PokerKit's own split differs in some hands.
    resplit = sum(1 for a, b in zip(corpus.expected_stacks, corpus.pokerkit_stacks, strict=True)
                  if a != b)
    assert resplit > 0


def test_raises_the_rule_47_forbids_are_refused_citing_it(replayed) -> None:
    """Every marked hand stops at its marked raise with a Rule 47 refusal; nothing else is
    refused anywhere in the corpus."""
    _, errors, corpus = replayed
    assert set(errors) == set(corpus.tda_illegal), (
        {i: errors[i] for i in set(errors) - set(corpus.tda_illegal)},
        {i: corpus.tda_illegal[i] for i in set(corpus.tda_illegal) - set(errors)},
    )
    for index, (action, why) in corpus.tda_illegal.items():
        assert f"({action!r})" in errors[index], (errors[index], action, why)
        assert "TDA2024-47" in errors[index], (errors[index], why)
    assert corpus.tda_illegal, "no Rule 47 spot in the corpus: the check above ran on nothing"


def test_corpus_exercises_side_pots_splits_and_all_variants(replayed) -> None:
    by_index, _, _ = replayed
    results = list(by_index.values())
    assert {r["variant"] for r in results} == {"NT", "PO", "FT"}
    assert all(r["complete"] for r in results)
    multi_pot = sum(1 for r in results if len(r["pots"]) >= 2)
    three_pot = sum(1 for r in results if len(r["pots"]) >= 3)
    split = sum(1 for r in results if len({w["pot"] for w in r["winners"]}) < len(r["winners"]))
    assert multi_pot > HANDS * 0.1, multi_pot
    assert three_pot > 10, three_pot
    assert split > 10, split
