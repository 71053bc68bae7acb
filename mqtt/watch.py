"""``pokertable watch``: the reference consumer, a live terminal view of one table or the room.

    pokertable watch --port 1883 --venue casino --table t07      # one table, live
    pokertable watch --venue casino --once --timeout 3           # the room, printed once

It subscribes to the public tree only (state, status, events), checks each stream's
sequence numbers and asks the table for a rebirth when it sees a gap.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import sys
import time
import uuid
from collections import deque
from dataclasses import dataclass, field
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from rich import box
from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from pokertable.mqtt.topics import TableTopics, parse_table_topic

SUITS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}


def pretty_card(card: str) -> str:
    """'As' -> 'A♠' (ten stays 'T', as on the felt's RFID labels).

    >>> pretty_card("Td")
    'T♦'
    """
    return card[0] + SUITS.get(card[1:], card[1:])


@dataclass
class TableView:
    """What a consumer knows about one table, with per-stream gap detection."""

    venue: str
    table: str
    state: dict[str, Any] | None = None
    status: str = "unknown"
    events: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=6))
    last_seq: dict[str, tuple[str, int]] = field(default_factory=dict)
    gaps: int = 0

    def accept(self, stream: str, payload: dict[str, Any]) -> tuple[bool, bool]:
        """Return (fresh, gap): stale or duplicate messages are not fresh (QoS 1 repeats)."""
        session, seq = payload.get("session"), payload.get("seq")
        if not isinstance(session, str) or not isinstance(seq, int):
            return False, False
        previous = self.last_seq.get(stream)
        if previous is None or previous[0] != session:
            self.last_seq[stream] = (session, seq)
            return True, False
        if seq <= previous[1]:
            return False, False
        self.last_seq[stream] = (session, seq)
        gap = seq > previous[1] + 1
        self.gaps += int(gap)
        return True, gap


@dataclass
class Room:
    tables: dict[tuple[str, str], TableView] = field(default_factory=dict)

    def view(self, venue: str, table: str) -> TableView:
        return self.tables.setdefault((venue, table), TableView(venue, table))

    def apply(self, topic: str, raw: bytes) -> tuple[TableView, bool] | None:
        """Update from one message; returns the table and whether a rebirth is wanted."""
        try:
            venue, table, leaf = parse_table_topic(topic)
            payload = json.loads(raw)
        except (ValueError, json.JSONDecodeError):
            return None
        if not isinstance(payload, dict):
            return None
        view = self.view(venue, table)
        if leaf == "status":
            view.status = str(payload.get("state", "unknown"))
            return view, False
        if leaf not in ("state", "events"):
            return None
        fresh, gap = view.accept(leaf, payload)
        if fresh and leaf == "state":
            view.state = payload
        elif fresh:
            view.events.append(payload)
        return view, gap and leaf == "events"


def _level_text(state: dict[str, Any]) -> str:
    level = state.get("level") or {}
    blinds = f"{level.get('small_blind', '?')}/{level.get('big_blind', '?')}"
    game = f" {level['game']}" if level.get("game") else ""  # mixed games: a PHH code
    text = f"L{level.get('number', '?')}{game} {blinds}"
    if level.get("ante"):
        text += f" ante {level['ante']}"
    if level.get("bring_in"):
        text += f" bring-in {level['bring_in']}"
    return text


def _cards_text(state: dict[str, Any], seat: dict[str, Any]) -> str:
    """A seat's cards as bars; stud: the downcards as bars, the upcards face up, and who
    brought it in and who opens the street (the state's ``stud``)."""
    held = int(seat.get("cards_held", 0))
    up = seat.get("upcards")
    if up is None:
        tags = _draw_tags(state, seat)
        return "▮" * held + (f" ({', '.join(tags)})" if tags else "")
    stud = state.get("stud") or {}
    tags = [tag for tag, key in (("bring-in", "bring_in_seat"), ("opens", "opener_seat"))
            if stud.get(key) == seat["seat"] and (tag != "opens" or state.get("street") not in
                                                  ("third", "showdown", "complete"))]
    text = "▮" * max(0, held - len(up)) + " " + " ".join(pretty_card(c) for c in up)
    return text.strip() + (f" ({', '.join(tags)})" if tags else "")


def _draw_tags(state: dict[str, Any], seat: dict[str, Any]) -> list[str]:
    """A draw game's seat at this draw (R35-A7): on it, stood pat, or how many he drew."""
    draw = state.get("draw") or {}
    round_ = int(draw.get("round") or 0)
    drawn = seat.get("drawn") or []
    if not round_ or state.get("street") == "complete":
        return []
    tags = ["drawing"] if draw.get("drawing") and draw.get("on_draw") == seat["seat"] else []
    if len(drawn) >= round_:
        tags.append("pat" if drawn[round_ - 1] == 0 else f"drew {drawn[round_ - 1]}")
    return tags


def render_table(view: TableView, console: Console | None = None,
                 height: int | None = None) -> RenderableType:
    """A detailed panel: seats, board, pots, action, floor alerts and the latest rulings.

    Given the ``console`` and the ``height`` it may fill (a live terminal, 80x24 included),
    every seat, the header and the floor's calls are kept and the rulings that fit are the
    newest: a full panel drops the oldest rulings, never the bottom of the view.
    """
    state = view.state
    title = Text(f"{view.venue} / {view.table}  [{view.status}]")
    if state is None:
        return Panel(Text("waiting for table state..."), title=title)
    board = " ".join(pretty_card(c) for c in state.get("board", [])) or "-"
    pots = " + ".join(str(p["amount"]) for p in state.get("pots", [])) or "0"
    flags = [f for f, on in (("PAUSED", state.get("paused")),
                             ("HAND-FOR-HAND", state.get("hand_for_hand"))) if on]
    header = Text(
        f"{_level_text(state)}   hand #{state.get('hand_number')}   "
        f"{state.get('street') or 'between hands'}   board {board}   pot {pots}   "
        f"to call {state.get('to_call', 0)}" + ("   " + " ".join(flags) if flags else "")
    )
    # One line a seat and one rule under the column names: nine seats fit a 24-line terminal.
    seats = Table(expand=True, box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for column in ("seat", "player", "stack", "bet", "status", "cards"):
        seats.add_column(column, justify="right" if column in ("stack", "bet") else "left",
                         no_wrap=True, overflow="ellipsis")
    for seat in state.get("seats", []):
        marks = ("D " if seat["seat"] == state.get("button") else "") + (
            "▶ " if seat["seat"] == state.get("action_on") else "")
        seats.add_row(f"{marks}{seat['seat']}", seat.get("player") or "-", str(seat["stack"]),
                      str(seat["bet"]), seat["status"], _cards_text(state, seat))
    kept: list[RenderableType] = [header, seats]
    for alert in state.get("alerts", []):
        kept.append(Text(f"FLOOR {alert['id']} [{', '.join(alert['rule_ids'])}] "
                         f"{alert['text']} options: {', '.join(alert['options'])}",
                         style="bold yellow"))
    rulings = [
        Text(f"#{event['seq']} {event['kind']}: [{', '.join(ruling['rule_ids'])}] "
             f"{ruling['text']}", style="dim")
        for event in view.events for ruling in event.get("rulings", [])
    ]
    tail: list[RenderableType] = []
    if view.gaps:
        tail.append(Text(f"{view.gaps} sequence gap(s) seen; rebirth requested", style="red"))
    if console is not None and height is not None:
        rulings = _newest_that_fit(console, rulings, height - 2 - _lines(console, *kept, *tail))
    return Panel(Group(*kept, *rulings, *tail), title=title)


_PANEL_SIDES = 4  # a panel's two borders and its padding of one column each side


def _lines(console: Console, *parts: RenderableType) -> int:
    """How many terminal lines ``parts`` take inside a panel as wide as the console."""
    options = console.options.update(width=max(1, console.width - _PANEL_SIDES), height=None)
    return sum(len(console.render_lines(part, options, pad=False)) for part in parts)


def _newest_that_fit(console: Console, rulings: list[Text], room: int) -> list[Text]:
    """The newest rulings whose wrapped lines fit in ``room`` lines, oldest first."""
    kept: list[Text] = []
    for ruling in reversed(rulings):
        room -= _lines(console, ruling)
        if room < 0:
            break
        kept.append(ruling)
    return kept[::-1]


def render_room(room: Room) -> RenderableType:
    """One line per table, for the whole room."""
    grid = Table(title="pokertable room", expand=True)
    for column in ("venue", "table", "status", "level", "hand", "street", "pot", "players",
                   "action", "alerts"):
        grid.add_column(column)
    for (venue, table), view in sorted(room.tables.items()):
        state = view.state or {}
        players = sum(1 for s in state.get("seats", []) if s.get("player"))
        pot = sum(p["amount"] for p in state.get("pots", []))
        grid.add_row(venue, table, view.status, _level_text(state) if state else "-",
                     str(state.get("hand_number", "-")), str(state.get("street") or "-"),
                     str(pot), str(players), str(state.get("action_on") or "-"),
                     str(len(state.get("alerts", []))))
    return grid


def render(room: Room, single: bool, console: Console | None = None,
           height: int | None = None) -> RenderableType:
    """The view: one table in detail (fitted to ``height`` lines of ``console`` when given),
    else a line per table."""
    if single and room.tables:
        return render_table(next(iter(room.tables.values())), console, height)
    return render_room(room)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="MQTT broker host (default: 127.0.0.1)")
    parser.add_argument("--port", type=int, default=1883, help="MQTT broker port (default: 1883)")
    parser.add_argument("--username", default=None, help="broker role, e.g. overlay")
    parser.add_argument("--password", default=os.environ.get("POKERTABLE_MQTT_PASSWORD"),
                        help="default: $POKERTABLE_MQTT_PASSWORD")
    parser.add_argument("--tls-ca", default=None, help="CA file: connect with TLS")
    parser.add_argument("--venue", default="+", help="venue name, or + for every venue")
    parser.add_argument("--table", default="+", help="table name, or + for the whole room")
    parser.add_argument("--once", action="store_true",
                        help="print one rendering after --timeout (or the first state) and exit")
    parser.add_argument("--timeout", type=float, default=None,
                        help="seconds to wait (--once: default 5) or to stay live")


def run(args: argparse.Namespace) -> int:
    topics = TableTopics(args.venue, args.table)
    single = args.venue != "+" and args.table != "+"
    inbox: queue.Queue[tuple[str, bytes]] = queue.Queue()
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"watch-{uuid.uuid4().hex[:8]}")
    if args.username:
        client.username_pw_set(args.username, args.password)
    if args.tls_ca:
        client.tls_set(ca_certs=args.tls_ca)

    def on_connect(c: mqtt.Client, userdata: Any, flags: Any, rc: Any, props: Any) -> None:
        if not rc.is_failure:
            c.subscribe([(topics.state, 1), (topics.status, 1), (topics.events, 1)])

    client.on_connect = on_connect
    client.on_message = lambda c, u, m: inbox.put((m.topic, bytes(m.payload)))
    console = Console()
    try:
        client.connect(args.host, args.port, keepalive=10)
    except OSError as err:  # the machine's problem, not ours: EX_UNAVAILABLE
        print(f"pokertable watch: broker {args.host}:{args.port} unreachable: {err}",
              file=sys.stderr)
        return 69
    client.loop_start()
    room = Room()
    try:
        if args.once:
            return _run_once(client, inbox, room, single, console, args.timeout or 5.0)
        return _run_live(client, inbox, room, single, console, args.timeout)
    finally:
        client.disconnect()
        client.loop_stop()


def _drain(client: mqtt.Client, inbox: queue.Queue[tuple[str, bytes]], room: Room,
           wait: float) -> bool:
    """Apply queued messages (waiting up to ``wait`` for the first); True if any arrived."""
    try:
        items = [inbox.get(timeout=wait)]
    except queue.Empty:
        return False
    while not inbox.empty():
        items.append(inbox.get_nowait())
    for topic, raw in items:
        result = room.apply(topic, raw)
        if result is not None and result[1]:
            view = result[0]
            request = {"command": "rebirth", "request_id": uuid.uuid4().hex[:16],
                       "reason": "sequence gap"}
            client.publish(TableTopics(view.venue, view.table).rebirth, json.dumps(request), 1)
    return True


def _run_once(client: mqtt.Client, inbox: queue.Queue[tuple[str, bytes]], room: Room,
              single: bool, console: Console, timeout: float) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        _drain(client, inbox, room, min(0.05, max(0.0, deadline - time.monotonic())))
        if single and any(v.state for v in room.tables.values()):
            _drain(client, inbox, room, 0.2)  # let the retained status and events land too
            break
    if not any(v.state for v in room.tables.values()):
        console.print("no table state received")
        return 1
    console.print(render(room, single))
    return 0


def _run_live(client: mqtt.Client, inbox: queue.Queue[tuple[str, bytes]], room: Room,
              single: bool, console: Console, timeout: float | None) -> int:
    deadline = None if timeout is None else time.monotonic() + timeout
    try:
        with Live(render(room, single, console, console.height), console=console,
                  refresh_per_second=4) as live:
            while deadline is None or time.monotonic() < deadline:
                if _drain(client, inbox, room, 0.25):
                    live.update(render(room, single, console, console.height))
    except KeyboardInterrupt:
        pass
    return 0
