"""Seating for the room: balancing (R11), halting play (R11-D), breaking a table (R10) and
the final-table redraw (RP-9), from the tables' published states.

Pure: states and a rule profile in, proposals out; no clock, no I/O. Every random choice
(seat cards, playing cards) comes from the ``random.Random`` the caller passes, so a test
or a replay gets the same draw from the same seed. Every proposal carries its rule ids;
what the rules leave to the TD (R11-C's "predetermined procedure", TDA 2011's breaking,
ACE's pace placement) is proposed and marked ``td`` so the floor confirms or changes it.

>>> from pokertable.controller.rules.profiles import load_profile
>>> state = lambda seats, bb: {"button": bb - 2, "big_blind_seat": bb, "seats": [
...     {"seat": s, "player": f"P{s}" if s in seats else None, "stack": 1000 * (s in seats),
...      "bet": 0, "status": "active" if s in seats else "empty"} for s in range(1, 10)]}
>>> views = [view("A", state({1, 2, 3, 4, 5, 6, 7, 8}, 4)), view("B", state({1, 2, 3, 4, 5}, 3))]
>>> [(m.source, m.seat, m.destination, m.to_seat, m.rule_ids) for m in balance(views,
...     load_profile("tda-2024"))]
[('A', 5, 'B', 6, ('TDA2024-11A', 'TDA2024-11C'))]
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from pokertable.controller.engine.cards import RANKS, SUITS
from pokertable.controller.engine.mixed_games import GameFamily, family
from pokertable.controller.rules import (
    BalanceHalt,
    BalanceSelect,
    BreakingMethod,
    FinalTableSize,
    RuleProfile,
)


@dataclass(frozen=True, slots=True)
class TableView:
    """One table as its state shows it: who sits where with how many chips, and positions."""

    table: str
    max_seats: int
    players: Mapping[int, tuple[str, int]]  # seat -> (player, chips at the table)
    button: int | None = None
    big_blind_seat: int | None = None
    in_hand: bool = False
    # Dealing a stud game: R11-B freezes the button, and ``big_blind_seat`` is the player who
    # would be big blind if the game were hold'em (``engine.mixed_games.stud_hand``).
    stud: bool = False

    @property
    def count(self) -> int:
        return len(self.players)

    def empty_seats(self) -> list[int]:
        return [s for s in range(1, self.max_seats + 1) if s not in self.players]

    def clockwise(self, after: int) -> list[int]:
        """Seats clockwise after ``after`` (exclusive), ending on ``after`` itself."""
        return [((after + i - 1) % self.max_seats) + 1 for i in range(1, self.max_seats + 1)]

    def counter_clockwise(self, before: int) -> list[int]:
        """Seats counter-clockwise from ``before`` (exclusive): "counting backwards"."""
        return [((before - i - 1) % self.max_seats) + 1 for i in range(1, self.max_seats + 1)]

    def reference_big_blind(self) -> int | None:
        """Last hand's big-blind seat; before any hand, the seat two players after the button."""
        if self.big_blind_seat is not None:
            return self.big_blind_seat
        if self.button is None or len(self.players) < 3:
            return None
        occupied = [s for s in self.clockwise(self.button) if s in self.players]
        return occupied[1]


def view(table: str, state: Mapping[str, Any]) -> TableView:
    """A table's published state (mqtt/schemas/state.json) as a ``TableView``."""
    seats = state.get("seats") or ()
    players = {}
    for seat in seats:
        chips = int(seat.get("stack", 0)) + int(seat.get("bet", 0))
        if seat.get("status") != "empty" and (chips > 0 or seat.get("status") == "all_in"):
            players[int(seat["seat"])] = (str(seat.get("player") or f"seat {seat['seat']}"), chips)
    street = state.get("street")
    game = state.get("game")
    return TableView(
        table,
        len(seats) or 9,
        players,
        state.get("button"),
        state.get("big_blind_seat"),
        street not in (None, "complete"),
        stud=isinstance(game, str) and family(game) is GameFamily.STUD,
    )


@dataclass(frozen=True, slots=True)
class Move:
    """One player to move: from ``source`` seat ``seat`` to ``destination`` seat ``to_seat``."""

    source: str
    seat: int
    player: str
    stack: int
    destination: str
    to_seat: int
    rule_ids: tuple[str, ...]
    reason: str
    td: bool = False  # the rules leave the choice to the TD: he confirms or changes it

    @property
    def id(self) -> str:
        return f"{self.source}.{self.seat}-{self.destination}.{self.to_seat}"

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "source": self.source,
            "seat": self.seat,
            "player": self.player,
            "stack": self.stack,
            "destination": self.destination,
            "to_seat": self.to_seat,
            "rule_ids": list(self.rule_ids),
            "reason": self.reason,
            "td": self.td,
        }


def next_big_blind(table: TableView) -> int | None:
    """The seat of the player due to be big blind next hand (R11-A); during stud, the one
    who would be big blind if the game were hold'em (R11-B)."""
    if table.stud and table.big_blind_seat in table.players:
        return table.big_blind_seat
    reference = table.reference_big_blind()
    if reference is None:
        return None
    return next((s for s in table.clockwise(reference) if s in table.players), None)


def worst_seat(table: TableView) -> int | None:
    """R11-A "worst position": the open seat with the fewest hands until its big blind.

    The seat right after last hand's big blind takes the big blind next hand (a single big
    blind, R11-A); an open seat between the small blind and the button waits for the button
    (R10-A), so it comes last. Never the small blind: that is last hand's big-blind seat,
    which is occupied. (open question A25: "worst position" is not defined further.)
    """
    reference = table.reference_big_blind()
    empty = table.empty_seats()
    if not empty:
        return None
    if reference is None:
        return empty[0]
    return next(s for s in table.clockwise(reference) if s in empty)


def count_back(short: TableView, source: TableView) -> tuple[int, int] | None:
    """ACE R11: (open seat, seat to move). Count backwards from the short table's button to
    its open seat, then the same count backwards from the source table's button among its
    players; a count landing on the button goes back one more (addendum ACE-11-EX1)."""
    if short.button is None or source.button is None:
        return None
    backwards = enumerate(short.counter_clockwise(short.button), 1)
    found = next(((n, seat) for n, seat in backwards if seat not in short.players), None)
    if found is None:
        return None
    n, open_seat = found
    occupied = [s for s in source.counter_clockwise(source.button) if s in source.players]
    if not occupied:
        return None
    pick = occupied[(n - 1) % len(occupied)]
    if pick == source.button:
        pick = occupied[n % len(occupied)]
    return open_seat, pick


def _with_move(tables: list[TableView], move: Move) -> list[TableView]:
    out = []
    for t in tables:
        players = dict(t.players)
        if t.table == move.source:
            players.pop(move.seat, None)
        if t.table == move.destination:
            players[move.to_seat] = (move.player, move.stack)
        out.append(replace(t, players=players))
    return out


def balance(tables: Sequence[TableView], rules: RuleProfile, within: int = 1) -> list[Move]:
    """The moves that bring every table within ``within`` players of the others (R11).

    R11-C leaves the source table to "a predetermined procedure": here the table with the
    most players (ties: the first by name) gives to the one with the fewest.
    """
    current = sorted(tables, key=lambda t: t.table)
    moves: list[Move] = []
    for _ in range(sum(t.count for t in current)):
        big = max(current, key=lambda t: t.count)
        short = min(current, key=lambda t: t.count)
        if big.count - short.count <= within:
            break
        move = _one_move(big, short, rules)
        if move is None:
            break
        moves.append(move)
        current = _with_move(current, move)
    return moves


def _one_move(source: TableView, short: TableView, rules: RuleProfile) -> Move | None:
    if rules.balance_player_select is BalanceSelect.COUNT_BACK_FROM_BUTTON:
        found = count_back(short, source)
        if found is None:
            return None
        to_seat, seat = found
        reason = (
            f"counted back from the button to open seat {to_seat} at {short.table}, "
            f"the same count back from the button at {source.table}"
        )
    else:
        seat_or_none, to_or_none = next_big_blind(source), worst_seat(short)
        if seat_or_none is None or to_or_none is None:
            return None
        seat, to_seat = seat_or_none, to_or_none
        reason = (
            f"due to be big blind next at {source.table}; seat {to_seat} is the worst "
            f"position at {short.table}"
        )
    player, stack = source.players[seat]
    ids = tuple(dict.fromkeys(rules.cite("balance_move", "balance_source")))
    return Move(source.table, seat, player, stack, short.table, to_seat, ids, reason)


@dataclass(frozen=True, slots=True)
class Halt:
    """R11-D: play halts at ``table`` until a player is moved in (or the TD waives it)."""

    table: str
    short_by: int
    rule_ids: tuple[str, ...]
    reason: str


def halts(tables: Sequence[TableView], rules: RuleProfile) -> list[Halt]:
    """Tables 3 or more players short of the fullest; TDA 2024 waits for the blinds to be
    impacted: the seat clockwise of last hand's big blind is open (open question A2)."""
    if len(tables) < 2:
        return []
    most = max(t.count for t in tables)
    out = []
    for t in sorted(tables, key=lambda t: t.table):
        short = most - t.count
        if short < 3:
            continue
        if rules.balance_halt is BalanceHalt.BY_ELIMINATION_BLINDS_IMPACTED:
            reference = t.reference_big_blind()
            if reference is None or t.clockwise(reference)[0] in t.players:
                continue
            reason = f"{short} short and the big blind reaches an open seat"
        else:
            reason = f"{short} short of the table with the most players"
        out.append(Halt(t.table, short, (rules.cite("balance_halt"),), reason))
    return out


SUIT_ORDER = SUITS  # clubs < diamonds < hearts < spades (open question A20: a config matter)


def card_key(card: str) -> tuple[int, int]:
    """Highest playing card by suit (TDA Add. 10): rank first, then the suit."""
    return RANKS.index(card[0]), SUIT_ORDER.index(card[1])


def seat_card_order(cards: Mapping[str, str]) -> list[str]:
    """Players in the order they receive seat cards: highest playing card first.

    >>> seat_card_order({"P1": "Kh", "P2": "Ac", "P3": "Ks", "P4": "7d", "P5": "As"})
    ['P5', 'P2', 'P3', 'P1', 'P4']
    """
    return sorted(cards, key=lambda p: card_key(cards[p]), reverse=True)


def _deck(draw: random.Random) -> list[str]:
    deck = [r + s for r in RANKS for s in SUITS]
    draw.shuffle(deck)
    return deck


@dataclass(frozen=True, slots=True)
class Breaking:
    """Where the players of a broken table go, and how it was drawn."""

    table: str
    moves: tuple[Move, ...]
    method: str
    playing_cards: Mapping[str, str] = field(default_factory=dict)  # player -> card shown
    rule_ids: tuple[str, ...] = ()


def seat_pool(
    tables: Iterable[TableView], players: int, draw: random.Random
) -> list[tuple[str, int]]:
    """The open seats the new seat cards stand for: each new player to the table with the
    fewest players at that moment (so tables stay balanced), a random open seat there."""
    counts = {t.table: t.count for t in tables}
    empty = {t.table: t.empty_seats() for t in tables}
    pool = []
    for _ in range(players):
        open_tables = [name for name in sorted(counts) if empty[name]]
        if not open_tables:
            raise ValueError("not enough open seats in the room for the broken table")
        name = min(open_tables, key=lambda n: counts[n])
        seat = draw.choice(empty[name])
        empty[name].remove(seat)
        counts[name] += 1
        pool.append((name, seat))
    return pool


def break_table(
    tables: Sequence[TableView], breaking: str, rules: RuleProfile, draw: random.Random
) -> Breaking:
    """Seats for every player of ``breaking`` at the other tables, per ``seating_breaking``.

    TDA 2024 (R10-B, Add. 10): seat cards for the open seats are scrambled, each player is
    dealt a playing card face up, the highest card by suit gets the first seat card. Clubs
    NZ: each player draws a table card face down. TDA 2011 R7 names no method and ACE
    places players for the pace: both are proposals the TD confirms (``td``).
    """
    gone = next(t for t in tables if t.table == breaking)
    others = [t for t in tables if t.table != breaking]
    pool = seat_pool(others, gone.count, draw)
    method = rules.seating_breaking
    rule = rules.cite("breaking")
    players = [gone.players[s] for s in sorted(gone.players)]
    seats_of = {p: s for s, (p, _) in gone.players.items()}
    cards: dict[str, str] = {}
    draw.shuffle(pool)  # the seat cards, scrambled face down
    if method is BreakingMethod.RANDOM_TWO_STEP:
        deck = _deck(draw)
        cards = {p: deck.pop() for p, _ in players}
        order = seat_card_order(cards)
        reason = "2-step random draw: seat cards in the order of the playing cards"
    else:
        order = [p for p, _ in players]
        reason = {
            BreakingMethod.TD_ASSIGNED_CARD_DRAW: "table card drawn face down",
            BreakingMethod.ASSUME_POSITION: "no method in the rules: the TD assigns the seats",
            BreakingMethod.PACE_PLACEMENT: "placed by the TD to limit the impact on the pace",
        }[method]
    td = method in (BreakingMethod.ASSUME_POSITION, BreakingMethod.PACE_PLACEMENT)
    stacks = dict(players)
    moves = tuple(
        Move(breaking, seats_of[p], p, stacks[p], table, seat, (rule,), reason, td)
        for p, (table, seat) in zip(order, pool, strict=True)
    )
    return Breaking(breaking, moves, method.value, cards, (rule,))


def final_table_size(tables: Sequence[TableView], rules: RuleProfile) -> int:
    """Players at the final table (RP-9; TDA 2011 R9) for the room's table size."""
    seats = max((t.max_seats for t in tables), default=9)
    if rules.final_table_size is FinalTableSize.TDA2011_TEN_FLOP:
        return {6: 7, 7: 8}.get(seats, 10)
    return 7 if seats <= 7 else 9


@dataclass(frozen=True, slots=True)
class FinalTable:
    """The redraw for the final table: every player to a random seat of ``table``."""

    table: str
    moves: tuple[Move, ...]
    button: int | None  # None: not reset (R34), the TD places it
    rule_ids: tuple[str, ...]


def final_table(
    tables: Sequence[TableView], rules: RuleProfile, draw: random.Random, table: str | None = None
) -> FinalTable | None:
    """The final-table redraw once the players left fit one table (RP-9), else None.

    Seats are drawn at random for everyone (R7); the button is drawn again only where the
    profile resets it at the final table (ACE R10); TDA 2024 never resets it (R34).
    """
    live = [t for t in tables if t.count]
    players = [(t.table, s, p, c) for t in live for s, (p, c) in sorted(t.players.items())]
    if len(live) < 2 or len(players) > final_table_size(tables, rules):
        return None
    # RP-9: a 6-handed event's final table is 7-handed: the first table with the seats.
    fitting = [t.table for t in live if t.max_seats >= len(players)]
    target = table or (min(fitting) if fitting else min(t.table for t in live))
    max_seats = next(t.max_seats for t in tables if t.table == target)
    if len(players) > max_seats:
        raise ValueError(f"{len(players)} players do not fit table {target}'s {max_seats} seats "
                         f"(RP-9: give the final table {len(players)} seats in its table.toml)")
    seats = draw.sample(range(1, max_seats + 1), len(players))
    ids = rules.cite("final_table", "random_seating")
    moves = tuple(
        Move(src, seat, p, chips, target, to, ids, "final table redraw")
        for (src, seat, p, chips), to in zip(players, seats, strict=True)
    )
    button = draw.choice(seats) if rules.button_reset_at_final_table else None
    return FinalTable(target, moves, button, ids)
