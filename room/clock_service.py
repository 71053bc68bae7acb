"""``pokertable clock``: the tournament clock process and its big display page.

It runs the blind structure (``room.clock``) against the real time, tells every table of
the venue on ``<venue>/clock`` (``level``, applied from each table's next hand, Rule 23;
``break_start`` / ``break_end``), publishes what a clock display shows, retained, on
``<venue>/clock/status`` once a second and at every change, and takes the director's
``pause``, ``resume``, ``add_seconds``, ``next_step``, ``hand_for_hand`` and ``deal_next``
on ``<venue>/clock/control``. Players left and the average stack come from the tables' own
states (docs/clock.md). It also runs the room's hand-for-hand (``room.hand_for_hand``,
RP-8: every table's next hand released together, the clock stopped between hands) and
calls time on a player on the clock at any table (``room.player_clocks``, R29).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pokertable.mqtt.errors import PayloadError
from pokertable.mqtt.payloads import SCHEMA_VERSION, validate
from pokertable.mqtt.topics import VENUE_LEAVES
from pokertable.room.chipcounts import Entries, as_csv, leaderboard
from pokertable.room.clock import Change, StructureError, TournamentClock, parse_structure
from pokertable.room.finishing import Finishes, players_left
from pokertable.room.ha_discovery import clock_discovery, table_discovery
from pokertable.room.hand_for_hand import HandForHand
from pokertable.room.inbound import message_object
from pokertable.room.payouts import (
    Chart,
    Payout,
    PayoutError,
    PrizePool,
    icm_deal,
    parse_chart,
    payout_table,
    prizes_for_finishes,
)
from pokertable.room.player_clocks import PlayerClocks
from pokertable.room.serving import (
    add_bind_argument,
    broker_address,
    load_state,
    run_until_interrupted,
    save_state,
    service_state_file,
)
from pokertable.room.web import LOOPBACK, ROOM_DIR, PageServer

LOG = logging.getLogger(__name__)
CONTROLS = ("pause", "resume", "add_seconds", "next_step", "previous_step", "go_to_level",
            "entries", "export", "hand_for_hand", "deal_next", "payouts", "icm_deal",
            "end_deal")


def _now_ms() -> int:
    return time.monotonic_ns() // 1_000_000


class ClockService:
    """The clock on a thread of its own: it wakes each second, on a control, or at a stop."""

    def __init__(self, *, host: str, port: int, venue: str, structure_text: str,
                 login: tuple[str, str], export_dir: Path | None = None,
                 hand_for_hand: HandForHand | None = None,
                 finishes: Finishes | None = None, state_file: Path | None = None,
                 ha_prefix: str | None = None, prize_pool: PrizePool | None = None,
                 chart: Chart | None = None) -> None:
        from pokertable.mqtt.topics import ROOT, check_name
        from pokertable.room.service_client import ServiceClient

        self.venue = check_name("venue", venue)
        self.base = f"{ROOT}/{venue}"
        structure = parse_structure(structure_text)
        self.clock = TournamentClock.start(structure, _now_ms())
        # The clock's state survives a restart (kill -9, a reboot): saved on the wall clock
        # at every change, resumed with the time the process was down counted as played.
        self.state_file = state_file
        self._wall_offset_ms = time.time_ns() // 1_000_000 - _now_ms()
        self._told_index: int | None = None  # the step last announced to the tables
        self._saved: dict[str, Any] | None = None
        self._pending: list[Change] = []  # the director's moves, to announce (locked)
        if state_file is not None and state_file.exists():
            saved = load_state(state_file, "clock")
            self.clock = TournamentClock.restored(structure, saved, self._wall_offset_ms)
            told = saved.get("told_index")
            self._told_index = told if isinstance(told, int) else None
            self._saved = saved
        self._states: dict[str, dict[str, Any]] = {}
        self._offline: set[str] = set()  # tables whose status is not online (not waited for)
        self.h4h = hand_for_hand or HandForHand()
        self.finishes = finishes or Finishes()  # who busted on which hand, and the place
        self.player_clocks = PlayerClocks()
        self._told: list[tuple[str, dict[str, Any]]] = []  # table commands to send (locked)
        self.entries = Entries()
        self.add_ons = 0  # add-ons sold (the prize pool; their chips are in ``entries``)
        self.pool = prize_pool or PrizePool()
        self.chart = chart  # None: the built-in payout chart (room.payouts)
        self.deal: dict[str, Any] | None = None  # an ICM deal the director asked for
        self.export_dir = export_dir
        self._export_asked = False
        self._ask_deal = False
        self._last_board: dict[str, Any] | None = None
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self.subscribed = threading.Event()
        self.login = login[0]
        self.ha_prefix = ha_prefix  # Home Assistant discovery (opt-in): its topic prefix
        self._discovered: set[str] = set()  # tables announced to Home Assistant
        self._level_requests: dict[str, int] = {}  # request id -> the level it announced
        self.refused: dict[str, dict[str, Any]] = {}  # table -> the level it refused, why
        self.client = ServiceClient("clock", venue, login)
        self.client.on_connect = self._on_connect
        self.client.on_subscribe = lambda *_: self.subscribed.set()
        self.client.on_message = self._on_message
        self.client.connect_async(host, port)
        self._thread = threading.Thread(target=self._run, name="clock", daemon=True)

    def start(self) -> None:
        self.client.loop_start()
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        self._thread.join(timeout=5)
        self.client.say_offline_and_disconnect()
        self.client.loop_stop()

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, props: Any
                    ) -> None:
        if not self.client.accepted(reason):
            return
        client.subscribe([(f"{self.base}/+/state", 1), (f"{self.base}/+/status", 1),
                          (f"{self.base}/+/reply", 1), (f"{self.base}/clock/control", 1)])
        self.client.say_online()
        if self.ha_prefix is not None:  # again on every connect: a broker may forget
            self._discover(clock_discovery(self.venue, self.login, self.ha_prefix))
            for table in sorted(self._discovered):
                self._discover(table_discovery(self.venue, table, self.ha_prefix))

    def _discover(self, configs: list[tuple[str, dict[str, Any]]]) -> None:
        for topic, config in configs:
            self.client.publish(topic, json.dumps(config), qos=1, retain=True)

    def _announce_table(self, table: str) -> None:
        """A table seen for the first time becomes a Home Assistant device."""
        if self.ha_prefix is None or table in self._discovered or table in VENUE_LEAVES:
            return  # (``clock/status`` matches ``+/status`` too: not a table)
        try:
            configs = table_discovery(self.venue, table, self.ha_prefix)
        except ValueError as error:  # not a table name (a foreign topic under the venue)
            LOG.warning("clock: no Home Assistant discovery for %r: %s", table, error)
            return
        self._discovered.add(table)
        self._discover(configs)

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        payload = message_object(message, LOG, "clock")
        if payload is None:
            return
        if message.topic.endswith("/clock/control"):
            self._control(payload)
        elif message.topic.endswith("/reply"):
            self._reply(message.topic.split("/")[-2], payload)
        elif message.topic.endswith("/status"):
            table = message.topic.split("/")[-2]
            self._announce_table(table)
            with self._lock:
                if payload.get("state") == "online":
                    self._offline.discard(table)
                else:
                    self._offline.add(table)
        else:
            table = message.topic.split("/")[-2]
            with self._lock:
                self._states[table] = payload
                self.finishes = self.finishes.seen(  # RP-8-A: busts on one H4H hand tie
                    table, payload, players_left=players_left(self._states),
                    hand_for_hand=self.h4h.hands if self.h4h.on else None)
                self.player_clocks = self.player_clocks.seen(table, payload, _now_ms())
        self._wake.set()

    def _reply(self, table: str, payload: dict[str, Any]) -> None:
        """A table's answer to a level: a refusal stays on the display until that table
        accepts a level."""
        with self._lock:
            number = self._level_requests.get(str(payload.get("request_id")))
            if number is None:
                return
            if payload.get("ok") is True:
                self.refused.pop(table, None)
            else:
                self.refused[table] = {"table": table, "level": number,
                                       "error": str(payload.get("error"))[:200]}
                LOG.error("table %s refused level %s: %s", table, number,
                          payload.get("error"))

    def _control(self, payload: dict[str, Any]) -> None:
        try:  # mqtt/schemas/clock_control.json: a bad control is named and changes nothing
            validate("clock_control", payload)
        except PayloadError as error:
            LOG.warning("clock: control refused: %s (field %s)", error, error.field)
            return
        command, now = payload.get("command"), _now_ms()
        with self._lock:
            if command == "pause":
                self.clock = self.clock.pause(now)
            elif command == "resume":
                self.clock = self.clock.resume(now)
            elif command == "add_seconds" and isinstance(payload.get("seconds"), int):
                self.clock = self.clock.add_time(payload["seconds"] * 1000)
            elif command == "next_step":
                self.clock = self.clock.add_time(-self.clock.remaining_ms(now))
            elif command == "previous_step" and self.clock.index > 0:
                self.clock, changes = self.clock.go_to(self.clock.index - 1, now)
                self._pending.extend(changes)
            elif command == "go_to_level" and isinstance(payload.get("level"), int):
                try:
                    self.clock, changes = self.clock.go_to(
                        self.clock.level_index(payload["level"]), now)
                except ValueError as error:
                    LOG.warning("clock: go_to_level: %s", error)
                else:
                    self._pending.extend(changes)
            elif command == "entries":
                counts = {k: payload.get(k, 0) for k in ("players", "re_entries",
                                                        "starting_stack", "add_on_chips")}
                adjustments = payload.get("adjustments", 0)  # the seating desk's, +/-
                add_ons = payload.get("add_ons", self.add_ons)
                if all(isinstance(v, int) and v >= 0 for v in counts.values()) and isinstance(
                        adjustments, int) and isinstance(add_ons, int) and add_ons >= 0:
                    self.entries = Entries(**counts, adjustments=adjustments)
                    self.add_ons = add_ons
                else:
                    LOG.warning("clock: entries need whole numbers >= 0: %r", counts)
            elif command == "export":
                self._export_asked = True
            elif command == "hand_for_hand" and isinstance(payload.get("enabled"), bool):
                change = self.h4h.announce if payload["enabled"] else self.h4h.end
                self.h4h, self.clock = change(self.clock, now)
                self._told.append(("hand_for_hand", {"enabled": payload["enabled"]}))
            elif command == "deal_next":  # the director releases a hand the room still holds
                self._told.append(("deal_next", {}))
            elif command == "payouts":
                self._set_payouts(payload)
            elif command == "icm_deal":
                self._ask_deal = True
            elif command == "end_deal":
                self.deal = None
            else:
                LOG.warning("clock: unknown control %r (known: %s)", command, CONTROLS)

    def _set_payouts(self, payload: dict[str, Any]) -> None:
        """Prices, rake, guarantee and (optionally) a payout table CSV from the floor;
        a bad one is logged and changes nothing."""
        try:
            fields: dict[str, Any] = {**self._pool_fields()}
            fields.update((k, payload[k]) for k in ("buy_in", "re_entry", "add_on",
                                                    "rake_percent", "guarantee") if k in payload)
            pool = PrizePool(**fields)
            chart = parse_chart(payload["table_csv"]) if payload.get("table_csv") else self.chart
        except (PayoutError, TypeError) as error:
            LOG.warning("clock: payouts refused: %s", error)
            return
        self.pool, self.chart = pool, chart

    def _pool_fields(self) -> dict[str, Any]:
        return {"buy_in": self.pool.buy_in, "re_entry": self.pool.re_entry,
                "add_on": self.pool.add_on, "rake_percent": self.pool.rake_percent,
                "guarantee": self.pool.guarantee}

    def _prizes(self, board: dict[str, Any]) -> tuple[int, list[Payout]]:
        """The prize pool and the payout table for the entrants so far (locked)."""
        entrants = self.entries.players + self.entries.re_entries
        if not entrants:  # no entries recorded: the players the room has seen
            entrants = board["players_left"] + len(board["eliminated"])
        total = self.pool.total(self.entries.players, self.entries.re_entries, self.add_ons)
        try:
            return total, payout_table(entrants, total, self.chart)
        except PayoutError as error:
            LOG.warning("clock: %s", error)
            return total, []

    def _board(self) -> dict[str, Any]:
        with self._lock:
            board = leaderboard(self._states, self.entries)
            board["eliminated"] = self.finishes.rows()
            pool, payouts = self._prizes(board)
            for row, prize in zip(board["eliminated"],
                                  prizes_for_finishes(board["eliminated"], payouts), strict=True):
                row["prize"] = prize  # tied on one hand: the places covered, shared (RP-8-A)
                if row["tied"] > 1 and not row["hand_for_hand"]:
                    # no rule orders busts on one table's hand: an even split until the TD
                    # decides (a house may rank by the chips each started the hand with)
                    row["prize_td"] = True
            board["prize_pool"] = pool
            board["payouts"] = [p.as_json() for p in payouts]
            if self._ask_deal:
                self._ask_deal = False
                try:
                    self.deal = icm_deal([(r["player"], r["stack"]) for r in board["rows"]],
                                         payouts)
                except PayoutError as error:
                    LOG.warning("clock: ICM deal: %s", error)
                    self.deal = {"error": str(error)}
            return board

    def _export(self, board: dict[str, Any]) -> None:
        """CSV and JSON of the leaderboard into ``export_dir``, named by the wall time."""
        if self.export_dir is None:
            return
        stamp = time.strftime("%Y%m%d-%H%M%S")
        try:
            self.export_dir.mkdir(parents=True, exist_ok=True)
            (self.export_dir / f"chipcounts-{stamp}.csv").write_text(as_csv(board))
            (self.export_dir / f"chipcounts-{stamp}.json").write_text(json.dumps(board))
        except OSError as error:
            LOG.error("clock: could not export chip counts to %s: %s", self.export_dir, error)

    def _run(self) -> None:
        if self._told_index != self.clock.index:  # a resumed clock already told the tables
            self._announce([Change("break_start" if self.clock.current.is_break else "level",
                                   self.clock.current)], self.clock.index)
        while not self._stop.is_set():
            now = _now_ms()
            with self._lock:
                playing = {t: s for t, s in self._states.items() if t not in self._offline}
                self.h4h, self.clock, release = self.h4h.step(playing, self.clock, now)
                self.h4h, runouts = self.h4h.release_runouts(playing)  # RP-8-F
                self.clock, changes = self.clock.advance(now)
                changes, self._pending = [*self._pending, *changes], []
                reached = self.clock.index
                clock, h4h, told = self.clock, self.h4h, self._told
                waiting = h4h.waiting_for(playing) if h4h.on else []
                self._told = []
                expired = self.player_clocks.due(now)
                self.player_clocks = self.player_clocks.sent(expired, now)
                countdown = self.player_clocks.countdown(now)
                next_due = self.player_clocks.next_due_ms()
            for command, fields in told:
                self._tell(command, None, **fields)
            board = self._board()
            self._announce(changes, reached)
            self._save()
            if release:  # RP-8: every table is between hands; the next starts everywhere
                self._tell("deal_next", None)
            for table, seat in expired:  # R29: the player's time is up
                self._command(table, "clock_expired", f"seat {seat}'s time is up")
            for table in runouts:  # RP-8-F: every other table is done, run the cards out
                self._command(table, "resume_runout", "every other table has finished its hand")
            if self._export_asked:
                self._export_asked = False
                self._export(board)
            if board != self._last_board:
                self._last_board = board
                self.client.publish(f"{self.base}/leaderboard",
                                    json.dumps({"schema_version": SCHEMA_VERSION, **board}),
                                    qos=1, retain=True)
            players = board["players_left"]
            status = clock.display(now, players or None,
                                   board["chips_in_play"] if players else None)
            status["hand_for_hand"] = ({"hands": h4h.hands, "waiting_for": waiting}
                                       if h4h.on else None)
            status["player_clocks"] = countdown
            with self._lock:
                status["refused"] = [self.refused[t] for t in sorted(self.refused)]
                status["deal"] = self.deal
            status["prize_pool"] = board["prize_pool"]
            status["payouts"] = board["payouts"]
            status["places_paid"] = len(board["payouts"])
            paid = {p["place"]: p["amount"] for p in board["payouts"]}
            status["next_payout"] = ({"place": players, "amount": paid[players]}
                                     if players in paid else None)
            status["schema_version"] = SCHEMA_VERSION
            self.client.publish(f"{self.base}/clock/status", json.dumps(status), qos=1,
                                retain=True)
            wait_ms = 1000 - now % 1000
            if next_due is not None:
                wait_ms = max(10, min(wait_ms, next_due - now))
            self._wake.wait(timeout=wait_ms / 1000)
            self._wake.clear()

    def _announce(self, changes: list[Change], reached: int) -> None:
        """Tell every table the steps the clock reached (levels from their next hand)."""
        for change in changes:
            if change.kind == "level":
                self._tell("level", change.step.level_payload())
            elif change.kind == "break_start":
                self._tell("break_start", None, minutes=change.step.minutes,
                           color_up=bool(change.step.color_up))
                self._export_asked = True  # chip counts at every break
            else:
                self._tell("break_end", None)
                if change.step.color_up:  # R24: these chips left play at the break
                    self._tell("color_up", None, removed=list(change.step.color_up))
        if changes:
            with self._lock:
                self._told_index = reached

    def _save(self) -> None:
        """Write the clock's state when it changed (atomically: a kill leaves the old or
        the new file, never half of one)."""
        if self.state_file is None:
            return
        with self._lock:
            saved = {**self.clock.saved(self._wall_offset_ms), "told_index": self._told_index}
        if saved == self._saved:
            return
        try:
            save_state(self.state_file, json.dumps(saved))
        except OSError as error:
            LOG.error("clock: could not save its state to %s: %s", self.state_file, error)
            return
        self._saved = saved

    def _command(self, table: str, command: str, why: str) -> None:
        """A command to one table (R29's ``clock_expired``, RP-8-F's ``resume_runout``), on
        the clock's own command topic (the only ones a table takes from the clock)."""
        payload = {"command": command, "request_id": f"clock-{time.time_ns():x}",
                   "note": f"by the tournament clock: {why}"}
        self.client.publish(f"{self.base}/{table}/cmd/{self.login}", json.dumps(payload), qos=1)

    def _tell(self, command: str, level: dict[str, Any] | None, **fields: Any) -> None:
        payload: dict[str, Any] = {"command": command,
                                   "request_id": f"clock-{time.time_ns():x}", **fields}
        if level is not None:
            payload["level"] = level
            with self._lock:
                self._level_requests[payload["request_id"]] = level["number"]
        self.client.publish(f"{self.base}/clock", json.dumps(payload), qos=1)


DESCRIPTION = (
    "Run the tournament clock for a venue from a blind structure file: levels and breaks "
    "to every table, the time left for the clock display page (docs/clock.md). The "
    "password comes from POKERTABLE_CLOCK_PASSWORD; the display page needs none (it reads "
    "the clock anonymously from the broker's WebSocket listener).")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = DESCRIPTION
    parser.add_argument("--venue", required=True, help="venue name in the topic tree")
    parser.add_argument("--structure", type=Path, required=True,
                        help="blind structure TOML ([[step]] levels and breaks)")
    parser.add_argument("--broker", default="127.0.0.1:1883", type=broker_address,
                        help="MQTT broker HOST:PORT")
    parser.add_argument("--user", default="clock", help="the clock's broker login")
    parser.add_argument("--ws-url", default="ws://127.0.0.1:9001",
                        help="the broker's WebSockets URL as the display's browser reaches it")
    parser.add_argument("--state-file", type=Path,
                        help="where the clock keeps its state (level, time left, pause) to "
                        "resume after a restart without telling the tables again (default "
                        "clock-<venue>.json in $STATE_DIRECTORY, else the current folder)")
    parser.add_argument("--fresh", action="store_true",
                        help="a new tournament: set the saved state aside (as <file>.old) and "
                        "start the structure from level 1")
    parser.add_argument("--export-dir", type=Path,
                        help="write chip counts (CSV and JSON) here at every break and on "
                        "the director's export control")
    parser.add_argument("--rules", default="tda-2024",
                        help="the room's rule profile (hand-for-hand clock, RP-8-B)")
    parser.add_argument("--h4h-minutes", type=int, default=2,
                        help="minutes taken off the clock per hand-for-hand hand (RP-8-C: 2)")
    parser.add_argument("--http-port", type=int, default=8082,
                        help="port of the display page (default 8082; 0 picks a free one)")
    parser.add_argument("--buy-in", type=int, default=0,
                        help="price of an entry, for the prize pool (whole currency units)")
    parser.add_argument("--re-entry", type=int, default=0, help="price of a re-entry")
    parser.add_argument("--add-on", type=int, default=0, help="price of an add-on")
    parser.add_argument("--rake-percent", type=float, default=0.0,
                        help="the house's share of what was sold, in percent")
    parser.add_argument("--guarantee", type=int, default=0,
                        help="the least the prize pool holds, whatever was sold")
    parser.add_argument("--payouts", type=Path,
                        help="payout table CSV: place,percent[,min_entrants,max_entrants] "
                        "(default: the built-in chart by entrants; docs/clock.md)")
    parser.add_argument("--ha-discovery", nargs="?", const="homeassistant", metavar="PREFIX",
                        help="announce every table and the clock to Home Assistant by MQTT "
                        "discovery under PREFIX (default homeassistant; docs/home-assistant.md)")
    add_bind_argument(parser)


def run(args: argparse.Namespace) -> int:
    host, port = args.broker
    try:
        room_h4h = hand_for_hand(args.rules, args.h4h_minutes)
    except ValueError as error:
        print(f"pokertable clock: --rules {args.rules} --h4h-minutes {args.h4h_minutes}: "
              f"{error}", file=sys.stderr)
        return 78
    from pokertable.controller.rules.profiles import load_profile

    payoff = load_profile(args.rules).cite("hand_for_hand_payoff")  # RP-8-A ties
    try:
        pool = PrizePool(args.buy_in, args.re_entry, args.add_on, args.rake_percent,
                         args.guarantee)
        chart = parse_chart(args.payouts.read_text("utf-8")) if args.payouts else None
    except (OSError, PayoutError) as error:
        print(f"pokertable clock: payouts: {error}", file=sys.stderr)
        return 78
    try:
        text = args.structure.read_text("utf-8")
        service = ClockService(host=host, port=port, venue=args.venue,
                               structure_text=text,
                               state_file=state_file_for(args),
                               login=(args.user, os.environ.get("POKERTABLE_CLOCK_PASSWORD", "")),
                               export_dir=args.export_dir,
                               hand_for_hand=room_h4h,
                               finishes=Finishes(payoff),
                               ha_prefix=args.ha_discovery, prize_pool=pool, chart=chart)
    except (OSError, StructureError, ValueError) as error:
        print(f"pokertable clock: {args.structure}: {error}", file=sys.stderr)
        return 78
    try:
        pages = display(args.venue, args.ws_url, args.http_port, args.bind)
    except OSError as error:  # room/web.py PortTaken: the port named
        print(f"pokertable clock: {error}", file=sys.stderr)
        return 69
    service.start()
    pages.start()
    print(f"clock display: {pages.url}", flush=True)
    return run_until_interrupted(service, pages)


def state_file_for(args: argparse.Namespace) -> Path:
    """Where the clock keeps its state; with ``--fresh`` the old state is set aside."""
    return service_state_file(args, "clock")


def hand_for_hand(profile: str, minutes: int) -> HandForHand:
    """Hand-for-hand under the room's profile (``hand_for_hand_clock``); a ValueError names
    the profile or RP-8-B's limit."""
    from pokertable.controller.rules.profiles import load_profile

    return HandForHand(load_profile(profile).hand_for_hand_clock, minutes)


def display(venue: str, ws_url: str, http_port: int = 0, bind: str = LOOPBACK) -> PageServer:
    """The big clock display's page server (not started). Its ``config.json`` holds no
    login: the page reads the clock anonymously, which the broker allows for that alone."""
    return PageServer(ROOM_DIR, {"venue": venue, "ws_url": ws_url}, http_port,
                      page="clock_display/", bind=bind)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="pokertable clock")
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
