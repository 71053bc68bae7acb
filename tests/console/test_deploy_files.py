"""The deployment files agree with each other, with the config schema and with systemd."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import tomllib
from pathlib import Path

import pytest

from pokertable.controller.app.config import parse_config
from pokertable.hardware.console import DEFAULT_PIN_MAP, ConsolePinMap

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
INSTALL = DEPLOY / "install.sh"
CHECK_ARM = DEPLOY / "check-arm.sh"
RUN_LIB = DEPLOY / "lib" / "run.sh"  # sourced by install.sh and install-room.sh
UNIT = DEPLOY / "pokertable.service"
EXAMPLE = DEPLOY / "table.example.toml"
DOC = ROOT / "docs" / "install-pi.md"

# BCM number -> physical pin on the 40-pin header (the Pi's published pinout).
HEADER_PIN = {4: 7, 17: 11, 27: 13, 22: 15, 5: 29, 6: 31, 13: 33, 26: 37, 23: 16, 24: 18,
              12: 32, 16: 36, 18: 12, 19: 35, 20: 38, 21: 40, 25: 22}


def unit_settings() -> dict[str, list[str]]:
    settings: dict[str, list[str]] = {}
    for line in UNIT.read_text().splitlines():
        if line and not line.startswith(("#", "[")):
            key, _, value = line.partition("=")
            settings.setdefault(key, []).append(value)
    return settings


PI_OS_BOOKWORM = ('PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\n'
                  "ID=debian\nVERSION_CODENAME=bookworm\n")


def dry_run(tmp_path: Path, *args: str, model: bytes | None = None,
            raspi_config: bool = False, boot_config: str = "",
            os_release: str = PI_OS_BOOKWORM, index_url: str | None = None,
            conf_dir: Path | None = None,
            lgpio_packaged: bool | None = None,
            systemd_running: bool = True) -> subprocess.CompletedProcess[str]:
    """install.sh --dry-run on a stand-in Pi OS: its os-release, model, boot config, and a
    package index that is a local folder (the network check reaches it, offline)."""
    env = dict(os.environ)
    release = tmp_path / "os-release"
    release.write_text(os_release)
    env["POKERTABLE_OS_RELEASE"] = str(release)
    if index_url is None:
        index = tmp_path / "index.html"
        index.write_text("<html></html>")
        index_url = index.as_uri()
    env["PIP_INDEX_URL"] = index_url
    env["POKERTABLE_CONF_DIR"] = str(conf_dir or "/etc/pokertable")
    run_dir = tmp_path / "run-systemd-system"
    if systemd_running:
        run_dir.mkdir(exist_ok=True)
    env["POKERTABLE_SYSTEMD_RUN_DIR"] = str(run_dir)
    model_file = tmp_path / "model"
    if model is not None:
        model_file.write_bytes(model)
    env["POKERTABLE_MODEL_FILE"] = str(model_file)
    config_txt = tmp_path / "config.txt"
    config_txt.write_text(boot_config)
    env["POKERTABLE_BOOT_CONFIG"] = str(config_txt)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    env["PATH"] = f"{bin_dir}:{env['PATH']}"
    if raspi_config:  # only its presence is checked in a dry run; it is never executed
        tool = bin_dir / "raspi-config"
        tool.write_text("#!/bin/sh\nexit 99\n")
        tool.chmod(0o755)
    if lgpio_packaged is not None:  # apt-cache as on Pi OS (True) or plain Debian (False)
        found = 0 if lgpio_packaged else 100
        tool = bin_dir / "apt-cache"
        tool.write_text(
            f'#!/bin/sh\n[ "$1 $2" = "show python3-lgpio" ] && exit {found}\nexit 100\n')
        tool.chmod(0o755)
    return subprocess.run(["bash", str(INSTALL), "--dry-run", *args], env=env,
                          capture_output=True, text=True, timeout=60, check=False)


def planned(result: subprocess.CompletedProcess[str]) -> list[str]:
    """The commands of a dry run, unquoted (the script prints them shell-quoted)."""
    return [" ".join(shlex.split(line[2:])) for line in result.stdout.splitlines()
            if line.startswith("+ ")]


# -- install.sh ---------------------------------------------------------------------------


def test_install_script_parses() -> None:
    result = subprocess.run(["bash", "-n", str(INSTALL)], capture_output=True, text=True,
                            check=False)
    assert result.returncode == 0, result.stderr


@pytest.mark.needs("shellcheck")  # a local run without it skips; CI fails
@pytest.mark.parametrize("script", [INSTALL, CHECK_ARM, RUN_LIB], ids=lambda p: p.name)
def test_deploy_scripts_are_shellcheck_clean(script: Path) -> None:
    result = subprocess.run(["shellcheck", str(script)], capture_output=True, text=True,
                            check=False)
    assert result.returncode == 0, result.stdout


def test_dry_run_on_a_pi_installs_the_pi_extra_and_enables_uart_and_spi(tmp_path: Path) -> None:
    result = dry_run(tmp_path, model=b"Raspberry Pi 5 Model B Rev 1.0\x00", raspi_config=True,
                     lgpio_packaged=True)
    assert result.returncode == 0, result.stderr
    plan = planned(result)
    pip = [c for c in plan if " -m pip install " in c and not c.endswith("--upgrade pip")]
    venv_python = "/opt/pokertable/.venv/bin/python"
    assert pip == [f"{venv_python} -m pip install --quiet --upgrade {ROOT}[pi]"]
    uart_spi = [c for c in plan if c.startswith("raspi-config")]
    assert uart_spi == [
        "raspi-config nonint do_serial_hw 0",
        "raspi-config nonint do_serial_cons 1",
        "raspi-config nonint do_spi 0",
    ]


PI_ZERO_2 = b"Raspberry Pi Zero 2 W Rev 1.0\x00"


def test_on_pi_os_lgpio_comes_from_apt_and_the_venv_sees_it(tmp_path: Path) -> None:
    """PyPI has no lgpio wheel for Python 3.13 (Trixie): Pi OS's python3-lgpio, seen through
    --system-site-packages, is the C half under rpi-lgpio on every Pi OS."""
    result = dry_run(tmp_path, model=PI_ZERO_2, lgpio_packaged=True)
    assert result.returncode == 0, result.stderr
    plan = planned(result)
    assert any(c.startswith("env DEBIAN_FRONTEND=noninteractive apt-get install")
               and c.endswith(" python3-lgpio") for c in plan), plan
    assert "python3 -m venv --system-site-packages /opt/pokertable/.venv" in plan


def test_without_python3_lgpio_in_the_archive_it_says_pip_brings_lgpio(tmp_path: Path) -> None:
    result = dry_run(tmp_path, model=PI_ZERO_2, lgpio_packaged=False)
    assert result.returncode == 0, result.stderr
    assert ("==> python3-lgpio is not in this system's package archive (Raspberry Pi OS has "
            "it): pip brings lgpio from PyPI") in result.stdout.splitlines()
    plan = planned(result)
    assert "python3 -m venv /opt/pokertable/.venv" in plan
    assert not any("python3-lgpio" in c for c in plan)
    # PyPI's only lgpio for Python 3.13 (0.0.0.2) is an empty module: never that one
    assert f"/opt/pokertable/.venv/bin/python -m pip install --quiet --upgrade {ROOT}[pi] " \
        "lgpio>=0.2 --only-binary=lgpio" in plan


def test_off_a_pi_no_gpio_package_is_installed(tmp_path: Path) -> None:
    plan = planned(dry_run(tmp_path, lgpio_packaged=True))
    assert not any("lgpio" in c or "--system-site-packages" in c for c in plan), plan


def test_dry_run_off_a_pi_skips_the_extra_and_says_so(tmp_path: Path) -> None:
    result = dry_run(tmp_path)
    assert result.returncode == 0, result.stderr
    assert "not a Raspberry Pi" in result.stdout
    assert "raspi-config not found" in result.stdout
    assert not any("[pi]" in c for c in planned(result))


def test_dry_run_plan_order_user_before_files_unit_last(tmp_path: Path) -> None:
    plan = planned(dry_run(tmp_path, "--with-broker"))
    first = {name: next(i for i, c in enumerate(plan) if re.search(pattern, c))
             for name, pattern in {
                 "apt": r"apt-get install .*python3-venv.* mosquitto",
                 "user": r"^useradd --system .* pokertable$",
                 "groups": r"^usermod --append --groups dialout,gpio,spi pokertable$",
                 "venv": r"-m venv /opt/pokertable/.venv$",
                 "config": r"table.example.toml /etc/pokertable/table.toml$",
                 "unit": r"pokertable.service /etc/systemd/system/pokertable.service$",
                 "enable": r"^systemctl enable pokertable.service$",
                 "broker": r"^systemctl start mosquitto.service$",
             }.items()}
    order = ["apt", "user", "groups", "venv", "config", "unit", "enable", "broker"]
    assert sorted(order, key=first.__getitem__) == order
    assert "systemctl restart pokertable.service" not in plan  # fresh config: no start yet


@pytest.mark.parametrize(
    ("model", "line"),
    [
        (b"Raspberry Pi 5 Model B Rev 1.0\x00", "dtparam=uart0=on"),
        (b"Raspberry Pi 4 Model B Rev 1.5\x00", "dtoverlay=disable-bt"),
        (b"Raspberry Pi 3 Model B Plus Rev 1.3\x00", "dtoverlay=disable-bt"),
        (b"Raspberry Pi Zero 2 W Rev 1.0\x00", "dtoverlay=disable-bt"),
    ],
)
def test_dry_run_puts_the_good_uart_on_gpio14_15_for_each_board(
    tmp_path: Path, model: bytes, line: str
) -> None:
    """Pi 5: UART0 on the header needs dtparam=uart0=on (serial0 is the debug connector);
    Pi 3/4/Zero 2 W: Bluetooth holds the PL011 until disable-bt. Either way: /dev/ttyAMA0."""
    result = dry_run(tmp_path, model=model)
    assert result.returncode == 0, result.stderr
    appends = [x for x in result.stdout.splitlines() if x.startswith("+ append")]
    assert appends == [f"+ append {line} to {tmp_path / 'config.txt'}"]
    assert "/dev/ttyAMA0" in result.stdout


def test_dry_run_leaves_a_boot_config_line_that_is_already_there(tmp_path: Path) -> None:
    result = dry_run(tmp_path, model=b"Raspberry Pi 5 Model B Rev 1.0\x00",
                     boot_config="[all]\ndtparam=uart0=on\n")
    assert result.returncode == 0, result.stderr
    assert "+ append" not in result.stdout


def test_no_udev_rule_is_shipped_or_installed(tmp_path: Path) -> None:
    """/dev/serial/by-id (and by-path) already name every USB-serial adapter stably."""
    assert not (DEPLOY / "99-pokertable.rules").exists()
    plan = planned(dry_run(tmp_path))
    assert not any("/etc/udev/rules.d" in c and not c.startswith("rm ") for c in plan)


def test_unknown_option_is_refused(tmp_path: Path) -> None:
    result = dry_run(tmp_path, "--frobnicate")
    assert result.returncode == 2
    assert "unknown option '--frobnicate'" in result.stderr


def test_without_root_and_without_dry_run_it_refuses() -> None:
    if os.geteuid() == 0:
        pytest.skip("running as root: the script would really install")
    result = subprocess.run(["bash", str(INSTALL)], capture_output=True, text=True, check=False)
    assert result.returncode == 77 and "run as root" in result.stderr


def exit_status_paragraph(text: str, opening: str) -> str:
    """The paragraph that starts with ``opening`` (comment marks and line breaks removed)."""
    lines = [line.lstrip("#").strip() for line in text.splitlines()]
    start = next(i for i, line in enumerate(lines) if line.startswith(opening))
    end = next((i for i in range(start, len(lines)) if not lines[i]), len(lines))
    return " ".join(lines[start:end])


def test_every_exit_status_is_documented_in_the_header_and_the_guide() -> None:
    script = INSTALL.read_text()
    used = {int(code) for code in re.findall(r"\bexit (\d+)", script)} | {1}  # 1: set -e
    used.discard(0)
    header = exit_status_paragraph(script, "Exit status:")
    guide = exit_status_paragraph(DOC.read_text(), "install.sh exits with")
    for code in used:
        assert re.search(rf"\b{code} [a-z]", header), f"exit {code} is not in the header"
        assert f"`{code}`" in guide, f"exit {code} is not in docs/install-pi.md"


@pytest.mark.parametrize(
    ("os_release", "named"),
    [
        ('PRETTY_NAME="Debian GNU/Linux 11 (bullseye)"\nID=debian\nVERSION_CODENAME=bullseye\n',
         "Debian GNU/Linux 11 (bullseye)"),
        ('PRETTY_NAME="Ubuntu 24.04 LTS"\nID=ubuntu\nVERSION_CODENAME=noble\n',
         "Ubuntu 24.04 LTS"),
        ("", "an unknown system"),
    ],
)
def test_an_unsupported_os_is_refused_in_one_line_before_any_change(
    tmp_path: Path, os_release: str, named: str
) -> None:
    result = dry_run(tmp_path, os_release=os_release)
    assert result.returncode == 69
    assert result.stderr.splitlines() == [
        f"install.sh: {named} is not supported: use Raspberry Pi OS (or Debian) "
        "Bookworm or Trixie"]
    assert planned(result) == []


@pytest.mark.parametrize(
    "os_release",
    [PI_OS_BOOKWORM,
     'PRETTY_NAME="Raspbian GNU/Linux 12 (bookworm)"\nID=raspbian\nVERSION_CODENAME=bookworm\n',
     'PRETTY_NAME="Debian GNU/Linux 13 (trixie)"\nID=debian\nVERSION_CODENAME="trixie"\n'],
    ids=["pi-os-64-bookworm", "pi-os-32-bookworm", "pi-os-64-trixie"],
)
def test_pi_os_bookworm_and_trixie_are_accepted(tmp_path: Path, os_release: str) -> None:
    result = dry_run(tmp_path, os_release=os_release)
    assert result.returncode == 0, result.stderr
    assert any(c.startswith("apt-get install") or "apt-get install" in c
               for c in planned(result))


def test_without_network_it_stops_in_one_line_before_any_change(tmp_path: Path) -> None:
    import socket

    with socket.socket() as closed:  # a port nothing listens on: the index is unreachable
        closed.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{closed.getsockname()[1]}/simple/"
    result = dry_run(tmp_path, index_url=url)
    assert result.returncode == 75
    assert result.stderr.splitlines() == [
        f"install.sh: no network: cannot reach {url}; nothing was changed, run it again "
        "once the Pi is online"]
    assert planned(result) == []


def test_an_existing_config_is_kept_and_the_service_restarted(tmp_path: Path) -> None:
    conf = tmp_path / "etc-pokertable"
    conf.mkdir()
    (conf / "table.toml").write_text("# the owner's own table\n")
    result = dry_run(tmp_path, conf_dir=conf)
    assert result.returncode == 0, result.stderr
    assert f"==> keeping the existing {conf}/table.toml" in result.stdout.splitlines()
    plan = planned(result)
    assert not any(c.endswith(f"{conf}/table.toml") for c in plan), plan  # never overwritten
    assert "systemctl restart pokertable.service" in plan  # an update: the new code runs


def test_without_a_running_systemd_the_unit_is_enabled_but_nothing_started(
    tmp_path: Path,
) -> None:
    """In a chroot or container (the emulated Pi) systemctl can enable, not reload or start."""
    conf = tmp_path / "etc-pokertable"
    conf.mkdir()
    (conf / "table.toml").write_text("# the owner's own table\n")
    result = dry_run(tmp_path, "--with-broker", conf_dir=conf, systemd_running=False)
    assert result.returncode == 0, result.stderr
    systemctl = [c for c in planned(result) if c.startswith("systemctl ")]
    assert systemctl == ["systemctl enable pokertable.service",
                         "systemctl enable mosquitto.service"]
    assert result.stdout.splitlines()[-1] == (
        "==> done; systemd is not running here (a chroot or container): pokertable starts at "
        "the next boot")


def test_the_data_folder_is_only_ever_created_never_emptied(tmp_path: Path) -> None:
    """A second run keeps the journal, registry and outbox: nothing in the plan removes or
    writes into /var/lib/pokertable (install -d leaves an existing folder's files alone)."""
    (tmp_path / "table.toml").write_text("# the owner's own table\n")
    for result in (dry_run(tmp_path), dry_run(tmp_path, conf_dir=tmp_path)):
        touching = [c for c in planned(result) if "/var/lib/pokertable" in c]
        assert all(c.startswith(("install -d", "useradd ")) for c in touching), touching
        assert not any(c.startswith(("rm ", "mv ")) and "pokertable" in c
                       and "/etc/udev" not in c for c in planned(result))


# -- the unit -----------------------------------------------------------------------------


def test_unit_has_the_promised_settings() -> None:
    s = unit_settings()
    assert s["Type"] == ["notify"]
    assert s["ExecStart"] == [
        "/opt/pokertable/.venv/bin/pokertable run --config /etc/pokertable/table.toml"]
    assert s["Restart"] == ["always"] and s["WatchdogSec"] == ["10"]
    assert s["User"] == ["pokertable"]
    assert set(s["SupplementaryGroups"][0].split()) == {"dialout", "gpio", "spi"}
    assert s["StandardOutput"] == ["journal"]
    assert s["ProtectSystem"] == ["strict"] and s["ReadWritePaths"] == ["/var/lib/pokertable"]
    assert "StartLimitBurst" in s and "StartLimitIntervalSec" in s
    assert set(s["RestartPreventExitStatus"][0].split()) == {"2", "78"}  # config errors


def test_unit_hardening_leaves_devices_reachable() -> None:
    """Each of these would cut the table off its serial buses or GPIO chip."""
    s = unit_settings()
    for key in ("PrivateDevices", "DevicePolicy", "DeviceAllow", "ProtectClock"):
        assert key not in s, f"{key} would hide /dev/tty*, /dev/gpiochip* or /dev/spidev*"


@pytest.mark.needs("systemd-analyze")  # a local run without it skips; CI fails
def test_systemd_accepts_every_directive(tmp_path: Path) -> None:
    unit = tmp_path / "pokertable.service"
    unit.write_text(re.sub(r"(?m)^ExecStart=.*$", "ExecStart=/bin/true", UNIT.read_text()))
    result = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True,
                            text=True, timeout=60, check=False)
    assert result.returncode == 0 and result.stderr.strip() == "", result.stderr


# -- the example config -------------------------------------------------------------------


def test_example_config_passes_the_services_own_checks() -> None:
    config = parse_config(tomllib.loads(EXAMPLE.read_text()))
    assert config.gpio.backend == "auto"
    assert ConsolePinMap.from_config(config.gpio.pins) == DEFAULT_PIN_MAP


def test_example_data_paths_are_writable_under_the_unit() -> None:
    data = tomllib.loads(EXAMPLE.read_text())
    writable = Path(unit_settings()["ReadWritePaths"][0])
    for path in (data["registry"]["path"], data["journal"]["path"], data["mqtt"]["outbox"]):
        assert Path(path).is_absolute() and Path(path).is_relative_to(writable), path


def test_example_ports_are_the_header_uart_and_by_id_links() -> None:
    text = EXAMPLE.read_text()
    data = tomllib.loads(text)
    assert [r["port"] for r in data["readers"]] == ["/dev/ttyAMA0"]
    assert '# port = "/dev/serial/by-id/usb-' in text
    assert "/dev/serial0" not in data["readers"][0]["port"]


# -- the install guide --------------------------------------------------------------------


def test_install_guide_pin_table_matches_the_code() -> None:
    rows = re.findall(r"^\| `(\w+)` \| (\d+) \| (\d+) \|", DOC.read_text(), re.MULTILINE)
    documented = {key: int(bcm) for key, bcm, _ in rows}
    expected = {name: pin for pin, name in DEFAULT_PIN_MAP.buttons().items()}
    expected |= {f"seat_led_{i}": pin for i, pin in enumerate(DEFAULT_PIN_MAP.seat_leds, 1)}
    assert documented == expected
    assert all(HEADER_PIN[int(bcm)] == int(header) for _, bcm, header in rows)


def test_install_guide_mentions_every_config_section_and_key() -> None:
    from pokertable.controller.app.config import AppConfig

    text = DOC.read_text()
    for section in ("[table]", "[table.overrides]", "[[levels]]", "[[players]]", "[registry]",
                    "[journal]", "[[readers]]", "[reading]", "[gpio]", "[gpio.pins]",
                    "[mqtt]"):
        assert section in text, section
    for name, field in AppConfig.model_fields.items():
        model = field.annotation
        for candidate in getattr(model, "__args__", (model,)):
            for key in getattr(candidate, "model_fields", {}):
                pattern = rf"`[^`\n]*\b{key}\b[^`\n]*`"
                assert re.search(pattern, text), f"{name}.{key} is not in the config reference"
    assert "journalctl -u pokertable" in text and "raspi-config nonint do_serial_hw 0" in text


# -- the board the table believes it is on ------------------------------------------------


def test_the_model_file_install_sh_reads_is_the_one_run_check_reads(tmp_path: Path) -> None:
    """POKERTABLE_MODEL_FILE names the board for install.sh and for the table alike, so the
    emulated Pi (deploy/check-arm.sh) is one board throughout, not a Pi to one and not to
    the other."""
    import sys

    config = tmp_path / "table.toml"
    config.write_text(re.sub(r"(?m)^password_file = .*$", "", EXAMPLE.read_text()))
    pokertable = Path(sys.executable).parent / "pokertable"
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi Zero 2 W Rev 1.0\x00")
    not_a_pi = 'gpio.backend: "auto" needs a Raspberry Pi and this is not one'
    outputs = {}
    for name, model_file in (("pi", model), ("not a pi", tmp_path / "no-such-model")):
        env = dict(os.environ, POKERTABLE_MODEL_FILE=str(model_file))
        result = subprocess.run([str(pokertable), "run", "--config", str(config), "--check"],
                                env=env, capture_output=True, text=True, timeout=120,
                                check=False)
        outputs[name] = result.stdout + result.stderr
    assert not_a_pi in outputs["not a pi"]
    assert not_a_pi not in outputs["pi"], outputs["pi"]


# -- the emulated Pi's trigger (.ci/run) ---------------------------------------------------


def test_check_arm_runs_only_when_what_it_checks_changed(tmp_path: Path) -> None:
    """--if-changed skips, in one line, while pyproject.toml, deploy/ and firmware/ are as
    in the recorded commit; any change there, or a commit the clone lacks, runs the check
    (here it then stops at the bad --suite, before anything needs root)."""
    clone = tmp_path / "clone"
    (clone / "deploy").mkdir(parents=True)
    (clone / "firmware").mkdir()
    (clone / "deploy" / "check-arm.sh").write_text(CHECK_ARM.read_text())
    (clone / "firmware" / "main.py").write_text("# firmware\n")
    (clone / "pyproject.toml").write_text("[project]\n")
    (clone / "README.md").write_text("readme\n")

    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(clone), *args], capture_output=True,
                              text=True, check=True).stdout.strip()

    git("init", "-q")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one", "--allow-empty")
    git("add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "two")
    record = clone / ".ci-arm-checked"

    def check() -> subprocess.CompletedProcess[str]:
        return subprocess.run(["bash", str(clone / "deploy" / "check-arm.sh"), "--if-changed",
                               record.name, "--suite", "not-a-suite"], capture_output=True,
                              text=True, timeout=60, check=False)

    record.write_text(f"{git('rev-parse', 'HEAD')} bookworm passed 2026-11-27\n")
    (clone / "README.md").write_text("another readme\n")  # not watched
    skipped = check()
    assert skipped.returncode == 0, skipped.stderr
    assert skipped.stdout.startswith("emulated Pi: skipped, pyproject.toml deploy firmware "
                                     "unchanged since ")
    for changed in ("firmware/main.py", "pyproject.toml"):
        (clone / changed).write_text("# changed\n")
        ran = check()
        assert ran.returncode == 2 and "not-a-suite" in ran.stderr, ran.stdout
        git("checkout", "-q", "--", changed)
    record.write_text(f"{git('rev-parse', 'HEAD~1')}\n")  # before deploy/ existed
    assert check().returncode == 2
    record.write_text("0123456789abcdef0123456789abcdef01234567\n")  # not in this clone
    assert check().returncode == 2
