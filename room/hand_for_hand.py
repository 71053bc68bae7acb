"""Hand-for-hand across the room (TDA 2024 RP-8), as a pure model: when every table has
finished its hand, the next hand starts at all of them together.

The director announces it ("finish the current hand you're on, then hold up"); every table
holds its next hand start (``controller/table/hand_for_hand.py``). Once every table in play
(two or more players with chips) is between hands, and has played the hand it was last
released for, the room releases the next hand everywhere (``deal_next``). The level clock
stops between hands and loses a fixed time per hand, as the profile's
``hand_for_hand_clock`` says:

- ``deduct_up_to_3_min`` (TDA 2024 RP-8-B/C/D): the hand in progress at the announcement
  runs on the clock; then the clock stops, and after each hand-for-hand hand it is reduced
  by ``minutes_per_hand`` (2 recommended by RP-8-C, at most 3 by RP-8-B).
- ``fixed_2_min_per_hand`` (Clubs NZ RP-8-B): the clock stops at the announcement and the
  hand then in progress counts as the first hand: at the start of every following hand the
  clock is set ``minutes_per_hand`` lower (17:30 -> 15:30 -> 13:30).

An all-in and call during hand-for-hand stays face down (RP-8-F, the table's
``runout_held``) until the room's ``resume_runout``: ``release_runouts`` sends it once
every other table in play is done with its hand.

Blinds go up when the time runs out (RP-8-D): ``TournamentClock.advance`` moves on while
the clock is stopped. Time comes in as an argument, so every step is tested without waiting.

>>> from pokertable.room.clock import TournamentClock, parse_structure
>>> clock = TournamentClock.start(parse_structure('''
... [[step]]
... small_blind = 100
... big_blind = 200
... minutes = 20
... '''), now_ms=0)
>>> playing = {"t1": {"hand_number": 4, "street": "flop", "seats": SEATS},
...            "t2": {"hand_number": 7, "street": "complete", "seats": SEATS}}
>>> h4h, clock = HandForHand().announce(clock, now_ms=60_000)
>>> h4h, clock, release = h4h.step(playing, clock, now_ms=90_000)
>>> release, h4h.waiting_for(playing)
(False, ['t1'])
>>> playing["t1"] = {**playing["t1"], "street": "complete"}
>>> h4h, clock, release = h4h.step(playing, clock, now_ms=120_000)
>>> release, clock.remaining_ms(now_ms=999_999) // 1000  # stopped after the current hand
(True, 1080)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from pokertable.controller.rules import HandForHandClock
from pokertable.room.clock import TournamentClock

RP8B_MAX_MINUTES = 3
SEATS = [
    {"seat": 1, "stack": 100, "status": "active"},
    {"seat": 2, "stack": 100, "status": "active"},
]
"""Two players with chips: a table in play (for the examples)."""


def in_play(state: Mapping[str, Any]) -> bool:
    """A table that can deal: two or more players with chips (all in counts: his chips are
    in the pot, and the hand is still on)."""
    return (
        sum(
            1
            for s in state.get("seats", [])
            if (s.get("stack", 0) > 0 and s.get("status") != "empty")
            or s.get("status") == "all_in"
        )
        >= 2
    )


def between_hands(state: Mapping[str, Any]) -> bool:
    return state.get("street") in (None, "complete")


@dataclass(frozen=True, slots=True)
class HandForHand:
    scheme: HandForHandClock = HandForHandClock.DEDUCT_UP_TO_3_MIN
    minutes_per_hand: int = 2
    on: bool = False
    released: tuple[tuple[str, int], ...] | None = None
    """Each table's hand number when the room last released a hand (None: not yet)."""
    hands: int = 0
    """Hand-for-hand hands released so far."""
    runouts: tuple[tuple[str, str], ...] = ()
    """(table, hand id) of every held all-in runout the room released (RP-8-F)."""

    def __post_init__(self) -> None:
        if self.minutes_per_hand < 0:
            raise ValueError("hand-for-hand minutes per hand: 0 or more")
        if (
            self.scheme is HandForHandClock.DEDUCT_UP_TO_3_MIN
            and self.minutes_per_hand > RP8B_MAX_MINUTES
        ):
            raise ValueError(
                f"RP-8-B: at most {RP8B_MAX_MINUTES} minutes per hand are "
                f"deducted, got {self.minutes_per_hand}"
            )

    def announce(self, clock: TournamentClock, now_ms: int) -> tuple[HandForHand, TournamentClock]:
        """RP-8-A: "finish the current hand you're on, then hold up"."""
        if self.on:
            return self, clock
        if self.scheme is HandForHandClock.FIXED_2_MIN_PER_HAND:
            clock = clock.pause(now_ms)  # NZ: the hand in progress is the first 2-minute hand
        return replace(self, on=True, released=None, hands=0), clock

    def end(self, clock: TournamentClock, now_ms: int) -> tuple[HandForHand, TournamentClock]:
        """Hand-for-hand is over: the clock runs again."""
        if not self.on:
            return self, clock
        return replace(self, on=False, released=None), clock.resume(now_ms)

    def waiting_for(self, states: Mapping[str, Mapping[str, Any]]) -> list[str]:
        """Tables in play still on a hand (or not yet through the hand released to them)."""
        done = dict(self.released or ())
        return sorted(
            t
            for t, s in states.items()
            if in_play(s) and (not between_hands(s) or s.get("hand_number", 0) <= done.get(t, -1))
        )

    def step(
        self, states: Mapping[str, Mapping[str, Any]], clock: TournamentClock, now_ms: int
    ) -> tuple[HandForHand, TournamentClock, bool]:
        """After a table's state changed: release the next hand when every table is done."""
        if not self.on or self.waiting_for(states) or not any(map(in_play, states.values())):
            return self, clock, False  # (no table in play yet: nothing to release)
        per_hand = self.minutes_per_hand * 60_000
        if self.scheme is HandForHandClock.FIXED_2_MIN_PER_HAND:
            clock = clock.add_time(-per_hand)  # set lower at the start of every next hand
        else:
            if self.released is not None:
                clock = clock.add_time(-per_hand)  # after each hand-for-hand hand
            clock = clock.pause(now_ms)
        released = tuple(
            sorted((t, int(s.get("hand_number", 0))) for t, s in states.items() if in_play(s))
        )
        return replace(self, released=released, hands=self.hands + 1), clock, True

    def release_runouts(
        self, states: Mapping[str, Mapping[str, Any]]
    ) -> tuple[HandForHand, list[str]]:
        """RP-8-F "until instructed": a table holding an all-in runout face down runs it
        out once every other table in play has finished its hand (or holds one too), so
        the room knows who is left before the cards decide. Each runout is released once."""
        if not self.on:
            return self, []
        held = {
            t: str(s.get("hand_id"))
            for t, s in states.items()
            if s.get("runout_held") and (t, str(s.get("hand_id"))) not in self.runouts
        }
        if not held or any(t not in held and not states[t].get("runout_held")
                           for t in self.waiting_for(states)):
            return self, []
        return replace(self, runouts=(*self.runouts, *sorted(held.items()))), sorted(held)
