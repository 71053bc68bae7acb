"""Mutation testing of the core modules with Cosmic Ray: a benchmark-style job, not CI.

    .venv/bin/pip install -e '.[mutation]'
    .venv/bin/python -m pokertable.bench.mutation [--only pots journal ...] [--out DIR]

For each target, Cosmic Ray makes every one-line mutant of the module (a ``<`` for a
``<=``, a ``+ 1`` for a ``- 1``, a ``True`` for a ``False``...), writes it over the file
in place and runs the module's own test selection; a mutant the tests fail on is killed.
The score per module is killed / (killed + survived); surviving mutants are listed with
their diff in ``<out>/<target>-survivors.txt`` so each is killed by a new test or
documented as equivalent in docs/testing.md.

Why Cosmic Ray and not mutmut: mutmut 3 runs the tests on a copy of the project in
``mutants/``, and this project installs its folders under the ``pokertable`` namespace
with an editable package-dir mapping that points back at the real folders, so the copy
would never be imported. Cosmic Ray mutates the real file and restores it after each
mutant, so the installed namespace sees every mutant. If the job is killed half-way,
``git checkout`` the module it was on.

The broker ACL is not Python: its mutants come from bench/acl_mutation.py.

Every test run gets an empty bytecode cache (``PYTHONPYCACHEPREFIX``): a mutant that
keeps the file's size within the same second would otherwise run the stale ``.pyc``.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Target:
    module: str  # path from the repository root
    tests: tuple[str, ...]  # pytest arguments: the module's own test selection
    functions: tuple[str, ...] = ()  # only these functions/methods (empty: the whole module)


# The engine's fast selection: every engine test but the PokerKit differential (20 s a
# run; it is the independent oracle, run by the suite), the hand evaluator's (eval7) and the
# CLI runs in subprocesses; the rules through TableSession.
ENGINE_TESTS = (
    "tests/engine",
    "--ignore=tests/engine/test_pokerkit_differential.py",
    "--ignore=tests/engine/test_evaluation.py",
    "--ignore=tests/engine/test_replay_cli.py",
    "tests/profiles",
    "--deselect=tests/profiles/test_profiles.py::test_rules_cli_show_and_diff",
    "tests/app/test_table_session_rules.py",
    "tests/app/test_session_rules.py",
    "tests/app/test_public_pots.py",
)

TARGETS: dict[str, Target] = {
    "journal": Target(
        "controller/app/journal.py",
        (
            "tests/app/test_journal_files.py",
            "tests/reliability/test_files_damaged.py",  # torn, corrupt, foreign: the real table
            "tests/app/test_hole_cards_at_rest.py",  # sealed records
            "--doctest-modules",
            "controller/app/journal.py",
        ),
    ),
    "outbox": Target(
        "mqtt/outbox.py",
        (
            "tests/mqtt/test_mqtt_outbox.py",
            "tests/mqtt/test_mutants_outbox.py",
            "--doctest-modules",
            "mqtt/outbox.py",
        ),
    ),
    "pots": Target(
        "controller/engine/pots.py",
        (*ENGINE_TESTS, "--doctest-modules", "controller/engine/pots.py"),
    ),
    "wire": Target(
        "firmware/wire.py",
        (
            "tests/firmware/test_wire_codec.py",
            "tests/firmware/test_mutants_wire.py",
            "tests/firmware/test_wire_cross.py",
        ),
    ),
    "betting": Target(
        "controller/engine/betting.py",
        (*ENGINE_TESTS, "--doctest-modules", "controller/engine/betting.py"),
    ),
    "engine": Target("controller/engine/state_machine.py", ENGINE_TESTS),
    # A player's action (split from the engine), and the record copiers every step uses:
    # evolve's and builder's exec-generated code, through the engine's whole selection.
    "actions": Target("controller/engine/actions.py", ENGINE_TESTS),
    "model-copy": Target(
        "controller/engine/model.py",
        ENGINE_TESTS,
        functions=("evolve", "_make_copier", "_all_slots", "_twin_of", "builder"),
    ),
    "interpretation": Target(
        "controller/interpretation",
        (
            "tests/interpretation",
            "tests/profiles/test_difference_rows.py",  # profile rows read through the layers
            "tests/profiles/test_profile_cases.py",  # T11 two-motion raise, 50% basis (A31)
            "tests/app/test_session_rules.py",
            "tests/app/test_session.py",
            "tests/app/test_bet_zones.py",  # the zones through TableSession (held chips' change)
            "tests/app/test_table_session_rules.py",  # A6 and floor decisions from the room
        ),
    ),
    "irregularities": Target(
        "controller/irregularities",
        (
            "tests/irregularities",
            "tests/profiles/test_difference_rows.py",
            "tests/profiles/test_profile_cases.py",  # misdeal and re-deal rows per profile
            "tests/app/test_session_rules.py",
            "tests/app/test_session.py",
            "tests/app/test_session_read_order.py",  # the read window (burn due, first card)
        ),
    ),
    # The dedupe, both sides: the table answers a repeated request_id again without applying
    # it (``process`` decides, ``_apply`` remembers, ``_answer_again`` answers), and a
    # consumer drops QoS 1 repeats by session and seq (``TableView.accept``, through
    # ``Room.apply``). Only those functions' lines are mutated.
    "dedupe-app": Target(
        "controller/app/table_app.py",
        (
            "tests/app/test_mutants_request_ids.py",
            "tests/app/test_journal_files.py",  # the replay: the last input applied too
            "tests/app/test_console_drives_the_table.py",  # outputs published, in order
        ),
        functions=("process", "_apply", "_answer_again"),
    ),
    "dedupe-watch": Target(
        "mqtt/watch.py",
        (
            "tests/mqtt/test_mutants_dedupe.py",
            "tests/mqtt/test_mqtt_watch.py::test_room_detects_gap_and_ignores_duplicates",
        ),
        functions=("accept", "apply"),  # TableView.accept, and Room.apply that acts on it
    ),
}


def function_lines(module: Path, names: tuple[str, ...]) -> list[str]:
    """Line ranges ("a-b") of the named functions or methods, for Cosmic Ray's line filter."""
    ranges = []
    for node in ast.walk(ast.parse(module.read_text())):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name in names:
            ranges.append(f"{node.lineno}-{node.end_lineno}")
    return ranges


def write_config(name: str, target: Target, out: Path, timeout_s: float) -> Path:
    nopyc = out / "nopyc"
    nopyc.mkdir(parents=True, exist_ok=True)
    test_command = (
        f"env PYTHONDONTWRITEBYTECODE=1 PYTHONPYCACHEPREFIX={nopyc} {shlex.quote(sys.executable)}"
        " -m pytest -x -q -p no:cacheprovider -p no:warnings "
        + " ".join(shlex.quote(t) for t in target.tests)
    )
    lines = [
        "[cosmic-ray]",
        f'module-path = "{target.module}"',
        f"timeout = {timeout_s}",
        "excluded-modules = []",
        f"test-command = {json.dumps(test_command)}",  # a JSON string is a TOML basic string
        "",
        "[cosmic-ray.distributor]",
        'name = "local"',
    ]
    if target.functions:
        spans = function_lines(ROOT / target.module, target.functions)
        lines += [
            "",
            "[cosmic-ray.filters.line-filter.lines]",
            f"{json.dumps(target.module)} = {json.dumps(spans)}",
        ]
    config = out / f"{name}.toml"
    config.write_text("\n".join(lines) + "\n")
    return config


def annotation_spans(module: Path) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """(start, end) positions of every annotation: never evaluated under
    ``from __future__ import annotations``, so a mutant inside one is equivalent by
    construction (``str | Path`` to ``str - Path``) and is not run."""
    tree = ast.parse(module.read_text())
    if not any(
        isinstance(n, ast.ImportFrom)
        and n.module == "__future__"
        and any(a.name == "annotations" for a in n.names)
        for n in tree.body
    ):
        return []
    found: list[ast.expr] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.arg) and node.annotation is not None:
            found.append(node.annotation)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.returns:
            found.append(node.returns)
        elif isinstance(node, ast.AnnAssign):
            found.append(node.annotation)
    return [
        ((a.lineno, a.col_offset), (a.end_lineno or a.lineno, a.end_col_offset or 0)) for a in found
    ]


def _inside(pos: tuple[int, int], spans: list[tuple[tuple[int, int], tuple[int, int]]]) -> bool:
    return any(start <= tuple(pos) < end for start, end in spans)


def skip_unrun(session: Path, sample: int | None, seed: int) -> tuple[int, int]:
    """Mark annotation mutants, and all but a random sample of the rest, as not to be run.

    Returns (annotation mutants, mutants left out of the sample)."""
    import random

    from cosmic_ray.work_db import WorkDB, use_db  # type: ignore[import-untyped]
    from cosmic_ray.work_item import WorkerOutcome, WorkResult  # type: ignore[import-untyped]

    spans: dict[Path, list[tuple[tuple[int, int], tuple[int, int]]]] = {}
    annotation: list[str] = []
    rest: list[str] = []
    with use_db(str(session), WorkDB.Mode.open) as db:
        for item in sorted(db.work_items, key=lambda i: i.job_id):
            mutation = item.mutations[0]
            path = ROOT / mutation.module_path
            if path not in spans:
                spans[path] = annotation_spans(path)
            (annotation if _inside(mutation.start_pos, spans[path]) else rest).append(item.job_id)
        db.set_multiple_results(
            annotation, WorkResult(worker_outcome=WorkerOutcome.SKIPPED, output="annotation")
        )
        left_out: list[str] = []
        if sample is not None and sample < len(rest):
            # Sort by position first so that a seed picks the same mutants on every run.
            keyed = {}
            for item in db.work_items:
                m = item.mutations[0]
                keyed[item.job_id] = (
                    str(m.module_path),
                    tuple(m.start_pos),
                    m.operator_name,
                    m.occurrence,
                )
            ordered = sorted(rest, key=lambda j: keyed[j])
            chosen = set(random.Random(seed).sample(ordered, sample))
            left_out = [j for j in ordered if j not in chosen]
            db.set_multiple_results(
                left_out, WorkResult(worker_outcome=WorkerOutcome.SKIPPED, output="not sampled")
            )
    return len(annotation), len(left_out)


def rerun_survivors(session: Path) -> int:
    """Forget the survivors' results so that ``exec`` runs them again (after new tests).

    Mutants a stopped run never reached are marked "not reached" first, so that the re-run
    runs the survivors only."""
    import sqlite3

    con = sqlite3.connect(session)
    with con:
        con.execute(
            "INSERT INTO work_results (worker_outcome, output, job_id)"
            " SELECT 'SKIPPED', 'not reached', job_id FROM work_items"
            " WHERE job_id NOT IN (SELECT job_id FROM work_results)"
        )
        count = con.execute("DELETE FROM work_results WHERE test_outcome = 'SURVIVED'").rowcount
    con.close()
    return count


@dataclass
class Score:
    killed: int = 0
    timeouts: int = 0  # counted in killed: a mutant that makes the tests hang is caught
    survived: int = 0
    annotation: int = 0
    not_sampled: int = 0
    other: int = 0
    not_run: int = 0  # the job was stopped before it reached them


def run_target(
    name: str,
    target: Target,
    out: Path,
    timeout_s: float,
    *,
    sample: int | None = None,
    seed: int = 20,
    survivors_only: bool = False,
) -> Score:
    """Run one target and write its survivors file (``<out>/<name>-survivors.txt``)."""
    config = write_config(name, target, out, timeout_s)
    session = out / f"{name}.sqlite"
    bin_dir = Path(sys.executable).parent
    if survivors_only and session.exists():
        print(f"{name}: re-running {rerun_survivors(session)} survivors", flush=True)
    else:
        session.unlink(missing_ok=True)
        subprocess.run([bin_dir / "cosmic-ray", "init", config, session], cwd=ROOT, check=True)
        if target.functions:
            subprocess.run(
                [bin_dir / "cr-filter-lines", "--config", config, session], cwd=ROOT, check=True
            )
        skip_unrun(session, sample, seed)
    subprocess.run([bin_dir / "cosmic-ray", "exec", config, session], cwd=ROOT, check=True)
    return read_score(name, out)


def read_score(name: str, out: Path) -> Score:
    """Count a target's session and write its survivors file (``<out>/<name>-survivors.txt``)."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import TestOutcome, WorkerOutcome

    score = Score()
    report = []
    with use_db(str(out / f"{name}.sqlite"), WorkDB.Mode.open) as db:
        for item, result in sorted(db.completed_work_items, key=lambda r: r[0].job_id):
            if result.worker_outcome is WorkerOutcome.SKIPPED:
                if result.output == "annotation":
                    score.annotation += 1
                elif result.output == "not sampled":
                    score.not_sampled += 1
                elif result.output == "not reached":
                    score.not_run += 1
                else:
                    score.other += 1
            elif result.test_outcome is TestOutcome.SURVIVED:
                score.survived += 1
                m = item.mutations[0]
                report.append(
                    f"# {item.job_id} {m.module_path}:{m.start_pos[0]} "
                    f"{m.operator_name}\n{result.diff}\n"
                )
            elif result.test_outcome in (TestOutcome.KILLED, TestOutcome.INCOMPETENT):
                score.killed += 1
                score.timeouts += result.output == "timeout"
            else:
                score.other += 1
        score.not_run += db.num_work_items - db.num_results
    (out / f"{name}-survivors.txt").write_text("".join(report))
    return score


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", nargs="*", choices=sorted(TARGETS), default=None)
    parser.add_argument("--out", type=Path, default=ROOT / ".mutation")
    parser.add_argument(
        "--timeout",
        type=float,
        default=60.0,
        help="seconds one test run may take before the mutant counts as hung",
    )
    parser.add_argument(
        "--sample",
        type=int,
        default=None,
        help="run only this many mutants per target, picked at random",
    )
    parser.add_argument("--seed", type=int, default=20, help="seed of --sample")
    parser.add_argument(
        "--survivors",
        action="store_true",
        help="re-run only the last run's survivors (after adding tests)",
    )
    parser.add_argument(
        "--report",
        action="store_true",
        help="only count the last run of each target (also a half-finished one)",
    )
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    os.chdir(ROOT)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores", flush=True)
    for name in args.only or list(TARGETS):
        if args.report:
            if not (args.out / f"{name}.sqlite").exists():
                continue
            s = read_score(name, args.out)
        else:
            s = run_target(
                name,
                TARGETS[name],
                args.out,
                args.timeout,
                sample=args.sample,
                seed=args.seed,
                survivors_only=args.survivors,
            )
        total = s.killed + s.survived
        score = 100.0 * s.killed / total if total else 0.0
        print(
            f"{name:15s} {TARGETS[name].module:30s} killed {s.killed:4d}/{total:4d}"
            f" = {score:5.1f}%  (timeouts {s.timeouts}, annotation mutants not run"
            f" {s.annotation}, not sampled {s.not_sampled}, not reached {s.not_run},"
            f" other {s.other})",
            flush=True,
        )
    print(f"load average {os.getloadavg()[0]:.1f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
