"""deploy/install-room.sh installs the room's services (issue #27): its plan, its refusals,
the room unit as systemd reads it, and a real run into a temporary root that writes the
user, the config, the password files (0600) and the enabled units, and keeps them on a
second run."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import tomllib
from pathlib import Path

import pytest

from pokertable.room.room_config import RoomConfig

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
SCRIPT = DEPLOY / "install-room.sh"
UNIT = DEPLOY / "pokertable-room@.service"
EXAMPLE = DEPLOY / "room.example.toml"
DOC = ROOT / "docs" / "room.md"
EXAMPLE_SERVICES = list(RoomConfig.model_validate(tomllib.loads(EXAMPLE.read_text())).services())
PASSWORD_FILES = [
    "/etc/pokertable/secrets/clock",
    "/etc/pokertable/secrets/director",
    "/etc/pokertable/secrets/archive",
    "/etc/pokertable/secrets/broadcaster",
]


def install(
    tmp_path: Path,
    *args: str,
    as_nobody: bool = False,
    systemd_running: bool = False,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """The script with a stand-in for /run/systemd/system; as ``nobody`` when asked (the
    not-root refusal, tested as root too)."""
    env = {**os.environ, **(env or {})}
    run_dir = tmp_path / "run-systemd-system"
    if systemd_running:
        run_dir.mkdir(exist_ok=True)
    env["POKERTABLE_SYSTEMD_RUN_DIR"] = str(run_dir)
    command = ["bash", str(SCRIPT), *args]
    if as_nobody and os.geteuid() == 0:
        command = ["runuser", "-u", "nobody", "--", *command]
    return subprocess.run(
        command, env=env, capture_output=True, text=True, timeout=120, check=False
    )


def planned(result: subprocess.CompletedProcess[str]) -> list[str]:
    """The commands of a dry run, unquoted (the script prints them shell-quoted)."""
    return [
        " ".join(shlex.split(line[2:]))
        for line in result.stdout.splitlines()
        if line.startswith("+ ")
    ]


def test_the_script_parses() -> None:
    result = subprocess.run(
        ["bash", "-n", str(SCRIPT)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.needs("shellcheck")  # a local run without it skips; CI fails
def test_the_script_is_shellcheck_clean() -> None:
    result = subprocess.run(
        ["shellcheck", str(SCRIPT)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout


@pytest.mark.needs("systemd-analyze")  # a local run without it skips; CI fails
@pytest.mark.parametrize("service", EXAMPLE_SERVICES)
def test_systemd_accepts_the_room_unit_for_every_service(tmp_path: Path, service: str) -> None:
    """Each instance the script enables, as systemd reads it (the programs stand in)."""
    unit = tmp_path / f"pokertable-room@{service}.service"
    unit.write_text(re.sub(r"(?m)^(ExecStart(?:Pre)?)=.*$", r"\1=/bin/true", UNIT.read_text()))
    result = subprocess.run(
        ["systemd-analyze", "verify", str(unit)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0 and result.stderr.strip() == "", result.stderr


def test_without_root_and_without_dry_run_it_refuses(tmp_path: Path) -> None:
    result = install(tmp_path, as_nobody=True)
    assert result.returncode == 77 and "run as root" in result.stderr
    assert planned(result) == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--frobnicate"], "unknown option '--frobnicate'"),
        (["--root"], "--root needs a directory"),
        (["--root", "/no/such/dir"], "--root /no/such/dir is not a directory"),
    ],
)
def test_bad_usage_is_one_line_and_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    result = install(tmp_path, "--dry-run", *args)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"install-room.sh: {message}" + (" (try --help)" if "unknown" in message else "")
    ]


def test_the_dry_run_plans_user_config_secrets_unit_then_the_services_units(
    tmp_path: Path,
) -> None:
    result = install(
        tmp_path, "--dry-run", env={"POKERTABLE_CONF_DIR": str(tmp_path / "etc-pokertable")}
    )
    assert result.returncode == 0, result.stderr
    plan = planned(result)
    first = {
        name: next(i for i, c in enumerate(plan) if re.search(pattern, c))
        for name, pattern in {
            "user": r"^useradd --system .* pokertable$",
            "code": rf"-m pip install --quiet --upgrade {ROOT}\[broadcast\]$",
            "config": r"room.example.toml .*/etc-pokertable/room.toml$",
            "secrets": r"^install -D -m 0600 -o pokertable -g pokertable /dev/null ",
            "unit": r"pokertable-room@.service /etc/systemd/system/pokertable-room@",
            "enable": r"^systemctl enable ",
        }.items()
    }
    order = ["user", "code", "config", "secrets", "unit", "enable"]
    assert sorted(order, key=first.__getitem__) == order
    assert [c.rsplit(" ", 1)[1] for c in plan if "/dev/null" in c] == PASSWORD_FILES
    config = f"{tmp_path}/etc-pokertable/room.toml"
    assert f"install -m 0640 -o root -g pokertable {EXAMPLE} {config}" in plan
    assert [c for c in plan if c.startswith("systemctl enable")] == [
        "systemctl enable " + " ".join(f"pokertable-room@{s}.service" for s in EXAMPLE_SERVICES)
    ]
    assert "==> done; systemd is not running here: the services start at the next boot" in (
        result.stdout.splitlines()
    )


@pytest.mark.needs("root")  # useradd and chown into the temporary root
def test_a_run_into_a_temporary_root_writes_the_room_and_keeps_it_on_a_rerun(
    tmp_path: Path,
) -> None:
    root = tmp_path / "root"
    (root / "etc").mkdir(parents=True)
    for name in ("passwd", "group", "shadow", "gshadow"):
        (root / "etc" / name).touch()
    result = install(tmp_path, "--root", str(root))
    assert result.returncode == 0, result.stderr

    users = {
        line.split(":")[0]: line.split(":")
        for line in (root / "etc" / "passwd").read_text().splitlines()
    }
    assert users["pokertable"][5:] == ["/var/lib/pokertable", "/usr/sbin/nologin"]
    uid, gid = int(users["pokertable"][2]), int(users["pokertable"][3])

    def mode_and_owner(path: Path) -> tuple[str, int, int]:
        status = path.stat()
        return oct(status.st_mode & 0o777), status.st_uid, status.st_gid

    config = root / "etc" / "pokertable" / "room.toml"
    assert config.read_text() == EXAMPLE.read_text()
    assert mode_and_owner(config) == ("0o640", 0, gid)
    assert mode_and_owner(config.parent / "secrets") == ("0o750", 0, gid)
    for name in PASSWORD_FILES:
        secret = root / name.lstrip("/")
        assert mode_and_owner(secret) == ("0o600", uid, gid) and secret.read_text() == ""
    assert mode_and_owner(root / "var" / "lib" / "pokertable") == ("0o750", uid, gid)
    systemd = root / "etc" / "systemd" / "system"
    assert (systemd / "pokertable-room@.service").read_text() == UNIT.read_text()
    wants = systemd / "multi-user.target.wants"
    assert sorted(p.name for p in wants.iterdir()) == sorted(
        f"pokertable-room@{s}.service" for s in EXAMPLE_SERVICES
    )
    assert all(
        os.readlink(p) == "/etc/systemd/system/pokertable-room@.service" for p in wants.iterdir()
    )
    assert "write its broker login's password in /etc/pokertable/secrets/clock" in result.stdout

    # The owner edits the config, writes a password and loosens another file's mode.
    config.write_text(EXAMPLE.read_text().replace("[relay.t07]", "[relay.t08]"))
    (root / "etc/pokertable/secrets/clock").write_text("clock-pw\n")
    (root / "etc/pokertable/secrets/director").chmod(0o644)
    again = install(tmp_path, "--root", str(root))
    assert again.returncode == 0, again.stderr
    assert f"==> keeping the existing {config}" in again.stdout.splitlines()
    assert "[relay.t08]" in config.read_text()
    assert (root / "etc/pokertable/secrets/clock").read_text() == "clock-pw\n"
    assert "write its broker login's password in /etc/pokertable/secrets/clock" not in (
        again.stdout
    )
    assert mode_and_owner(root / "etc/pokertable/secrets/director") == ("0o600", uid, gid)
    assert [
        u for u in (root / "etc" / "passwd").read_text().splitlines() if u.startswith("pokertable:")
    ] == [":".join(users["pokertable"])]
    assert "pokertable-room@relay-t08.service" in {p.name for p in wants.iterdir()}


def test_an_existing_config_is_kept_and_the_services_restarted(tmp_path: Path) -> None:
    """An update on a running system: the owner's room.toml and passwords stay (tightened
    to 0600), every service the file names is enabled and restarted with the new code."""
    conf = tmp_path / "etc-pokertable"
    conf.mkdir()
    secret = tmp_path / "director.secret"
    secret.write_text("pw\n")
    (conf / "room.toml").write_text(
        '[room]\nvenue = "club"\n[floor]\nhttp_port = 8081\n'
        f'[seating]\nuser = "director"\npassword_file = "{secret}"\n'
    )
    env_conf = {"POKERTABLE_CONF_DIR": str(conf)}
    result = install(tmp_path, "--dry-run", systemd_running=True, env=env_conf)
    assert result.returncode == 0, result.stderr
    assert f"==> keeping the existing {conf}/room.toml" in result.stdout.splitlines()
    plan = planned(result)
    assert not any(c.endswith(f"{conf}/room.toml") for c in plan), plan  # never overwritten
    assert f"chmod 0600 {secret}" in plan and not any("/dev/null" in c for c in plan)
    units = "pokertable-room@floor.service pokertable-room@seating.service"
    assert [c for c in plan if c.startswith("systemctl")] == [
        "systemctl daemon-reload",
        f"systemctl enable {units}",
        f"systemctl restart {units}",
    ]


def test_every_exit_status_is_documented_in_the_header_and_the_guide() -> None:
    script = SCRIPT.read_text()
    used = {int(code) for code in re.findall(r"\bexit (\d+)", script)} | {1}
    used.discard(0)
    lines = [line.lstrip("#").strip() for line in script.splitlines()]
    start = next(i for i, line in enumerate(lines) if line.startswith("Exit status:"))
    header = " ".join(lines[start : next(i for i in range(start, len(lines)) if not lines[i])])
    guide = DOC.read_text()
    for code in used:
        assert re.search(rf"\b{code} [a-z]", header), f"exit {code} is not in the header"
        assert f"`{code}`" in guide, f"exit {code} is not in docs/room.md"
