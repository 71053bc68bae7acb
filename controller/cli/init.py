"""``pokertable init``: write a table.toml for this machine after a few questions.

The questions are the few things only the installer knows (venue, table id, seats, the
first blinds, the broker); the rest is found on the machine: reader ports under
``/dev/serial/by-id/`` and ``/dev/ttyAMA0``, a GPIO console only on a Raspberry Pi. The file
is checked as ``pokertable run --check`` checks it before this command says it is done::

    pokertable init                                  # asks, writes ./table.toml
    pokertable init --defaults --venue club-1 --table t07 --output /etc/pokertable/table.toml
"""

from __future__ import annotations

import argparse
import glob
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

SERVICE_DATA = Path("/var/lib/pokertable")
KEY_FILE = "hole-cards.key"


@dataclass
class Answers:
    venue: str = "club-1"
    table: str = "t01"
    seats: int = 9
    small_blind: int = 100
    big_blind: int = 200
    ports: list[str] = field(default_factory=list)
    broker: str = "127.0.0.1:1883"
    gpio: str = "none"
    data_dir: str = ""  # "" = beside the config file


def detect_ports(by_id: str = "/dev/serial/by-id/*", header: str = "/dev/ttyAMA0") -> list[str]:
    """Reader ports present now: USB adapters by their stable names, then the header UART."""
    found = sorted(glob.glob(by_id))
    if Path(header).exists():
        found.append(header)
    return found


def _ask(prompt: str, default: str, read: Callable[[str], str]) -> str:
    answer = read(f"{prompt} [{default}]: ").strip()
    return answer or default


def ask(answers: Answers, read: Callable[[str], str] = input) -> Answers:
    """The few questions; Enter keeps the default shown in brackets."""
    answers.venue = _ask("venue (MQTT topic prefix)", answers.venue, read)
    answers.table = _ask("table id", answers.table, read)
    answers.seats = _ask_int("seats (2-10)", answers.seats, read, SEATS)
    answers.small_blind = _ask_int("first level: small blind", answers.small_blind, read)
    answers.big_blind = _ask_int("first level: big blind", answers.big_blind, read)
    ports = _ask("reader ports, comma-separated (none: no readers yet)",
                 ",".join(answers.ports) or "none", read)
    answers.ports = [] if ports == "none" else [p.strip() for p in ports.split(",") if p.strip()]
    answers.broker = _ask("MQTT broker HOST:PORT", answers.broker, read)
    return answers


def _ask_int(
    prompt: str, default: int, read: Callable[[str], str], allowed: range | None = None
) -> int:
    while True:
        text = _ask(prompt, str(default), read)
        if not text.isdigit():
            print(f"  {text!r} is not a whole number")
        elif allowed is not None and int(text) not in allowed:
            print(f"  {text}: must be {allowed.start} to {allowed.stop - 1}")
        else:
            return int(text)


SEATS = range(2, 11)  # a table seats 2 to 10 (the engine's MAX_SEATS)


def _seat_count(text: str) -> int:
    """--seats, checked when parsed."""
    if not text.isdigit() or int(text) not in SEATS:
        raise argparse.ArgumentTypeError(
            f"{text!r}: a table seats {SEATS.start} to {SEATS.stop - 1}"
        )
    return int(text)


def render(answers: Answers) -> str:
    """The TOML text (strings through json.dumps: a TOML basic string is a JSON string)."""
    host, _, port = answers.broker.rpartition(":")
    data = Path(answers.data_dir) if answers.data_dir else None

    def path(name: str) -> str:
        return json.dumps(str(data / name) if data else name)

    lines = [
        "# Written by `pokertable init`; every key is explained in docs/install-pi.md.",
        "# Check it with: pokertable run --config <this file> --check",
        "",
        "[table]",
        f"venue = {json.dumps(answers.venue)}",
        f"id = {json.dumps(answers.table)}",
        f"seats = {answers.seats}",
        'profile = "tda-2024"',
        "",
        "[[levels]]",
        "number = 1",
        f"small_blind = {answers.small_blind}",
        f"big_blind = {answers.big_blind}",
        "",
        "# Players seated at start; the director seats the others over MQTT (seat_player).",
        "# [[players]]",
        "# seat = 1",
        '# name = "Ada"',
        "# stack = 20000",
        "",
        "[registry]",
        f"path = {path('registry.sqlite3')}",
        "",
        "[journal]",
        f"path = {path('journal.jsonl')}",
        "",
        "# Hole cards are sealed at rest with this key (mode 0600; keep a copy off the table)",
        "[sealing]",
        f"key_file = {path(KEY_FILE)}",
        "",
    ]
    for port_path in answers.ports:
        lines += ["[[readers]]", f"port = {json.dumps(port_path)}", 'transport = "uart"', ""]
    if not answers.ports:
        lines += ["# No readers yet: one [[readers]] block per bus, e.g.",
                  '# [[readers]]', '# port = "/dev/ttyAMA0"', ""]
    lines += [
        "[gpio]",
        f"backend = {json.dumps(answers.gpio)}   # auto on a Pi (the dealer console), else none",
        "",
        "[mqtt]",
        f"host = {json.dumps(host or '127.0.0.1')}",
        f"port = {int(port) if port.isdigit() else 1883}",
        f"outbox = {path('outbox.sqlite3')}",
        "",
    ]
    return "\n".join(lines)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Write a table.toml for this machine: asks the venue, table id, seats, first blinds, "
        "reader ports and broker (Enter keeps each default), finds the reader ports and "
        "whether this is a Pi, then checks the file as 'run --check' does."
    )
    parser.add_argument("--output", type=Path, default=Path("table.toml"), metavar="FILE",
                        help="where to write (default: ./table.toml)")
    parser.add_argument("--force", action="store_true", help="overwrite FILE if it exists")
    parser.add_argument("--defaults", action="store_true",
                        help="ask nothing: the options given, else the defaults")
    parser.add_argument("--venue", help="venue name, the MQTT topic prefix (default: club-1)")
    parser.add_argument("--table", help="table id (default: t01)")
    parser.add_argument("--seats", type=_seat_count,
                        help="seats at the table, 2-10 (default: 9)")
    parser.add_argument("--port", action="append", metavar="PORT",
                        help="a reader port (repeat; default: the ports found on this machine)")
    parser.add_argument("--broker", metavar="HOST:PORT",
                        help="the MQTT broker (default: 127.0.0.1:1883)")


def run(args: argparse.Namespace) -> int:
    from pokertable.controller.app.config import file_problems
    from pokertable.hardware.gpio import running_on_pi

    output: Path = args.output
    if output.exists() and not args.force:
        print(f"init: {output} exists; use --force to overwrite it", file=sys.stderr)
        return 1
    answers = Answers(ports=detect_ports(), gpio="auto" if running_on_pi() else "none")
    if output.resolve().parent == Path("/etc/pokertable") or SERVICE_DATA.is_dir():
        answers.data_dir = str(SERVICE_DATA)
    for name in ("venue", "table", "seats", "broker"):
        if getattr(args, name) is not None:
            setattr(answers, name, getattr(args, name))
    if args.port:
        answers.ports = list(args.port)
    if not args.defaults:
        try:
            answers = ask(answers)
        except EOFError:
            print("init: no answers on stdin; use --defaults to write without asking",
                  file=sys.stderr)
            return 1
    from pokertable.controller.sealing import new_key

    key = (Path(answers.data_dir) if answers.data_dir else output.parent) / KEY_FILE
    try:
        output.write_text(render(answers), encoding="utf-8")
        if not key.exists():  # an existing key still opens its journal: never replaced
            new_key(key)
    except OSError as exc:
        print(f"init: cannot write {exc.filename}: {exc.strerror}", file=sys.stderr)
        return 1
    problems = file_problems(output)
    if problems:
        for problem in problems:
            print(f"config error: {output}: {problem}", file=sys.stderr)
        print(f"init: wrote {output}; fix the lines above before starting the table",
              file=sys.stderr)
        return 78
    from pokertable.controller.app.config import load_config
    from pokertable.controller.app.data_files import DataFileError, check_data_files
    from pokertable.hardware.errors import RegistryError
    from pokertable.hardware.registry import TagRegistry

    registry = Path(load_config(output).registry.path)
    made_registry = not registry.exists()
    try:
        if made_registry:  # empty until `pokertable enroll`: the table needs the file
            TagRegistry(registry).close()
        check_data_files(load_config(output))  # what `run --check` checks after the file
    except (RegistryError, DataFileError, OSError) as exc:
        print(f"init: wrote {output}; data file error: {exc}", file=sys.stderr)
        return 78
    print(f"init: wrote {output}: ok (check again any time: pokertable run --config "
          f"{output} --check)")
    if made_registry:
        print(f"init: made an empty tag registry {registry}: enroll the chips and cards "
              "(`pokertable enroll`) before the first hand")
    return 0
