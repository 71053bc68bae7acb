"""What the pure table session costs per input during hands, without the journal, the broker
or the readers: the e2e rig's heads-up hands (bench/e2e_figures.py ``hand_round``: blinds
as chips, four dealt cards, a call chip, a fold, the zones cleared) as session inputs.

    python -m pokertable.bench.session_inputs [--hands 40] [--rounds 40] [--cold [--by-kind]]

The dealt cards and the call chip are recorded with the session each met, then
``apply`` and ``table_state`` are timed over those pairs in order, best of ``rounds``
(a warm loop: the e2e path runs the same code from a cold cache, several times slower).
``--cold`` times each input alone after writing 16 MB (the caches emptied, as the other
processes on the cores empty them between two chips) and gives the median per step:
the session, the state, and the state's comparison with the last one and its JSON
encoding as ``TableApp`` and the bridge do them (the bridge patches the last state's text,
and ``TableApp`` works out the next turn's facts between inputs: both are done for the
input before, outside the times). Run it with two checkouts' interpreters alternately to
compare them.
"""

from __future__ import annotations

import argparse
import statistics
import time

from pokertable.controller.app.config import parse_config
from pokertable.controller.app.table_app import _without_time, fresh_session
from pokertable.controller.engine.cards import RANKS, SUITS
from pokertable.controller.interpretation.context import prime
from pokertable.controller.table.inputs import (
    CardCleared,
    CardDetected,
    ChipItem,
    ChipsMoved,
    ConsolePress,
    Input,
)
from pokertable.controller.table.public_state import table_state
from pokertable.controller.table.session import TableSession, apply
from pokertable.mqtt.patched_json import PatchedEncoder

DECK = [r + s for r in RANKS for s in SUITS]


def timed_pairs(hands: int) -> list[tuple[TableSession, Input]]:
    """The dealt cards and call chips of ``hands`` heads-up hands, each with its session."""
    session = fresh_session(parse_config({
        "table": {"venue": "bench", "id": "t1", "first_button": 2},
        "levels": [{"number": 1, "small_blind": 100, "big_blind": 200}],
        "players": [{"seat": 1, "name": "Ann", "stack": 1_000_000},
                    {"seat": 2, "name": "Bob", "stack": 1_000_000}],
        "journal": {"path": "unused.jsonl"},
    }))
    pairs: list[tuple[TableSession, Input]] = []
    t = card = chip = 0

    def feed(item: Input, timed: bool = False) -> None:
        nonlocal session
        if timed:
            pairs.append((session, item))
        session, _ = apply(session, item)

    def hundreds(n: int) -> tuple[ChipItem, ...]:
        nonlocal chip
        chip += n
        return tuple(ChipItem(100, "value", f"c{chip - k}") for k in range(n))

    for number in range(1, hands + 1):
        t += 1000
        feed(ConsolePress("hand_start", t))
        button = 2 if number % 2 else 1
        zones = {button: hundreds(1), 3 - button: hundreds(2)}
        for seat, chips in zones.items():  # the blinds, as chips
            t += 1
            feed(ChipsMoved(f"seat{seat}.bet", seat, chips, (), t))
        dealt: dict[int, list[str]] = {1: [], 2: []}
        for _ in range(2):
            for seat in (3 - button, button):
                t += 1
                dealt[seat].append(DECK[card % 52])
                card += 1
                feed(CardDetected(f"seat{seat}.cards", seat, dealt[seat][-1], t,
                                  f"u{dealt[seat][-1]}"), timed=True)
        call = hundreds(1)
        zones[button] += call
        t += 1
        feed(ChipsMoved(f"seat{button}.bet", button, call, (), t), timed=True)
        t += 1
        feed(ConsolePress("fold", t))
        for seat, cards in dealt.items():
            for c in cards:
                t += 1
                feed(CardCleared(f"seat{seat}.cards", seat, c, t, f"u{c}"))
        for seat, chips in zones.items():
            t += 1
            feed(ChipsMoved(f"seat{seat}.bet", seat, (), chips, t))
        t += 1
        feed(ConsolePress("confirm", t))
    return pairs


def per_input_us(pairs: list[tuple[TableSession, Input]], rounds: int) -> dict[str, float]:
    """Best-of-``rounds`` mean microseconds per input: the session alone, the state alone
    (built from the session each input left), and both as ``TableApp`` runs them."""
    after = [apply(s, i)[0] for s, i in pairs]
    best = {"apply": float("inf"), "state": float("inf"), "both": float("inf")}
    for _ in range(rounds):
        start = time.perf_counter_ns()
        for s, i in pairs:
            apply(s, i)
        best["apply"] = min(best["apply"], time.perf_counter_ns() - start)
        start = time.perf_counter_ns()
        for s in after:
            table_state(s, 1)
        best["state"] = min(best["state"], time.perf_counter_ns() - start)
        start = time.perf_counter_ns()
        for s, i in pairs:
            table_state(apply(s, i)[0], 1)
        best["both"] = min(best["both"], time.perf_counter_ns() - start)
    return {k: v / len(pairs) / 1000 for k, v in best.items()}


_EVICT = 16 << 20  # bytes written between two timed inputs: more than the caches hold


def cold_us(pairs: list[tuple[TableSession, Input]], rounds: int) -> dict[str, float]:
    """Median microseconds per step, each input timed alone from emptied caches."""
    return _medians(_cold_samples(pairs, rounds))


def cold_by_kind_us(pairs: list[tuple[TableSession, Input]],
                    rounds: int) -> dict[str, dict[str, float]]:
    """``cold_us`` for each kind of input apart (``card``: a dealt card, ``chips``: the
    call): their costs differ by half, so the median of both hides either's change."""
    samples = _cold_samples(pairs, rounds)
    return {kind: _medians([s for s in samples if s[0] == kind])
            for kind in sorted({s[0] for s in samples})}


_Sample = tuple[str, tuple[int, int, int, int]]  # the input's kind, ns per step


def _medians(samples: list[_Sample]) -> dict[str, float]:
    return {step: statistics.median(s[1][n] for s in samples) / 1000
            for n, step in enumerate(("apply", "state", "compare", "encode"))}


def _cold_samples(pairs: list[tuple[TableSession, Input]], rounds: int) -> list[_Sample]:
    scratch = bytearray(_EVICT)
    zeros = bytes(_EVICT // 64)
    samples: list[_Sample] = []
    encoder = PatchedEncoder()  # the bridge's: the last state's text, patched
    for _ in range(rounds):
        for session, item in pairs:
            last = _without_time(table_state(session, 0))
            encoder.encode(table_state(session, 0))  # what the bridge published last
            prime(session.hand, session.config.rules)  # as ``TableApp`` does between inputs
            scratch[::64] = zeros  # one write per cache line
            t0 = time.perf_counter_ns()
            after, _ = apply(session, item)
            t1 = time.perf_counter_ns()
            state = table_state(after, 1)
            t2 = time.perf_counter_ns()
            changed = _without_time(state) != last
            t3 = time.perf_counter_ns()
            if changed:
                encoder.encode(state)
            t4 = time.perf_counter_ns()
            samples.append((item.kind, (t1 - t0, t2 - t1, t3 - t2, t4 - t3)))
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--cold", action="store_true", help="each input from emptied caches")
    parser.add_argument("--by-kind", action="store_true",
                        help="with --cold: the dealt cards and the call chips apart")
    args = parser.parse_args()
    pairs = timed_pairs(args.hands)
    if args.cold and args.by_kind:
        for kind, by_step in cold_by_kind_us(pairs, args.rounds).items():
            print(f"{kind:5}", "  ".join(f"{k} {v:.1f} us" for k, v in by_step.items()))
        return
    figures = (cold_us if args.cold else per_input_us)(pairs, args.rounds)
    print("  ".join(f"{k} {v:.1f} us" for k, v in figures.items()), f"per input (n={len(pairs)})")


if __name__ == "__main__":
    main()
