"""The room around the demo table: a floor director, a tournament clock and the live view.

Each is an ordinary MQTT client of the table, as in a real card room: the director reads
the retained ``state``, sees each alert waiting for the floor and answers it with
``floor_decision`` on ``cmd/director`` (the same command a real director's tablet sends);
the clock announces levels on ``<venue>/clock``; the view renders what an overlay reads.
Nothing here reaches into the table process.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from pokertable.controller.errors import ControllerError
from pokertable.controller.extras import needs_extra

# A floor person first looks at the table; the pause makes the call visible in the view.
FLOOR_PAUSE_S = 1.2
# The options a floor person takes when nothing argues for another: keep the hand going.
_DISRUPTIVE = ("misdeal", "void", "refuse")


class DemoError(ControllerError, RuntimeError):
    """The simulated table or room did not react (printed on one line; the demo exits 1)."""

    exit_code = 1


class DemoUnavailable(DemoError):
    """Something the demo needs from this machine is taken (a port): exit 69, EX_UNAVAILABLE."""

    exit_code = 69


class RoomClient:
    """One paho client that is connected before it is used and knows when a publish landed."""

    def __init__(self, host: str, port: int, client_id: str, *, stall_s: float) -> None:
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        self.host, self.port, self.stall_s = host, port, stall_s
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id)
        self.client.enable_logger(logging.getLogger(f"pokertable.demo.{client_id}"))
        self._connected = threading.Event()
        self._subscriptions: list[tuple[str, int]] = []
        self._subscribed = threading.Event()
        self.on_message: Callable[[str, bytes], None] | None = None

        def on_connect(client: Any, userdata: Any, flags: Any, rc: Any, props: Any) -> None:
            if rc.is_failure:
                return
            if self._subscriptions:
                client.subscribe(self._subscriptions)
            else:
                self._subscribed.set()
            self._connected.set()

        def on_subscribe(client: Any, userdata: Any, mid: Any, codes: Any, props: Any) -> None:
            self._subscribed.set()

        def on_disconnect(client: Any, userdata: Any, flags: Any, rc: Any, props: Any) -> None:
            self._connected.clear()

        def on_message(client: Any, userdata: Any, msg: Any) -> None:
            if self.on_message is not None:
                self.on_message(msg.topic, msg.payload)

        self.client.on_connect = on_connect
        self.client.on_subscribe = on_subscribe
        self.client.on_disconnect = on_disconnect
        self.client.on_message = on_message

    def start(self, subscriptions: list[tuple[str, int]] | None = None) -> None:
        """Connect and wait for the CONNACK (and the SUBACK when subscribing)."""
        self._subscriptions = list(subscriptions or [])
        try:
            self.client.connect(self.host, self.port)
        except OSError as exc:  # the machine's, not the demo's: exit 69
            raise DemoUnavailable(
                f"cannot reach the MQTT broker at {self.host}:{self.port}: {exc}"
            ) from None
        self.client.loop_start()
        if not self._connected.wait(self.stall_s) or not self._subscribed.wait(self.stall_s):
            raise DemoUnavailable(
                f"no CONNACK/SUBACK from the MQTT broker at {self.host}:{self.port} "
                f"in {self.stall_s:.0f} s"
            )

    def publish_json(self, topic: str, payload: dict[str, Any]) -> None:
        """Publish at QoS 1 and wait for the broker's PUBACK."""
        info = self.client.publish(topic, json.dumps(payload), qos=1)
        deadline = time.monotonic() + self.stall_s
        while not info.is_published():
            if time.monotonic() > deadline:
                raise DemoError(f"no PUBACK for {topic} in {self.stall_s:.0f} s")
            info.wait_for_publish(timeout=0.2)

    def stop(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


class SimulatedDirector:
    """The floor: answers every alert in the table's state with ``floor_decision``.

    It decides the way a floor person without a reason to do otherwise would: the first
    option that keeps the hand going. The answer goes out after ``pause_s``, so the view
    shows the call waiting; the table applies it when the command arrives.
    """

    def __init__(self, host: str, port: int, venue: str, table: str, *,
                 pause_s: float = FLOOR_PAUSE_S, stall_s: float = 30.0) -> None:
        self.prefix = f"pokertable/v1/{venue}/{table}"
        self.pause_s = pause_s
        self.calls: dict[str, dict[str, Any]] = {}  # alert id -> the alert as first seen
        self.answers: dict[str, str] = {}  # alert id -> decision sent
        self.replies: dict[str, dict[str, Any]] = {}  # request id -> the table's reply
        self.considering: dict[str, float] = {}  # alert id -> when it was seen
        self._lock = threading.Lock()
        self._work: deque[dict[str, Any]] = deque()
        self._wake = threading.Condition(self._lock)
        self._stopped = False
        self._picks = 0
        self.client = RoomClient(host, port, f"demo-director-{table}", stall_s=stall_s)
        self.client.on_message = self._on_message
        self._thread = threading.Thread(target=self._answer_loop, name="director", daemon=True)

    def start(self) -> None:
        self.client.start([(f"{self.prefix}/state", 1), (f"{self.prefix}/reply", 1)])
        self._thread.start()

    def _on_message(self, topic: str, raw: bytes) -> None:
        try:
            payload = json.loads(raw)
        except json.JSONDecodeError:
            return
        if not isinstance(payload, dict):
            return
        with self._lock:
            if topic.endswith("/reply"):
                self.replies[str(payload.get("request_id"))] = payload
                return
            for alert in payload.get("alerts", []):
                alert_id = str(alert.get("id"))
                if alert_id not in self.calls:
                    self.calls[alert_id] = alert
                    self.considering[alert_id] = time.monotonic()
                    self._work.append(alert)
                    self._wake.notify_all()

    def _answer_loop(self) -> None:
        while True:
            with self._wake:
                while not self._work and not self._stopped:
                    self._wake.wait()
                if self._stopped:
                    return
                alert = self._work.popleft()
            # A short, visible pause: the floor walks over and reads the ruling.
            with self._wake:
                self._wake.wait_for(lambda: self._stopped, timeout=self.pause_s)
                if self._stopped:
                    return
            self._answer(alert)

    def _answer(self, alert: dict[str, Any]) -> None:
        alert_id = str(alert["id"])
        decision = choose(list(alert.get("options", [])))
        if decision is None:
            decision = "acknowledged"
        command = {
            "command": "floor_decision",
            "request_id": f"floor-{alert_id}",
            "alert_id": alert_id,
            "decision": decision,
        }
        try:
            self.client.publish_json(f"{self.prefix}/cmd/director", command)
        except DemoError as exc:
            logging.getLogger("pokertable.demo").warning("director: %s", exc)
            return
        with self._lock:
            self.answers[alert_id] = decision
            self.considering.pop(alert_id, None)

    def choose_game(self, game: str) -> None:
        """Dealer's choice: the game the button's player names for the orbit, sent as the
        floor's tablet sends it (``choose_game`` on ``cmd/director``)."""
        with self._lock:
            self._picks += 1
            request = f"choice-{self._picks}"
        self.client.publish_json(f"{self.prefix}/cmd/director",
                                 {"command": "choose_game", "request_id": request, "game": game})

    def summary(self) -> list[str]:
        """Lines for the view: calls still being considered, then the latest decisions."""
        with self._lock:
            lines = [f"floor considering {a}: {self.calls[a].get('text', '')}"
                     for a in self.considering]
            lines += [f"floor ruled {a}: {d}" for a, d in list(self.answers.items())[-3:]]
        return lines

    def stop(self) -> None:
        with self._wake:
            self._stopped = True
            self._wake.notify_all()
        if self._thread.is_alive():
            self._thread.join(timeout=5)
        self.client.stop()


def choose(options: list[str]) -> str | None:
    """The floor's choice: the first option that does not stop or void the hand.

    >>> choose(["misdeal", "keep"])
    'keep'
    >>> choose(["first_motion", "count_all"])
    'first_motion'
    """
    for option in options:
        if option not in _DISRUPTIVE:
            return option
    return options[0] if options else None


class TournamentClock:
    """The clock: announces a level on ``<venue>/clock`` as the real clock does."""

    def __init__(self, host: str, port: int, venue: str, *, stall_s: float = 30.0) -> None:
        self.topic = f"pokertable/v1/{venue}/clock"
        self.client = RoomClient(host, port, f"demo-clock-{venue}", stall_s=stall_s)
        # --floor: the room's clock process runs the same levels; it is moved on too, so
        # that its display and the floor console show the level (and game) being dealt.
        self.follows_room_clock = False

    def start(self) -> None:
        self.client.start()

    def announce(self, level: dict[str, Any]) -> None:
        """Tell the tables ``level`` (the clock's ``level`` payload, docs/mqtt.md)."""
        number = level["number"]
        self.client.publish_json(
            self.topic,
            {"command": "level", "request_id": f"demo-clock-{number}", "level": level},
        )
        if self.follows_room_clock:
            self.client.publish_json(
                f"{self.topic}/control", {"command": "go_to_level", "level": number}
            )

    def stop(self) -> None:
        self.client.stop()


class Viewer:
    """Reads the table back from the broker, as an overlay would, and renders it."""

    def __init__(self, host: str, port: int, venue: str, table: str, *,
                 stall_s: float = 30.0) -> None:
        from pokertable.mqtt.watch import Room

        self.prefix = f"pokertable/v1/{venue}/{table}"
        self.room = Room()
        self.events = 0
        self.event_log: list[dict[str, Any]] = []  # every event, in arrival order
        self.changed: Callable[[], None] | None = None
        self._lock = threading.Lock()
        self.client = RoomClient(host, port, f"demo-view-{table}", stall_s=stall_s)
        self.client.on_message = self._on_message

    def start(self) -> None:
        self.client.start([(f"{self.prefix}/{leaf}", 1) for leaf in ("state", "events", "status")])

    def _on_message(self, topic: str, raw: bytes) -> None:
        with self._lock:
            self.room.apply(topic, raw)
            if topic.endswith("/events"):
                self.events += 1
                with contextlib.suppress(json.JSONDecodeError):
                    self.event_log.append(json.loads(raw))
        if self.changed is not None:
            self.changed()

    def renderable(self, console: Any = None, height: int | None = None) -> Any:
        """The table as ``pokertable watch`` shows it, fitted to ``height`` lines if given."""
        from pokertable.mqtt.watch import render

        with self._lock:
            return render(self.room, single=True, console=console, height=height)

    def stop(self) -> None:
        self.client.stop()


class LiveView:
    """The terminal view: ``hand x/N``, elapsed time, the floor, then the table as the
    room sees it; redrawn on every message from the table, with library log lines kept
    inside the view instead of written across it."""

    def __init__(self, viewer: Any, director: Any, total: int, *, console: Any = None) -> None:
        self.console = console
        self.viewer = viewer
        self.director = director
        self.total = total
        self.hand = 0
        self.started = time.monotonic()
        self.notes: deque[str] = deque(maxlen=3)
        self._live: Any = None
        self._handler = _NoteHandler(self.notes)
        self._saved_level = logging.getLogger().level

    def __enter__(self) -> LiveView:
        from rich.live import Live

        root = logging.getLogger()
        root.addHandler(self._handler)
        root.setLevel(logging.WARNING)
        self._live = Live(
            get_renderable=self.render, refresh_per_second=8, redirect_stderr=True,
            redirect_stdout=True, transient=False, console=self.console,
        )
        self._live.start()
        self.viewer.changed = self._live.refresh
        return self

    def __exit__(self, *exc: object) -> None:
        self.viewer.changed = None
        if self._live is not None:
            self._live.stop()
        root = logging.getLogger()
        root.removeHandler(self._handler)
        root.setLevel(self._saved_level)

    def render(self) -> Any:
        from rich.console import Group
        from rich.text import Text

        elapsed = int(time.monotonic() - self.started)
        of = f"/{self.total}" if self.total else ""
        lines: list[Any] = [
            Text(f"pokertable demo   hand {self.hand}{of}   elapsed {elapsed // 60}:"
                 f"{elapsed % 60:02d}   Ctrl-C stops", style="bold")
        ]
        lines += [Text(line, style="yellow") for line in self.director.summary()]
        lines += [Text(note, style="dim red") for note in self.notes]
        console = self._live.console if self._live is not None else self.console
        if console is None:
            return Group(*lines, self.viewer.renderable())
        # The table gets the terminal's lines left under ours: at 80x24 it keeps every seat
        # and its newest rulings rather than run off the bottom.
        options = console.options.update(height=None)
        above = sum(len(console.render_lines(line, options, pad=False)) for line in lines)
        return Group(*lines, self.viewer.renderable(console, console.height - above))


class _NoteHandler(logging.Handler):
    """Log records become a line in the view rather than text written over it."""

    def __init__(self, notes: deque[str]) -> None:
        super().__init__(logging.WARNING)
        self.notes = notes

    def emit(self, record: logging.LogRecord) -> None:
        self.notes.append(f"{record.levelname.lower()}: {record.getMessage()}"[:200])


def own_broker(ws_port: int | None, *, instead: str = "") -> Any:
    """The demo's in-process broker, started; without amqtt (the ``demo`` extra) a
    ``MissingExtra`` that names the extra and ``instead``: exit 69, not a bug."""
    try:
        from pokertable.mqtt.inprocess_broker import AmqttBroker

        broker = AmqttBroker(ws_port=ws_port)
        broker.start()
    except ModuleNotFoundError as missing:
        raise needs_extra(
            missing, "demo", "demos with their own MQTT broker", instead=instead
        ) from None
    return broker
