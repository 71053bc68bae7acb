"""The clock survives kill -9 (issue #27): it resumes at the level, time left and pause it
had, and tells no table a level again; the director's go-to-level and previous level.

``pokertable clock`` runs as a process against a real mosquitto with the shipped ACL.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pokertable.bench.table_rig import REPO, USERS
from pokertable.bench.waiting import wait_for
from pokertable.mqtt.mosquitto import MosquittoProcess
from pokertable.room.clock_service import add_arguments, state_file_for
from pokertable.room.floor_service import console
from tests.room.conftest import ARTIFACTS, signed_in
from tests.room.test_takeover_drill import Recorder, _attacker

pytestmark = pytest.mark.needs("mosquitto")
BASE = "pokertable/v1/club"
STRUCTURE = "".join(
    f"[[step]]\nsmall_blind = {sb}\nbig_blind = {2 * sb}\nminutes = 20\n" for sb in (100, 200, 300)
)


class ClockWatch(Recorder):
    """The venue clock's messages to the tables, its status and the service's status."""

    def levels(self) -> list[int]:
        return [c["level"]["number"] for c in self.on("/clock") if c.get("command") == "level"]

    def statuses(self) -> list[dict[str, Any]]:
        with self.lock:
            return [json.loads(p) for t, p in self.seen if t == f"{BASE}/clock/status"]

    def service_states(self) -> list[str]:
        with self.lock:
            return [json.loads(p)["state"] for t, p in self.seen
                    if t == f"{BASE}/services/clock/clock"]


def _start_clock(broker: MosquittoProcess, workdir: Path) -> subprocess.Popen[bytes]:
    structure = workdir / "structure.toml"
    structure.write_text(STRUCTURE)
    log = (workdir / "clock.log").open("ab")
    try:
        return subprocess.Popen(
            [sys.executable, "-m", "pokertable.room.clock_service", "--venue", "club",
             "--structure", str(structure), "--broker", f"127.0.0.1:{broker.port}",
             "--http-port", "0", "--ws-url", f"ws://127.0.0.1:{broker.ws_port}",
             "--state-file", str(workdir / "clock-club.json")],
            cwd=REPO, stdout=log, stderr=subprocess.STDOUT,
            env=dict(os.environ, POKERTABLE_CLOCK_PASSWORD=USERS["clock"]))
    finally:
        log.close()


def test_the_clock_resumes_after_kill_9_without_telling_a_level_again(
    broker: MosquittoProcess, tmp_path: Path, browser: Any
) -> None:
    watch = ClockWatch(broker.port)
    director = _attacker(broker.port, "director", "clock-restart-director")
    assert watch.ready.wait(30) and director is not None
    processes: list[subprocess.Popen[bytes]] = []
    pages: list[Any] = []

    def control(command: dict[str, Any]) -> None:
        director.publish(f"{BASE}/clock/control", json.dumps(command), 1).wait_for_publish(30)

    try:
        processes.append(_start_clock(broker, tmp_path))
        wait_for(lambda: watch.levels() == [1], "level 1 told to the tables")
        url = wait_for(lambda: next((line.split(": ", 1)[1] for line in (
            tmp_path / "clock.log").read_text().splitlines() if line.startswith(
                "clock display: ")), None), "the display's address")
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.goto(url)
        page.wait_for_function("() => document.getElementById('step').textContent"
                               " === 'Level 1'", timeout=60_000)
        assert page.is_hidden("#clock-lost")
        floor = console("club", f"ws://127.0.0.1:{broker.ws_port}")
        floor.start()
        pages.append(floor)
        desk = signed_in(browser, floor.url, "director", tables=())
        service = "#room-services [data-service='clock/clock']"
        desk.wait_for_function(f"() => document.querySelector(\"{service}\")"
                               "?.textContent === 'clock online'", timeout=60_000)
        control({"command": "go_to_level", "level": 3})
        wait_for(lambda: watch.levels() == [1, 3], "level 3 told")
        control({"command": "previous_step"})
        wait_for(lambda: watch.levels() == [1, 3, 2], "back to level 2")
        control({"command": "add_seconds", "seconds": -300})
        control({"command": "pause"})
        before = wait_for(lambda: next(
            (s for s in reversed(watch.statuses())
             if s["paused"] and s["remaining_ms"] <= 15 * 60_000), None),
            "level 2 paused with 5 minutes off")
        assert before["level"]["number"] == 2
        state_file = tmp_path / "clock-club.json"
        wait_for(lambda: state_file.exists() and json.loads(state_file.read_text())[
            "paused_at_wall_ms"] is not None, "the pause saved")

        processes[0].send_signal(signal.SIGKILL)
        processes[0].wait(30)
        wait_for(lambda: watch.service_states()[-1:] == ["lost"], "the clock's will")
        page.wait_for_selector("#clock-lost", state="visible", timeout=60_000)
        page.screenshot(path=str(ARTIFACTS / "clock-display-clock-lost.png"))
        desk.wait_for_function(f"() => document.querySelector(\"{service}\")"
                               ".textContent === 'clock lost'", timeout=60_000)
        desk.screenshot(path=str(ARTIFACTS / "floor-clock-lost.png"))
        seen_before = len(watch.statuses())
        processes.append(_start_clock(broker, tmp_path))
        wait_for(lambda: watch.service_states()[-1:] == ["online"], "the clock back online")
        after = wait_for(lambda: watch.statuses()[seen_before:][-1:], "a status from the "
                         "restarted clock")[0]
        assert (after["step"], after["paused"], after["remaining_ms"]) == (
            before["step"], True, before["remaining_ms"])
        assert watch.levels() == [1, 3, 2], "the restarted clock told a level again"
        page.wait_for_selector("#clock-lost", state="hidden", timeout=60_000)

        control({"command": "resume"})
        running = wait_for(lambda: next((s for s in reversed(watch.statuses())
                                         if not s["paused"]), None), "the clock running again")
        wait_for(lambda: json.loads(state_file.read_text())["paused_at_wall_ms"] is None,
                 "the resume saved")
        # killed while running: the time it is down counts as played, nothing is told again
        processes[1].send_signal(signal.SIGKILL)
        processes[1].wait(30)
        wait_for(lambda: watch.service_states()[-1:] == ["lost"], "the clock's will again")
        seen_before = len(watch.statuses())
        processes.append(_start_clock(broker, tmp_path))
        again = wait_for(lambda: watch.statuses()[seen_before:][-1:], "a status from the "
                         "clock started again")[0]
        assert again["step"] == "Level 2" and not again["paused"]
        assert again["remaining_ms"] < running["remaining_ms"]
        assert watch.levels() == [1, 3, 2]
    finally:
        for server in pages:
            server.stop()
        for process in processes:
            if process.poll() is None:
                process.terminate()
                process.wait(30)
        director.disconnect()
        director.loop_stop()
        watch.stop()


def test_fresh_sets_the_saved_clock_aside_for_a_new_tournament(tmp_path: Path) -> None:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    saved = tmp_path / "clock-club.json"
    saved.write_text('{"index": 2}')
    argv = ["--venue", "club", "--structure", "s.toml", "--state-file", str(saved)]
    assert state_file_for(parser.parse_args(argv)) == saved and saved.exists()
    assert state_file_for(parser.parse_args([*argv, "--fresh"])) == saved
    assert not saved.exists() and json.loads((tmp_path / "clock-club.json.old").read_text()) == {
        "index": 2}
    monkeypatched = parser.parse_args(["--venue", "club", "--structure", "s.toml"])
    assert state_file_for(monkeypatched).name == "clock-club.json"
