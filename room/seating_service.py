"""``pokertable seating``: the room's seating desk: balancing, breaking, late entries and the
colour-up chip race, proposed from the tables' states and carried out when the floor confirms.

It reads every table's state, publishes what the model (``room.seating``) proposes,
retained, on ``<venue>/seating``, and takes the floor's controls on
``<venue>/seating/control``: ``confirm_move``, ``cancel_move``, ``break_table``,
``final_table``, ``late_entry``, ``chip_race`` and ``waive_halt``. A confirmed move is
``unseat_player`` at the source table, once the player is out of the hand, then
``seat_player`` at the destination with the stack he took (docs/tournament-server.md).
At a colour-up break (the clock's status) it computes each table's chip race (R24).

What the desk has been asked and is doing is kept in a state file (``--state-file``): a
``kill -9`` or a reboot loses no confirmed move, no waiver, and above all no player in the
middle of a move (unseated at one table, not yet seated at the other). A restarted desk
finishes the move it was making from what the two tables' states show: the player is
already at the destination (done), still at the source (the whole move again), or at
neither (seated at the destination with the stack he took).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from pokertable.controller.rules.profiles import ProfileError, load_profile
from pokertable.mqtt.errors import PayloadError
from pokertable.mqtt.payloads import SCHEMA_VERSION, validate
from pokertable.room.chip_race import chip_race
from pokertable.room.inbound import message_object
from pokertable.room.late_entry import late_stack, seat_late_entrant
from pokertable.room.seating import Move, TableView, balance, break_table, final_table, halts, view
from pokertable.room.serving import (
    broker_address,
    load_state,
    run_until_interrupted,
    save_state,
    service_state_file,
)

LOG = logging.getLogger(__name__)
CONTROLS = (
    "confirm_move",
    "cancel_move",
    "break_table",
    "final_table",
    "late_entry",
    "chip_race",
    "waive_halt",
)
REPLY_S = 30.0


class SeatingService:
    """The desk on its own thread: states in, proposals out, confirmed moves carried out."""

    def __init__(
        self,
        *,
        host: str,
        port: int,
        venue: str,
        login: tuple[str, str],
        profile: str = "tda-2024",
        seed: int | None = None,
        within: int = 1,
        state_file: Path | None = None,
    ) -> None:
        from pokertable.mqtt.topics import ROOT, check_name
        from pokertable.room.service_client import ServiceClient

        self.rules = load_profile(profile)
        self.base = f"{ROOT}/{check_name('venue', venue)}"
        self.draw = random.Random(seed)
        self.within = within
        self._states: dict[str, dict[str, Any]] = {}
        self._proposed: list[Move] = []  # breaking, final table, late entries: until done
        self._confirmed: list[Move] = []
        self._done: list[dict[str, Any]] = []
        self._waived: set[str] = set()
        self._holding: set[str] = set()  # tables the desk paused for a halt (R11-D)
        self._races: dict[str, Any] = {}
        self._raced_break: str | None = None
        self._levels: list[tuple[int, int]] = []  # levels the clock announced, in order
        self._adjustments = 0  # chips late-arrival reductions and races took or added
        self._replies: dict[str, dict[str, Any]] = {}
        self._moving: tuple[Move, str] | None = None  # the move under way and its phase
        self.state_file = state_file
        self._saved = ""
        if state_file is not None and state_file.exists():
            self._restore(load_state(state_file, "seating"))
        self._lock = threading.Condition()
        self._stop = threading.Event()
        self.subscribed = threading.Event()
        self.login = login[0]  # its commands go to cmd/<login>, the only topic it may use
        self.client = ServiceClient("seating", venue, login)
        self.client.on_connect = self._on_connect
        self.client.on_subscribe = lambda *_: self.subscribed.set()
        self.client.on_message = self._on_message
        self.client.connect_async(host, port)
        self._thread = threading.Thread(target=self._run, name="seating", daemon=True)

    def start(self) -> None:
        self.client.loop_start()
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        with self._lock:
            self._lock.notify_all()
        self._thread.join(timeout=5)
        self.client.say_offline_and_disconnect()
        self.client.loop_stop()

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, props: Any
                    ) -> None:
        if not self.client.accepted(reason):
            return
        client.subscribe(
            [
                (f"{self.base}/+/state", 1),
                (f"{self.base}/+/reply", 1),
                (f"{self.base}/seating/control", 1),
                (f"{self.base}/clock/status", 1),
                (f"{self.base}/clock", 1),
            ]
        )
        self.client.say_online()

    # -- what comes in -----------------------------------------------------------------

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        payload = message_object(message, LOG, "seating")
        if payload is None:
            return
        leaf = message.topic[len(self.base) + 1 :]
        with self._lock:
            if leaf == "seating/control":
                self._control(payload)
            elif leaf == "clock/status":
                self._clock_status(payload)
            elif leaf == "clock":
                level = payload.get("level") or {}
                if payload.get("command") == "level" and "small_blind" in level:
                    self._levels.append((int(level["small_blind"]), int(level["big_blind"])))
            elif leaf.endswith("/reply"):
                self._replies[str(payload.get("request_id"))] = payload
            elif leaf.endswith("/state"):
                self._states[leaf.split("/")[0]] = payload
            self._hold_halted()
            self._lock.notify_all()
        self._publish()

    def _hold_halted(self) -> None:
        """R11-D: a halted table is paused (its hand in play finishes; the next one is
        refused) until a player is moved in or the floor waives the halt; then resumed."""
        halted = {h.table for h in halts(self._views(), self.rules)} - self._waived
        for table in sorted(halted | self._holding):
            paused = bool(self._states.get(table, {}).get("paused"))
            if table in halted and not paused:
                self._tell(table, "pause")
                self._holding.add(table)
            elif table not in halted and table in self._holding:
                if paused:
                    self._tell(table, "resume")
                self._holding.discard(table)

    def _tell(self, table: str, command: str) -> None:
        payload = {
            "command": command,
            "request_id": f"seating-{time.time_ns():x}",
            "note": "seating desk: R11-D halt",
        }
        self.client.publish(f"{self.base}/{table}/cmd/{self.login}", json.dumps(payload), qos=1)

    def _views(self) -> list[TableView]:
        return [view(name, state) for name, state in sorted(self._states.items())]

    def _find(self, move_id: str) -> Move | None:
        return next((m for m in self._proposals() if m.id == move_id), None)

    def _control(self, payload: dict[str, Any]) -> None:
        command = payload.get("command")
        try:
            if command in CONTROLS:  # mqtt/schemas/seating_control.json: bad is named, no change
                validate("seating_control", payload)
            if command == "confirm_move":
                move = self._find(str(payload.get("id")))
                if move is None:
                    raise ValueError(f"no proposed move {payload.get('id')!r}")
                self._confirmed.append(move)
            elif command == "cancel_move":
                self._proposed = [m for m in self._proposed if m.id != payload.get("id")]
            elif command == "break_table":
                broken = break_table(self._views(), str(payload["table"]), self.rules, self.draw)
                self._proposed.extend(broken.moves)
            elif command == "final_table":
                drawn = final_table(self._views(), self.rules, self.draw)
                if drawn is None:
                    raise ValueError("the players left do not fit one table yet (RP-9)")
                self._proposed.extend(
                    m for m in drawn.moves if m.source != m.destination or m.seat != m.to_seat
                )
            elif command == "late_entry":
                self._late_entry(payload)
            elif command == "chip_race":
                self._race([int(d) for d in payload["removed"]], payload.get("denomination"))
            elif command == "waive_halt":
                self._waived.add(str(payload["table"]))  # R11-D: a waiver is not a misdeal
                self._hold_halted()
            else:
                raise ValueError(f"unknown control {command!r} (known: {', '.join(CONTROLS)})")
        except PayloadError as error:
            LOG.warning("seating: %s refused: %s", command, error)  # names the field
            self._done.append({"command": command, "ok": False, "error": str(error)})
        except (KeyError, ValueError, TypeError, StopIteration) as error:
            LOG.warning("seating: %s refused: %s", command, error)
            self._done.append({"command": command, "ok": False, "error": str(error)})

    def _late_entry(self, payload: dict[str, Any]) -> None:
        missed = payload.get("levels_missed")
        levels = [tuple(x) for x in missed] if missed is not None else self._levels[:-1]
        stack = late_stack(int(payload["starting_stack"]), levels, self.rules)
        move = seat_late_entrant(
            self._views(), str(payload["player"]), stack.stack, self.rules, self.draw
        )
        self._adjustments -= stack.reduction
        self._proposed.append(
            replace(move, rule_ids=stack.rule_ids, reason=f"late entry: {stack.note}")
        )

    def _clock_status(self, status: dict[str, Any]) -> None:
        removed = status.get("color_up") or []
        if status.get("is_break") and removed and self._raced_break != status.get("step"):
            self._raced_break = str(status.get("step"))
            self._race([int(d) for d in removed], None)

    def _race(self, removed: list[int], denomination: int | None) -> None:
        """Each table's chip race; the new lowest chip is the smallest seen in play."""
        if denomination is None:
            seen = {
                int(d)
                for s in self._states.values()
                for seat in s.get("seats", ())
                for d in (seat.get("stack_chips") or {})
            }
            left = sorted(seen - set(removed))
            if not left:
                raise ValueError("no chip of another denomination read in any stack zone")
            denomination = left[0]
        for name, state in sorted(self._states.items()):
            race = chip_race(name, state, removed, int(denomination), self.rules, self.draw)
            self._races[name] = race.as_json()
            self._adjustments += race.change

    # -- what goes out -----------------------------------------------------------------

    def _proposals(self) -> list[Move]:
        views = self._views()
        for move in self._proposed:  # moves already drawn count as made
            views = [_moved(v, move) for v in views]
        return [*self._proposed, *balance(views, self.rules, self.within)]

    def snapshot(self) -> dict[str, Any]:
        with self._lock:
            views = self._views()
            return {
                "profile": self.rules.name,
                "tables": {v.table: v.count for v in views},
                "moves": [m.as_json() for m in self._proposals()],
                "halts": [
                    {
                        "table": h.table,
                        "short_by": h.short_by,
                        "rule_ids": list(h.rule_ids),
                        "reason": h.reason,
                    }
                    for h in halts(views, self.rules)
                    if h.table not in self._waived
                ],
                "chip_race": self._races,
                "adjustments": self._adjustments,
                "done": self._done[-20:],
            }

    def _publish(self) -> None:
        with self._lock:  # one at a time: a stale snapshot must never be the last retained
            self.client.publish(
                f"{self.base}/seating",
                json.dumps({"schema_version": SCHEMA_VERSION, **self.snapshot()}),
                qos=1, retain=True,
            )
        self._save()

    # -- what survives a restart -------------------------------------------------------

    def _saved_state(self) -> dict[str, Any]:
        moving = self._moving
        return {
            "proposed": [m.as_json() for m in self._proposed],
            "confirmed": [m.as_json() for m in self._confirmed],
            "moving": None if moving is None else {"move": moving[0].as_json(),
                                                   "phase": moving[1]},
            "done": self._done[-20:],
            "waived": sorted(self._waived),
            "holding": sorted(self._holding),
            "races": self._races,
            "raced_break": self._raced_break,
            "levels": self._levels,
            "adjustments": self._adjustments,
        }

    def _restore(self, saved: dict[str, Any]) -> None:
        try:
            self._proposed = [move_from_json(m) for m in saved["proposed"]]
            self._confirmed = [move_from_json(m) for m in saved["confirmed"]]
            moving = saved["moving"]
            self._moving = None if moving is None else (move_from_json(moving["move"]),
                                                        str(moving["phase"]))
            self._done = list(saved["done"])
            self._waived, self._holding = set(saved["waived"]), set(saved["holding"])
            self._races, self._raced_break = dict(saved["races"]), saved["raced_break"]
            self._levels = [(int(sb), int(bb)) for sb, bb in saved["levels"]]
            self._adjustments = int(saved["adjustments"])
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError(f"seating state {self.state_file}: {error!r} (move it aside to "
                             "start afresh)") from None

    def _save(self) -> None:
        """Write the state file when what it holds changed (not at every table state)."""
        if self.state_file is None:
            return
        with self._lock:
            text = json.dumps(self._saved_state())
            if text == self._saved:
                return
            try:
                save_state(self.state_file, text, 0o600)  # it names players and stacks
            except OSError as error:
                LOG.error("seating: could not save its state to %s: %s", self.state_file, error)
                return
            self._saved = text

    # -- carrying out a confirmed move -------------------------------------------------

    def _run(self) -> None:
        resumed = self._moving
        if resumed is not None:  # killed mid-move: finish it before anything else
            result = self._resume(*resumed)
            if self._stop.is_set():
                return  # stopped mid-move: the file still says so, the next start resumes
            self._finish(resumed[0], result)
        while not self._stop.is_set():
            with self._lock:
                while not self._confirmed and not self._stop.is_set():
                    self._lock.wait()
                if self._stop.is_set():
                    return
                move = self._confirmed.pop(0)
                self._moving = (move, "unseating" if move.source else "seating")
            self._save()
            result = self._carry_out(move)
            if self._stop.is_set():
                return
            self._finish(move, result)

    def _finish(self, move: Move, result: dict[str, Any]) -> None:
        with self._lock:
            self._moving = None
            self._done.append(result)
            if result["ok"]:
                self._proposed = [m for m in self._proposed if m.id != move.id]
        self._publish()

    def _seated(self, table: str, seat: int, player: str) -> bool:
        """Whether ``table``'s latest state has ``player`` in ``seat``."""
        found = view(table, self._states.get(table, {})).players.get(seat)
        return found is not None and found[0] == player

    def _resume(self, move: Move, phase: str) -> dict[str, Any]:
        """The move a killed desk was making, finished from what the tables show."""
        needed = {move.source or move.destination, move.destination}
        with self._lock:  # the tables' retained states arrive once the desk subscribes
            while not (self._stop.is_set() or needed <= set(self._states)):
                if not self._lock.wait(timeout=REPLY_S):  # nothing is right without them
                    LOG.warning("seating: move %s waits for the states of %s", move.id,
                                ", ".join(sorted(needed - set(self._states))))
            if self._stop.is_set():
                return {"id": move.id, "player": move.player, "ok": False, "error": "stopped"}
            at_destination = self._seated(move.destination, move.to_seat, move.player)
            at_source = bool(move.source) and self._seated(move.source, move.seat, move.player)
        LOG.warning("seating: resuming move %s (%s): %s", move.id, phase,
                    "done" if at_destination else "again" if at_source else "seating him")
        if at_destination:
            return {"id": move.id, "player": move.player, "ok": True, "error": None}
        if at_source:
            return self._carry_out(move)
        return self._carry_out(move, unseated=True)

    def _command(self, table: str, command: str, **fields: Any) -> dict[str, Any]:
        request_id = f"seating-{time.time_ns():x}"
        payload = {
            "command": command,
            "request_id": request_id,
            "note": "seating desk, confirmed on the floor console",
            **fields,
        }
        self.client.publish(f"{self.base}/{table}/cmd/{self.login}", json.dumps(payload), qos=1)
        with self._lock:
            self._lock.wait_for(
                lambda: request_id in self._replies or self._stop.is_set(), timeout=REPLY_S
            )
            return self._replies.pop(request_id, {"ok": False, "error": "no reply"})

    def _carry_out(self, move: Move, *, unseated: bool = False) -> dict[str, Any]:
        """Unseat at the source (unless ``unseated`` already), then seat at the destination;
        a refused seat puts him back where he was."""
        result: dict[str, Any] = {"id": move.id, "player": move.player, "ok": False}
        if move.source and not unseated:
            with self._lock:  # a player in a hand moves when it is over (R11-A)
                self._lock.wait_for(
                    lambda: (
                        self._stop.is_set()
                        or not view(move.source, self._states.get(move.source, {})).in_hand
                    ),
                    timeout=600,
                )
            if self._stop.is_set():  # nothing sent: the move is still to be made
                return {**result, "error": "stopped"}
            out = self._command(
                move.source, "unseat_player", seat=move.seat, player=move.player, stack=move.stack
            )
            if not out.get("ok"):
                return {**result, "error": f"{move.source}: {out.get('error')}"}
            with self._lock:
                self._moving = (move, "seating")
            self._save()
        out = self._command(
            move.destination, "seat_player", seat=move.to_seat, player=move.player, stack=move.stack
        )
        with self._lock:  # a seat_player a killed desk sent first may have seated him
            there = self._seated(move.destination, move.to_seat, move.player)
        if not out.get("ok") and there:
            return {**result, "ok": True, "error": None}
        if not out.get("ok") and move.source:  # put him back where he was
            self._command(
                move.source, "seat_player", seat=move.seat, player=move.player, stack=move.stack
            )
            return {**result, "error": f"{move.destination}: {out.get('error')}"}
        return {**result, "ok": bool(out.get("ok")), "error": out.get("error")}


def _moved(table: TableView, move: Move) -> TableView:
    players = dict(table.players)
    if table.table == move.source:
        players.pop(move.seat, None)
    if table.table == move.destination:
        players[move.to_seat] = (move.player, move.stack)
    return replace(table, players=players)


def move_from_json(data: dict[str, Any]) -> Move:
    """A move as ``Move.as_json`` wrote it."""
    return Move(str(data["source"]), int(data["seat"]), str(data["player"]),
                int(data["stack"]), str(data["destination"]), int(data["to_seat"]),
                tuple(str(r) for r in data["rule_ids"]), str(data["reason"]), bool(data["td"]))


def state_file_for(args: argparse.Namespace) -> Path:
    """Where the desk keeps its state; with ``--fresh`` the old state is set aside."""
    return service_state_file(args, "seating")


DESCRIPTION = (
    "Run the room's seating desk for a venue: balancing and breaking tables, the final "
    "table, late entries and the colour-up chip race, proposed on the floor console and "
    "carried out at the tables when the floor confirms (docs/tournament-server.md). The "
    "password comes from POKERTABLE_SEATING_PASSWORD."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = DESCRIPTION
    parser.add_argument("--venue", required=True, help="venue name in the topic tree")
    parser.add_argument(
        "--broker", default="127.0.0.1:1883", type=broker_address, help="MQTT broker HOST:PORT"
    )
    parser.add_argument("--user", default="director", help="the desk's broker login")
    parser.add_argument("--profile", default="tda-2024", help="rule profile of the event")
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        help="seed of the seat draws and race cards (default: random)",
    )
    parser.add_argument(
        "--state-file",
        type=Path,
        help="JSON file keeping confirmed moves, the move under way and waivers across "
        "restarts (default seating-<venue>.json in $STATE_DIRECTORY, else the current folder)",
    )
    parser.add_argument(
        "--fresh",
        action="store_true",
        help="a new tournament: set the saved state aside (renamed .old) and start empty",
    )


def run(args: argparse.Namespace) -> int:
    host, port = args.broker
    try:
        service = SeatingService(
            host=host,
            port=port,
            venue=args.venue,
            profile=args.profile,
            seed=args.seed,
            login=(args.user, os.environ.get("POKERTABLE_SEATING_PASSWORD", "")),
            state_file=state_file_for(args),
        )
    except (ProfileError, ValueError) as error:
        print(f"pokertable seating: {error}", file=sys.stderr)
        return 78 if "seating state" in str(error) else 2
    service.start()
    return run_until_interrupted(service)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="pokertable seating")
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
