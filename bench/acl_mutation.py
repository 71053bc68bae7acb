"""Mutation testing of the broker ACL (mqtt/broker/pokertable.acl): a benchmark-style job.

    nice -n 19 .venv/bin/python -m pokertable.bench.acl_mutation [--jobs 2] [--out DIR]
        [--lines 10-12,24]   # only the mutants of these ACL lines

Cosmic Ray mutates Python only; the ACL is a mosquitto config, so this job makes its own
mutants: for every line that grants something (``topic``/``pattern``) it drops the line,
changes the access (``readwrite`` to ``read`` and to ``write``, ``read`` and ``write`` to
``readwrite``), widens the topic's last level to ``#`` (the one before it when the last
is already ``#``), and replaces ``%u`` with ``+`` (the table loses its own subtree) and
with ``+/+`` (a table login, ``<venue>/<table>``, gets every table's). Each mutant runs
the per-role matrix (tests/mqtt/test_acl_roles.py) against a real mosquitto started with
the mutated ACL (``POKERTABLE_TEST_ACL``); a mutant is killed when a test fails.
Survivors are written to ``<out>/acl-survivors.txt``.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ACL = ROOT / "mqtt" / "broker" / "pokertable.acl"
TESTS = ("tests/mqtt/test_acl_roles.py",)
GRANT = re.compile(
    r"^(?P<kind>topic|pattern)(?:\s+(?P<access>read|write|readwrite))?\s+(?P<topic>\S+)\s*$"
)


@dataclass(frozen=True)
class Mutant:
    line: int  # 1-based line of the ACL
    what: str
    text: str  # the whole mutated ACL


def _access_mutants(access: str) -> tuple[str, ...]:
    return {"readwrite": ("read", "write"), "read": ("readwrite",), "write": ("readwrite",)}[
        access
    ]


def _widened(topic: str) -> str | None:
    levels = topic.split("/")
    keep = levels[:-2] if levels[-1] == "#" else levels[:-1]
    if len(keep) < 2:  # "pokertable/#" and wider: nothing more to learn
        return None
    return "/".join([*keep, "#"])


def mutants(text: str) -> Iterator[Mutant]:
    """Every mutant of every granting line, in file order."""
    lines = text.splitlines(keepends=True)
    for i, line in enumerate(lines):
        match = GRANT.match(line.strip())
        if match is None:
            continue
        kind, topic = match["kind"], match["topic"]
        access = match["access"] or "readwrite"  # no access word means readwrite

        def variant(new_line: str, what: str, i: int = i) -> Mutant:
            return Mutant(i + 1, what, "".join([*lines[:i], new_line, *lines[i + 1 :]]))

        yield variant("", "line dropped")
        for other in _access_mutants(access):
            yield variant(f"{kind} {other} {topic}\n", f"{access} -> {other}")
        wide = _widened(topic)
        if wide is not None:
            yield variant(f"{kind} {access} {wide}\n", f"{topic} -> {wide}")
        if "%u" in topic:
            for repl in ("+", "+/+"):
                yield variant(
                    f"{kind} {access} {topic.replace('%u', repl)}\n", f"%u -> {repl}"
                )


def line_numbers(text: str) -> set[int]:
    """``10-12,24`` as {10, 11, 12, 24}: an argparse type.

    >>> sorted(line_numbers("10-12,24"))
    [10, 11, 12, 24]
    """
    found: set[int] = set()
    try:
        for part in text.split(","):
            first, _, last = part.partition("-")
            found.update(range(int(first), int(last or first) + 1))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not line numbers (10-12,24)") from None
    return found


def run_mutant(mutant: Mutant, index: int, out: Path, timeout_s: float) -> tuple[str, str]:
    """(outcome, pytest output tail): killed, survived or timeout (counted killed)."""
    acl = out / f"acl-{index:03d}.acl"
    acl.write_text(mutant.text)
    env = dict(os.environ, POKERTABLE_TEST_ACL=str(acl), PYTHONDONTWRITEBYTECODE="1")
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *TESTS]
    try:
        done = subprocess.run(
            command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout_s
        )
    except subprocess.TimeoutExpired:
        return "timeout", ""
    tail = "\n".join(done.stdout.strip().splitlines()[-3:])
    return ("survived" if done.returncode == 0 else "killed"), tail


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / ".mutation")
    parser.add_argument("--jobs", type=int, default=2, help="mutants run at once")
    parser.add_argument("--timeout", type=float, default=180.0, help="seconds per mutant")
    parser.add_argument("--list", action="store_true", help="only list the mutants")
    parser.add_argument("--lines", type=line_numbers,
                        help="only the mutants of these ACL lines (e.g. 10-12,24)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    found = [m for m in mutants(ACL.read_text(encoding="utf-8"))
             if args.lines is None or m.line in args.lines]
    if args.list:
        for m in found:
            print(f"{m.line:3d} {m.what}")
        print(f"{len(found)} mutants")
        return 0
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores", flush=True)
    lines = ACL.read_text(encoding="utf-8").splitlines()
    report: list[str] = []
    counts = {"killed": 0, "survived": 0, "timeout": 0}
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = pool.map(
            lambda im: run_mutant(im[1], im[0], args.out, args.timeout), enumerate(found)
        )
        for mutant, (outcome, _tail) in zip(found, results, strict=True):
            counts[outcome] += 1
            print(f"{outcome:8s} line {mutant.line:3d} {lines[mutant.line - 1]!r}: {mutant.what}",
                  flush=True)
            if outcome == "survived":
                report.append(f"line {mutant.line}: {lines[mutant.line - 1]}\n  {mutant.what}\n")
    (args.out / "acl-survivors.txt").write_text("".join(report))
    killed = counts["killed"] + counts["timeout"]
    print(
        f"acl  mqtt/broker/pokertable.acl  killed {killed}/{len(found)}"
        f" = {100.0 * killed / len(found):5.1f}%  (timeouts {counts['timeout']})",
        flush=True,
    )
    print(f"load average {os.getloadavg()[0]:.1f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
