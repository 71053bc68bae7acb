"""Finishing places: who busted, on which hand, and the place each finished in.

The room hears every table's state. A player seated in a hand (state before: the hand in
play) and gone once that hand is complete (after the hand, players with no chips leave
the table) busted on that hand. His place is one more than the players still alive in
the room (with chips, or all in) once his hand is done.

Players busting on the same hand share a place, the best of the places their busts
cover (52 left, 3 bust: all three finish 50th):

- during hand-for-hand (TDA 2024 RP-8-A) "the same hand" is the room's: every table's
  hand in progress at the announcement is one hand, then each hand the room releases at
  every table together (``room.hand_for_hand``: ``hands`` counts them). Busts at two
  tables on one hand-for-hand hand are one tie; the ruling cites RP-8-A.
- otherwise, players busting on one table's hand are tied too: no TDA rule orders them
  (houses often rank by the chips each started the hand with; the table does not publish
  those), so the room shows the tie and the director decides.

The project has no payout structure: which places pay, and how much a shared place
pays, is the tournament server's; the room computes the tie RP-8-A makes.

>>> playing = [{"seat": 1, "player": "Ann", "stack": 0, "status": "all_in"},
...            {"seat": 2, "player": "Bob", "stack": 900, "status": "active"}]
>>> f = Finishes().seen("t1", {"hand_id": "t1-h1", "street": "river", "seats": playing},
...                     players_left=3)
>>> f = f.seen("t1", {"hand_id": "t1-h1", "street": "complete",
...                   "seats": [{"seat": 2, "player": "Bob", "stack": 1900}]}, players_left=2)
>>> [(row["place"], row["player"], row["hand_id"]) for row in f.rows()]
[(3, 'Ann', 't1-h1')]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any


@dataclass(frozen=True, slots=True)
class Finish:
    player: str
    table: str
    hand_id: str
    group: tuple[str, ...]
    """The hand the bust belongs to: ("h4h", n) for the room's hand-for-hand hand n (0:
    the hands in progress at the announcement), else ("hand", table, hand id)."""
    place: int


def _name(seat: Mapping[str, Any]) -> str:
    return str(seat.get("player") or f"seat {seat['seat']}")


def _in_hand(state: Mapping[str, Any]) -> dict[str, str]:
    """Seat number -> player of the seats playing the hand in progress."""
    if state.get("street") in (None, "complete"):
        return {}
    return {
        str(s["seat"]): _name(s)
        for s in state.get("seats", ())
        if s.get("status") in ("active", "all_in")
    }


def _alive(state: Mapping[str, Any]) -> set[str]:
    return {
        _name(s)
        for s in state.get("seats", ())
        if s.get("status") != "empty" and (s.get("stack", 0) + s.get("bet", 0) > 0
                                           or s.get("status") == "all_in")
    }


@dataclass(frozen=True, slots=True)
class Finishes:
    """Every bust the room has seen, with its place; pure (states in, places out)."""

    rule_id: str = "TDA2024-RP-8A"
    """What a hand-for-hand tie cites (the room's profile: ``cite("hand_for_hand_payoff")``)."""
    last: tuple[tuple[str, tuple[str, str, tuple[tuple[str, str], ...]]], ...] = ()
    """Per table, the last state's (hand id, street, seats playing it)."""
    finishes: tuple[Finish, ...] = ()

    def seen(
        self,
        table: str,
        state: Mapping[str, Any],
        *,
        players_left: int,
        hand_for_hand: int | None = None,
    ) -> Finishes:
        """A table's new state. ``players_left``: alive in the room with this state counted;
        ``hand_for_hand``: the room's hand-for-hand hand number, None when not playing it."""
        hand_id = str(state.get("hand_id"))
        before = dict(self.last).get(table)
        last = dict(self.last)
        last[table] = (hand_id, str(state.get("street")), tuple(sorted(_in_hand(state).items())))
        finishes = self.finishes
        if before is not None and before[0] == hand_id and state.get("street") == "complete":
            alive = _alive(state)
            gone = [p for _, p in before[2] if p not in alive]
            if gone:
                group: tuple[str, ...] = (
                    ("h4h", str(hand_for_hand))
                    if hand_for_hand is not None
                    else ("hand", table, hand_id)
                )
                place = players_left + 1  # the best place the tie covers
                finishes = tuple(
                    replace(f, place=place) if f.group == group else f for f in finishes
                ) + tuple(Finish(p, table, hand_id, group, place) for p in sorted(gone))
        return replace(self, last=tuple(sorted(last.items())), finishes=finishes)

    def rows(self) -> list[dict[str, Any]]:
        """The eliminated players for the leaderboard, best place first."""
        tied: dict[tuple[str, ...], int] = {}
        for f in self.finishes:
            tied[f.group] = tied.get(f.group, 0) + 1
        rows = []
        for f in sorted(self.finishes, key=lambda f: (f.place, f.player)):
            row: dict[str, Any] = {"place": f.place, "player": f.player, "table": f.table,
                                   "hand_id": f.hand_id, "tied": tied[f.group],
                                   "hand_for_hand": f.group[0] == "h4h"}
            if row["hand_for_hand"] and tied[f.group] > 1:
                row["rule_ids"] = [self.rule_id]
            rows.append(row)
        return rows


def players_left(states: Mapping[str, Mapping[str, Any]]) -> int:
    """Players alive in the room: seated with chips, or all in."""
    return sum(len(_alive(s)) for s in states.values())
