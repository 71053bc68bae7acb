"""The broadcast lane: equities for the secure feed, and the whole feed held back for TV.

A broadcast shows hole cards, so it must run late (typically 15-60 minutes): a viewer in
the room must not learn anything from it. Delaying only the hole cards is not enough: the
live board and bets beside the delayed cards would tell. So this lane holds the *whole*
feed (state, status, events, hole cards, equities) for ``delay_s`` and releases it under
``<venue>/<table>/broadcast/``; the live room keeps the undelayed public state.

Pure: messages and the time come in as arguments, messages to publish go out. No clock, no
MQTT; ``room.overlay_service`` is the process around it.

>>> lane = BroadcastLane(delay_s=30)
>>> state = {"hand_id": "h1", "board": [], "seats": [
...     {"seat": 1, "status": "active"}, {"seat": 2, "status": "active"}]}
>>> lane.on_message("state", state, now_s=0.0)
[]
>>> lane.on_message("secure/hole_cards/1", {"hand_id": "h1", "seat": 1, "cards": ["As", "Ah"]}, 1)
[]
>>> out = lane.on_message("secure/hole_cards/2", {"hand_id": "h1", "seat": 2,
...                                               "cards": ["Ks", "Kh"]}, now_s=2.0)
>>> [(m.leaf, round(m.payload["seats"][0]["equity"], 3)) for m in out]
[('secure/equities', 0.826)]
>>> [m.leaf for m in lane.due(now_s=31.0)]
['broadcast/state', 'broadcast/hole_cards/1']
>>> [m.leaf for m in lane.due(now_s=40.0)]
['broadcast/hole_cards/2', 'broadcast/equities']
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pokertable.controller.evaluation.equity import Equities, equities

EQUITY_GAMES = frozenset({"NT", "FT", "PO"})
"""The state's ``game`` values whose equities the evaluator computes: high hands on a board.
Hi-lo halves, stud's seven cards and draw's lowball would be shown as false figures."""
LIVE = ("active", "all_in")
"""Seat statuses whose hands are still in the pot."""
RETAINED = ("state", "status", "equities")


@dataclass(frozen=True, slots=True)
class Outgoing:
    leaf: str
    """Topic below the table's base, e.g. ``broadcast/state``."""
    payload: dict[str, Any]
    retain: bool


@dataclass(order=True)
class _Held:
    release_s: float
    order: int
    message: Outgoing = field(compare=False)


HoldListener = Callable[[int, float, Outgoing], None]
"""Told of each message held: its key (the lane's order), release time and message."""


class BroadcastLane:
    """One table's broadcast lane. Feed it the table's messages; publish what it returns.

    ``on_hold`` is told of each message as it is held (the relay writes it to disk,
    ``room.delay_store``); ``restore`` puts back what a previous run held."""

    def __init__(self, delay_s: float, on_hold: HoldListener | None = None) -> None:
        if delay_s < 0:
            raise ValueError(f"broadcast_delay_s: {delay_s} is negative")
        self.delay_s = delay_s
        self.on_hold = on_hold
        self._held: list[_Held] = []
        self._order = 0
        self._state: Mapping[str, Any] | None = None
        self._holes: dict[int, tuple[str, ...]] = {}
        self._hand: str | None = None
        self._last_spot: object = None

    def on_message(self, leaf: str, payload: dict[str, Any], now_s: float) -> list[Outgoing]:
        """A table message (leaf: ``state``, ``events``, ``status``, ``secure/hole_cards/N``).

        Returns what goes out now (``secure/equities``); everything is also held for the
        broadcast subtree and comes out of :meth:`due`.
        """
        now: list[Outgoing] = []
        if leaf == "state":
            self._state = payload
            self._new_hand(payload.get("hand_id"))
        elif leaf.startswith("secure/hole_cards/"):
            if payload.get("hand_id") != self._hand:
                self._new_hand(payload.get("hand_id"))
            self._holes[int(payload["seat"])] = tuple(payload.get("cards", ()))
        elif leaf not in ("events", "status"):
            return now
        self._hold(Outgoing(f"broadcast/{leaf.removeprefix('secure/')}", payload,
                            retain=leaf in RETAINED or leaf.startswith("secure/")), now_s)
        spot = self._equities()
        if spot is not None:
            message = Outgoing("secure/equities", spot, retain=True)
            now.append(message)
            self._hold(Outgoing("broadcast/equities", spot, retain=True), now_s)
        return now

    def due(self, now_s: float) -> list[Outgoing]:
        """Held messages whose delay has passed, oldest first."""
        return [message for _, message in self.due_keyed(now_s)]

    def due_keyed(self, now_s: float) -> list[tuple[int, Outgoing]]:
        """As :meth:`due`, each with the key ``on_hold`` was given."""
        out: list[tuple[int, Outgoing]] = []
        while self._held and self._held[0].release_s <= now_s:
            held = heapq.heappop(self._held)
            out.append((held.order, held.message))
        return out

    def restore(self, key: int, release_s: float, message: Outgoing) -> None:
        """A message a previous run held and did not release: released at its own time,
        in its own order; keys given from now on are larger."""
        heapq.heappush(self._held, _Held(release_s, key, message))
        self._order = max(self._order, key)

    def held_leaves(self) -> list[str]:
        """The topics of the messages still held back (a copy; for tests and status)."""
        return [held.message.leaf for held in list(self._held)]

    def next_release_s(self) -> float | None:
        return self._held[0].release_s if self._held else None

    def _hold(self, message: Outgoing, now_s: float) -> None:
        self._order += 1
        release_s = now_s + self.delay_s
        heapq.heappush(self._held, _Held(release_s, self._order, message))
        if self.on_hold is not None:  # after: a failing listener never drops the message
            self.on_hold(self._order, release_s, message)

    def _new_hand(self, hand_id: object) -> None:
        if hand_id != self._hand:
            self._hand = hand_id if isinstance(hand_id, str) else None
            self._holes = {}

    def _equities(self) -> dict[str, Any] | None:
        """The equities payload when every live hand is known and something changed."""
        state = self._state
        if state is None or state.get("hand_id") != self._hand or self._hand is None:
            return None
        if state.get("street") == "complete":
            return None  # the pots are awarded: the state's ``awards`` say who won
        if state.get("game", "NT") not in EQUITY_GAMES:
            return None  # split pots, stud, draw: no equities rather than wrong ones (#30)
        live = [s["seat"] for s in state.get("seats", ()) if s.get("status") in LIVE]
        if len(live) < 2 or any(len(self._holes.get(seat, ())) < 2 for seat in live):
            return None
        board = tuple(state.get("board", ()))
        dead = tuple(c for seat, cards in sorted(self._holes.items()) if seat not in live
                     for c in cards)
        holes = {seat: self._holes[seat] for seat in live}
        spot_key = (self._hand, board, tuple(sorted(holes.items())), dead)
        if spot_key == self._last_spot:
            return None
        self._last_spot = spot_key
        variant = "PLO" if all(len(cards) == 4 for cards in holes.values()) else "NLHE"
        try:
            spot = equities(variant, holes, board, dead)
        except ValueError as error:
            return {"hand_id": self._hand, "board": list(board), "error": str(error),
                    "seats": []}
        return _payload(self._hand, board, spot)


def _payload(hand_id: str, board: tuple[str, ...], spot: Equities) -> dict[str, Any]:
    return {
        "hand_id": hand_id,
        "board": list(board),
        "exact": spot.exact,
        "boards": spot.boards,
        "error_bound": round(spot.error_bound, 6),
        "seats": [
            {"seat": s.seat, "win": round(s.win, 6), "tie": round(s.tie, 6),
             "equity": round(s.equity, 6), "label": s.label, "outs": list(s.outs)}
            for s in spot.seats
        ],
    }
