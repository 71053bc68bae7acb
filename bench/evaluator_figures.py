"""Evaluator figures: our showdown evaluation beside the raw evaluators, same hands.

Hold'em: ``holdem_strength`` (card text in, value and name out) beside raw eval7 on cards
already built (``eval7.evaluate`` alone: the floor any wrapper can reach). Omaha:
``omaha_strength`` beside phevaluator's ``evaluate_omaha_cards`` (a bench-only peer).
"""

from __future__ import annotations

import random
from typing import Any

from pokertable.bench.measure import Figure, interleave, seconds

DECK = [r + s for r in "23456789TJQKA" for s in "cdhs"]


def _deals(count: int, hole: int, seed: int) -> list[tuple[list[str], list[str]]]:
    rng = random.Random(seed)
    deals = []
    for _ in range(count):
        cards = rng.sample(DECK, hole + 5)
        deals.append((cards[:hole], cards[hole:]))
    return deals


def figures(count: int = 20_000, repeats: int = 5) -> dict[str, dict[str, Any]]:
    import eval7
    from phevaluator import evaluate_omaha_cards

    from pokertable.controller.evaluation import holdem_strength, omaha_strength

    holdem = _deals(count, 2, seed=1)
    raw = [[eval7.Card(c) for c in (*h, *b)] for h, b in holdem]
    evaluate = eval7.evaluate

    def ours_holdem() -> None:
        for h, b in holdem:
            holdem_strength(h, b)

    def raw_eval7() -> None:
        for cards in raw:
            evaluate(cards)

    he = Figure(
        "holdem_evals_per_s",
        "hands/s",
        "raw eval7.evaluate on prebuilt cards",
        higher_is_better=True,
        target="within 1.5x of raw eval7 (ratio >= 0.67)",
    )
    for o, p in zip(
        *interleave(lambda: seconds(ours_holdem), lambda: seconds(raw_eval7), repeats), strict=True
    ):
        he.add(count / o, count / p)

    omaha = _deals(count // 4, 4, seed=2)
    pairs = [((*b, *h)) for h, b in omaha]  # phevaluator: the five board cards, then the four

    omaha_strength(*omaha[0])  # builds the rank table once (~10 ms), as the first showdown does

    def ours_omaha() -> None:
        for h, b in omaha:
            omaha_strength(h, b)

    def phevaluator_omaha() -> None:
        for cards in pairs:
            evaluate_omaha_cards(*cards)

    om = Figure(
        "omaha_evals_per_s",
        "hands/s",
        "phevaluator evaluate_omaha_cards",
        higher_is_better=True,
        target="at least phevaluator's (ratio >= 1)",
    )
    for o, p in zip(
        *interleave(lambda: seconds(ours_omaha), lambda: seconds(phevaluator_omaha), repeats),
        strict=True,
    ):
        om.add(len(omaha) / o, len(omaha) / p)
    return {he.name: he.to_json(), om.name: om.to_json()}
