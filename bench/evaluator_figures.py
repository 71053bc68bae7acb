"""Evaluator figures: our showdown evaluation beside the raw evaluators, same hands.

Hold'em: ``holdem_strength`` (card text in, value and name out) beside raw eval7 on cards
already built (``eval7.evaluate`` alone: the floor any wrapper can reach). Omaha:
``omaha_strength`` beside phevaluator's ``evaluate_omaha_cards`` (a bench-only peer).

Each is measured twice: one call per hand (``evaluation``, what a live showdown uses) and
the whole list of deals in one call (``evaluation_batch``: card text in, one numpy pass).
The workload is the same list of deals for both sides; the peers have no batch call, so
they are timed one hand per call, as their users call them.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from pokertable.bench.measure import MIN_REPEATS, Figure, seconds

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
    from pokertable.controller.evaluation.batch import holdem_values, omaha_values

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
        note="one call per hand (card text in)",
    )
    he_batch = Figure(
        "holdem_batch_evals_per_s",
        "hands/s",
        "raw eval7.evaluate on prebuilt cards",
        higher_is_better=True,
        target="within 1.5x of raw eval7 (ratio >= 0.67)",
        note="all deals in one holdem_values call (card text in)",
    )
    holdem_values(holdem[:1])  # builds the seven-card rank table once (~0.3 s), untimed
    for o, b, p in zip(
        *_interleave3(ours_holdem, lambda: holdem_values(holdem), raw_eval7, repeats), strict=True
    ):
        he.add(count / o, count / p)
        he_batch.add(count / b, count / p)

    omaha = _deals(count // 4, 4, seed=2)
    pairs = [((*b, *h)) for h, b in omaha]  # phevaluator: the five board cards, then the four

    omaha_strength(*omaha[0])  # builds the rank table once (~10 ms), as the first showdown does
    omaha_values(omaha[:1])  # numpy's tables, once

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
        note="one call per hand (card text in)",
    )
    om_batch = Figure(
        "omaha_batch_evals_per_s",
        "hands/s",
        "phevaluator evaluate_omaha_cards",
        higher_is_better=True,
        target="at least phevaluator's (ratio >= 1)",
        note="all deals in one omaha_values call (card text in)",
    )
    for o, b, p in zip(
        *_interleave3(ours_omaha, lambda: omaha_values(omaha), phevaluator_omaha, repeats),
        strict=True,
    ):
        om.add(len(omaha) / o, len(omaha) / p)
        om_batch.add(len(omaha) / b, len(omaha) / p)
    return {f.name: f.to_json() for f in (he, he_batch, om, om_batch)}


def _interleave3(
    a: Callable[[], object], b: Callable[[], object], peer: Callable[[], object], repeats: int
) -> tuple[list[float], list[float], list[float]]:
    """Seconds of ours one by one, ours batched and the peer, alternating round by round."""
    out: tuple[list[float], list[float], list[float]] = ([], [], [])
    for _ in range(max(repeats, MIN_REPEATS)):
        for samples, fn in zip(out, (a, b, peer), strict=True):
            samples.append(seconds(fn))
    return out
