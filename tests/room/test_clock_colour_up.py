"""The clock tells every table which chips left play when a colour-up break ends (R24)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pokertable.bench.table_rig import USERS, Watcher
from pokertable.bench.waiting import wait_for
from pokertable.mqtt.mosquitto import MosquittoProcess
from tests.room.conftest import room_clock
from tests.room.test_clock import STRUCTURE


@pytest.mark.needs("mosquitto")
def test_the_end_of_a_colour_up_break_names_the_removed_chips(tmp_path: Path) -> None:
    broker = MosquittoProcess.from_shipped(tmp_path, users=USERS)
    broker.start()
    tables = Watcher(broker.port, "overlay", ("pokertable/v1/club/clock",))
    service = room_clock(broker, STRUCTURE)
    service.start()
    try:
        assert service.subscribed.wait(60), "the clock could not subscribe"
        control = Watcher(broker.port, "director", ("pokertable/v1/club/clock/status",))
        for step in ("Level 2", "Break", "Level 3"):  # one step at a time, as the TD does
            control.publish("pokertable/v1/club/clock/control", {"command": "next_step"})
            wait_for(
                lambda step=step: any(s["step"] == step for s in control.on("/clock/status")), step
            )
        said = wait_for(
            lambda: [p for p in tables.on("/clock") if p["command"] == "color_up"], "the colour-up"
        )
        commands = [p["command"] for p in tables.on("/clock")]
        assert (
            commands.index("break_start") < commands.index("break_end") < commands.index("color_up")
        )
        assert said[0]["removed"] == [25]
        control.stop()
    finally:
        service.stop()
        tables.stop()
        broker.stop()
