"""Exact all-in equities for the broadcast: win and tie shares per seat, outs, labels.

Pure: cards in, shares out; no clock, no I/O, no randomness that is not seeded from the
cards themselves, so the same spot always gives the same figures (a broadcast replayed
from the journal shows what the live one showed).

Policy (documented in docs/equity.md): every hold'em spot is enumerated exactly, since the
largest (heads-up pre-flop, 1,712,304 boards) fits the budget. An Omaha spot is exact when
its boards times seats times the 60 two-plus-three hands fit ``EXACT_BUDGET`` evaluations
(every flop, turn and river spot of up to ten seats does); pre-flop Omaha is sampled, with
the 95 % error bound of the sample in ``Equities.error_bound``.

>>> spot = equities("NLHE", {1: ("As", "Ah"), 2: ("Ks", "Kh")}, ("2c", "7d", "9h", "Jc"))
>>> [(s.seat, round(s.win, 4), s.label) for s in spot.seats], spot.exact, spot.boards
([(1, 0.9545, 'Pair'), (2, 0.0455, 'Pair')], True, 44)
>>> spot.seats[1].outs
('Kc', 'Kd')
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from pokertable.controller.extras import needs_extra

try:
    import numpy as np
    import numpy.typing as npt
except ModuleNotFoundError as missing:
    raise needs_extra(missing, "broadcast", "exact equities") from None

from pokertable.controller.handrank import (
    ValueArray,
    card_id,
    card_text,
    category,
    combination_indices,
    rank_keys,
    seven_card_values,
    suit_lanes,
    values_from_parts,
)

EXACT_BUDGET = 8_000_000
"""Hand evaluations one spot may cost before it is sampled instead (~1 s here)."""
CHUNK = 1 << 17
"""Boards evaluated at once: bounds memory to ~25 MB on a Pi whatever the spot."""
OMAHA = ("PLO", "PLO4", "OMAHA")


@dataclass(frozen=True, slots=True)
class SeatEquity:
    seat: int
    win: float
    """Share of boards this seat wins alone."""
    tie: float
    """Share of boards this seat splits with others."""
    equity: float
    """Share of the pot this seat expects: wins plus its part of each split."""
    label: str
    """Its best hand now ("Pair", "Flush"; pre-flop "Pair" or "High Card")."""
    outs: tuple[str, ...] = ()
    """On the turn, for a seat behind: the river cards that give it the pot or a share."""


@dataclass(frozen=True, slots=True)
class Equities:
    seats: tuple[SeatEquity, ...]
    boards: int
    """Boards counted: every possible one when exact, else the sample size."""
    exact: bool
    error_bound: float
    """0 when exact; else the 95 % half-width of the largest seat's win share."""


def _parse(cards: Sequence[str], what: str) -> list[int]:
    try:
        return [card_id(card) for card in cards]
    except ValueError as error:
        raise ValueError(f"{what}: {error}") from None


def _check_spot(
    variant: str, holes: Mapping[int, Sequence[str]], board: Sequence[str], dead: Sequence[str]
) -> tuple[bool, dict[int, list[int]], list[int], list[int]]:
    omaha = variant.upper() in OMAHA
    hole_size = 4 if omaha else 2
    if len(holes) < 2:
        raise ValueError(f"holes: equity needs two or more live hands, got {len(holes)}")
    if len(board) not in (0, 3, 4, 5):
        raise ValueError(f"board: {len(board)} cards; a board has 0, 3, 4 or 5")
    parsed = {seat: _parse(cards, f"seat {seat}") for seat, cards in holes.items()}
    for seat, cards in parsed.items():
        if len(cards) != hole_size:
            raise ValueError(f"seat {seat}: {len(cards)} hole cards; {variant} has {hole_size}")
    board_ids, dead_ids = _parse(board, "board"), _parse(dead, "dead")
    seen: dict[int, str] = {}
    for owner, cards in [*((f"seat {s}", c) for s, c in parsed.items()),
                         ("board", board_ids), ("dead", dead_ids)]:
        for card in cards:
            if card in seen:
                raise ValueError(f"{owner}: {card_text(card)} is also in {seen[card]}")
            seen[card] = owner
    return omaha, parsed, board_ids, dead_ids


def equities(
    variant: str,
    holes: Mapping[int, Sequence[str]],
    board: Sequence[str] = (),
    dead: Sequence[str] = (),
) -> Equities:
    """Win/tie/equity per seat of the hands in ``holes`` (seat -> cards) on ``board``.

    ``dead`` are cards the table knows are out of play (burns, mucked hands): they cannot
    come on the board. Raises ValueError naming the seat or card for a bad spot.
    """
    omaha, parsed, board_ids, dead_ids = _check_spot(variant, holes, board, dead)
    seats = sorted(parsed)
    used = {c for cards in parsed.values() for c in cards} | set(board_ids) | set(dead_ids)
    deck = np.array([c for c in range(52) if c not in used], dtype=np.int64)
    missing = 5 - len(board_ids)
    if len(deck) < missing:
        raise ValueError(f"dead: only {len(deck)} cards left for {missing} board cards")
    per_board = len(seats) * (60 if omaha else 1)
    total = _count(len(deck), missing)
    exact = total * per_board <= EXACT_BUDGET
    if exact:
        runouts = deck[combination_indices(len(deck), missing)]
    else:
        runouts = _sample(deck, missing, max(1, EXACT_BUDGET // per_board), seats, parsed,
                          board_ids, dead_ids)
    wins = np.zeros(len(seats))
    ties = np.zeros(len(seats))
    shares = np.zeros(len(seats))
    for start in range(0, len(runouts), CHUNK):
        chunk = runouts[start:start + CHUNK]
        full = np.concatenate([np.broadcast_to(np.array(board_ids, dtype=np.int64),
                                               (len(chunk), len(board_ids))), chunk], axis=1)
        values = _all_values(parsed, seats, full, omaha)
        winners = values == values.max(axis=0)
        count = winners.sum(axis=0, dtype=np.int8)
        for splits in np.unique(count).tolist():
            # boards split ``splits`` ways: each winner gets 1/splits of the pot
            won = np.count_nonzero(winners & (count == splits), axis=1)
            (wins if splits == 1 else ties)[:] += won
            shares += won / splits
    boards = len(runouts)
    outs = _outs(parsed, seats, board_ids, deck, omaha) if len(board_ids) == 4 else {}
    labels = _labels(parsed, seats, board_ids, omaha)
    result = tuple(
        SeatEquity(seat, float(wins[i] / boards), float(ties[i] / boards),
                   float(shares[i] / boards), labels[i], outs.get(seat, ()))
        for i, seat in enumerate(seats)
    )
    bound = 0.0 if exact else 1.96 * float(np.sqrt(max(
        s.win * (1 - s.win) for s in result) / boards))
    return Equities(result, boards, exact, bound)


def _count(n: int, k: int) -> int:
    from math import comb

    return comb(n, k)


def _sample(
    deck: npt.NDArray[np.int64], missing: int, size: int, seats: list[int],
    parsed: dict[int, list[int]], board_ids: list[int], dead_ids: list[int],
) -> npt.NDArray[np.int64]:
    """``size`` random runouts, seeded from the spot's cards so the answer is repeatable."""
    spot = repr((seats, [parsed[s] for s in seats], board_ids, sorted(dead_ids)))
    seed = int.from_bytes(hashlib.sha256(spot.encode()).digest()[:8], "little")
    rng = np.random.default_rng(seed)
    keys = rng.random((size, len(deck)))
    picked = np.argpartition(keys, missing, axis=1)[:, :missing]
    return deck[picked]


def _omaha_values(hole: list[int], full_boards: npt.NDArray[np.int64]) -> ValueArray:
    """Strength of one Omaha hand (exactly two hole and three board cards) per board."""
    triples = combination_indices(5, 3).astype(np.int64)
    board_triples = full_boards[:, triples]  # (boards, 10, 3)
    pairs = np.array(list(combinations(hole, 2)), dtype=np.int64)  # (6, 2)
    keys = rank_keys(board_triples)[:, :, None] + rank_keys(pairs)[None, None, :]
    lanes = suit_lanes(board_triples)[:, :, None] + suit_lanes(pairs)[None, None, :]
    values = values_from_parts(keys, lanes, 5)  # (boards, 10, 6)
    result: ValueArray = values.reshape(len(full_boards), -1).max(axis=1)
    return result


def _all_values(parsed: dict[int, list[int]], seats: list[int],
                full: npt.NDArray[np.int64], omaha: bool) -> ValueArray:
    """(seats, boards) strengths. Hold'em sums each board's keys once and evaluates every
    seat in one call (numpy's per-call cost dominated a nine-way flop otherwise)."""
    if omaha:
        return np.stack([_omaha_values(parsed[seat], full) for seat in seats])
    holes = np.array([parsed[seat] for seat in seats], dtype=np.int64)
    keys = rank_keys(full)[None, :] + rank_keys(holes)[:, None]
    lanes = suit_lanes(full)[None, :] + suit_lanes(holes)[:, None]
    return values_from_parts(keys, lanes, 7)


def _values_now(parsed: dict[int, list[int]], seats: list[int], board: list[int],
                omaha: bool) -> list[int]:
    """Each seat's strength with the board as it is (three to five cards), vectorised."""
    holes = np.array([parsed[seat] for seat in seats], dtype=np.int64)
    if not omaha:
        hands = np.concatenate([holes, np.broadcast_to(np.array(board), (len(seats),
                                                                          len(board)))], axis=1)
        return [int(v) for v in seven_card_values(hands)]
    triples = np.array(list(combinations(board, 3)), dtype=np.int64)  # (t, 3)
    pairs = holes[:, combination_indices(4, 2).astype(np.int64)]  # (seats, 6, 2)
    keys = rank_keys(pairs)[:, :, None] + rank_keys(triples)[None, None, :]
    lanes = suit_lanes(pairs)[:, :, None] + suit_lanes(triples)[None, None, :]
    return [int(v) for v in values_from_parts(keys, lanes, 5).reshape(len(seats), -1).max(1)]


def _labels(parsed: dict[int, list[int]], seats: list[int], board: list[int], omaha: bool
            ) -> list[str]:
    """Hand-strength labels: the category now; pre-flop, "Pair" or "High Card"."""
    if len(board) < 3:
        return ["Pair" if len({card // 4 for card in parsed[seat]}) < len(parsed[seat])
                else "High Card" for seat in seats]
    return [category(value) for value in _values_now(parsed, seats, board, omaha)]


def _outs(
    parsed: dict[int, list[int]], seats: list[int], board: list[int],
    deck: npt.NDArray[np.int64], omaha: bool,
) -> dict[int, tuple[str, ...]]:
    """On the turn: for each seat not among the leaders now, the rivers that give it a share."""
    now = dict(zip(seats, _values_now(parsed, seats, board, omaha), strict=True))
    lead = max(now.values())
    full = np.concatenate([np.broadcast_to(np.array(board, dtype=np.int64), (len(deck), 4)),
                           deck.reshape(-1, 1)], axis=1)
    values = _all_values(parsed, seats, full, omaha)
    best = values.max(axis=0)
    return {
        seat: tuple(card_text(int(card)) for card in deck[values[i] == best])
        for i, seat in enumerate(seats) if now[seat] < lead
    }
