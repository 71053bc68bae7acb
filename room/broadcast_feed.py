"""The delayed broadcast as flat JSON and CSV, for graphics systems that poll HTTP.

vMix (Data Sources), Singular (Data Stream / JSON), OBS text sources (through a plugin or
a script) and spreadsheets read a flat object or table, not MQTT. This view is built only
from what the broadcast relay has *released* under ``broadcast/`` (``room.broadcast``), so
it is exactly as late as the overlay page: no hole card, bet or board before the delay.

Pure: released messages in, rows out. ``room.overlay_service`` serves it over HTTP.

>>> feed = BroadcastFeed(delay_s=60)
>>> feed.released("broadcast/state", {"hand_id": "h1", "hand_number": 3, "street": "flop",
...     "board": ["As", "Kd", "7c"], "pots": [{"amount": 600, "eligible": [1, 2]}],
...     "level": {"number": 2, "small_blind": 100, "big_blind": 200, "ante": 0},
...     "seats": [{"seat": 1, "player": "Ann", "stack": 4000, "bet": 200, "status": "active"},
...               {"seat": 2, "player": "Bob", "stack": 3000, "bet": 0, "status": "active"}]})
>>> feed.released("broadcast/hole_cards/1", {"hand_id": "h1", "seat": 1, "cards": ["Ah", "Ad"]})
>>> [(r["seat"], r["name"], r["cards"], r["pot"]) for r in feed.rows()]
[(1, 'Ann', 'Ah Ad', 800), (2, 'Bob', '', 800)]
>>> print(feed.as_csv().splitlines()[0])
table,hand_id,hand_number,street,board,pot,level,small_blind,big_blind,ante,game,seat,name,stack,bet,status,cards,upcards,equity,win,tie,hand_label
"""

from __future__ import annotations

import csv
import io
from typing import Any

COLUMNS = (
    "table",
    "hand_id",
    "hand_number",
    "street",
    "board",
    "pot",
    "level",
    "small_blind",
    "big_blind",
    "ante",
    "game",
    "seat",
    "name",
    "stack",
    "bet",
    "status",
    "cards",
    "upcards",
    "equity",
    "win",
    "tie",
    "hand_label",
)
"""One row per occupied seat; the hand's fields repeat on every row (a flat table). ``game``
is the PHH code of the game dealt (mixed games: the level's); ``upcards`` a stud seat's
upcards, which everyone sees (blank in the board games)."""


class BroadcastFeed:
    """The latest released state, the hand's released hole cards and equities."""

    def __init__(self, delay_s: float, table: str = "") -> None:
        self.delay_s = delay_s
        self.table = table
        self._state: dict[str, Any] | None = None
        self._holes: dict[int, list[str]] = {}
        self._hand: object = None
        self._equities: dict[int, dict[str, Any]] = {}

    def released(self, leaf: str, payload: dict[str, Any]) -> None:
        """A message the relay has just published under ``broadcast/``."""
        if leaf == "broadcast/state":
            self._state = payload
            self._new_hand(payload.get("hand_id"))
        elif leaf.startswith("broadcast/hole_cards/"):
            if payload.get("hand_id") != self._hand:
                self._new_hand(payload.get("hand_id"))
            self._holes[int(payload["seat"])] = [str(c) for c in payload.get("cards", ())]
        elif leaf == "broadcast/equities" and payload.get("hand_id") == self._hand:
            self._equities = {int(s["seat"]): s for s in payload.get("seats", ())}

    def _new_hand(self, hand_id: object) -> None:
        if hand_id != self._hand:
            self._hand, self._holes, self._equities = hand_id, {}, {}

    def hand(self) -> dict[str, Any]:
        """The hand's own fields (no seat)."""
        state = self._state or {}
        level = state.get("level") or {}
        pot = sum(p.get("amount", 0) for p in state.get("pots", ()))
        if state.get("street") != "complete":  # once complete, the bets are in the awards
            pot += sum(s.get("bet", 0) for s in state.get("seats", ()))
        return {
            "table": self.table,
            "hand_id": state.get("hand_id") or "",
            "hand_number": state.get("hand_number", ""),
            "street": state.get("street") or "",
            "board": " ".join(state.get("board", ())),
            "pot": pot,
            "level": level.get("number", ""),
            "small_blind": level.get("small_blind", ""),
            "big_blind": level.get("big_blind", ""),
            "ante": level.get("ante", ""),
            "game": state.get("game") or "",
        }

    def rows(self) -> list[dict[str, Any]]:
        """One flat row per occupied seat, in seat order."""
        state = self._state or {}
        hand = self.hand()
        live = state.get("street") != "complete"
        rows = []
        for seat in state.get("seats", ()):
            if seat.get("status") == "empty":
                continue
            number = int(seat["seat"])
            spot = self._equities.get(number, {}) if live else {}
            rows.append(
                {
                    **hand,
                    "seat": number,
                    "name": seat.get("player") or "",
                    "stack": seat.get("stack", 0),
                    "bet": seat.get("bet", 0),
                    "status": seat.get("status", ""),
                    "cards": " ".join(self._holes.get(number, ())),
                    "upcards": " ".join(seat.get("upcards") or ()),
                    "equity": _percent(spot.get("equity")),
                    "win": _percent(spot.get("win")),
                    "tie": _percent(spot.get("tie")),
                    "hand_label": spot.get("label") or "",
                }
            )
        return rows

    def as_flat(self) -> dict[str, Any]:
        """One flat object: the hand's fields, then ``seat<N>_<field>`` for every seat (a
        graphics template binds a text field to one key)."""
        flat: dict[str, Any] = {**self.hand(), "delay_s": self.delay_s}
        for row in self.rows():
            for column in COLUMNS[COLUMNS.index("name") :]:
                flat[f"seat{row['seat']}_{column}"] = row[column]
        return flat

    def as_csv(self) -> str:
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(self.rows())
        return out.getvalue()


def _percent(value: object) -> float | str:
    """Equity as a percentage with one decimal; blank when there is none."""
    return round(float(value) * 100, 1) if isinstance(value, (int, float)) else ""
