"""The demo's live view: ``hand x/N`` and elapsed time, the floor's calls, the table as the room
sees it; library log lines (paho's "Client is not connected") stay inside the view."""

from __future__ import annotations

import io
import logging

import pytest
from rich.console import Console
from rich.text import Text

from pokertable.controller.demo.room import LiveView, choose


class TableStub:
    """Stands in for the MQTT viewer: what the room last said about the table."""

    def __init__(self) -> None:
        self.changed: object = None
        self.text = "seat 1 Ada 10000"

    def renderable(self, console: object = None, height: int | None = None) -> Text:
        return Text(self.text)


class FloorStub:
    def summary(self) -> list[str]:
        return ["floor considering a-1: seat 3 moved chips twice"]


def test_view_shows_hand_of_total_elapsed_floor_and_table(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = io.StringIO()
    console = Console(file=out, width=80, force_terminal=True, color_system=None)
    table = TableStub()
    with LiveView(table, FloorStub(), 20, console=console) as view:
        view.hand = 3
        table.text = "seat 1 Ada 9800 bet 200"
        console.print(view.render())
        logging.getLogger("pokertable.demo.demo-clock-demo").warning("Client is not connected")
        console.print(view.render())
        assert table.changed is not None  # every message from the room redraws the view
    text = out.getvalue()
    assert "hand 3/20   elapsed 0:0" in text
    assert "floor considering a-1: seat 3 moved chips twice" in text
    assert "seat 1 Ada 9800 bet 200" in text
    assert "warning: Client is not connected" in text  # inside the view, as a note
    captured = capsys.readouterr()
    assert "Client is not connected" not in captured.err + captured.out
    assert all(len(line) <= 80 for line in text.splitlines())


def test_floor_takes_the_first_option_that_keeps_the_hand_going() -> None:
    assert choose(["misdeal", "keep"]) == "keep"
    assert choose(["call", "raise"]) == "call"
    assert choose(["void"]) == "void"
    assert choose([]) is None
