#!/usr/bin/env bash
# Install (or update) pokertable on Raspberry Pi OS Bookworm or Trixie (64-bit; 32-bit where
# piwheels has the wheels). Run as root from a checkout:
#
#   sudo ./deploy/install.sh                 # the table service
#   sudo ./deploy/install.sh --with-broker   # ... and a local mosquitto broker
#   ./deploy/install.sh --dry-run            # print what would be done, change nothing
#
# Safe to run again: it updates the code and the unit, keeps /etc/pokertable/table.toml and
# everything in /var/lib/pokertable, and restarts the service if it was configured.
# docs/install-pi.md explains every step.
#
# Exit status: 0 installed or updated; 1 a step failed (its own message is above);
# 2 usage; 66 not run from a pokertable checkout; 69 unsupported OS (not Pi OS/Debian
# Bookworm or Trixie); 75 no network (the Python package index is unreachable: nothing was
# changed, run it again once online); 77 not root (and not --dry-run).
#
# For tests: POKERTABLE_OS_RELEASE (default /etc/os-release), POKERTABLE_MODEL_FILE,
# POKERTABLE_BOOT_CONFIG, POKERTABLE_CONF_DIR and POKERTABLE_SYSTEMD_RUN_DIR (present when
# systemd runs) name other files; PIP_INDEX_URL, which pip reads too, names the index the
# network check reaches.
set -euo pipefail

APP=pokertable
PREFIX=/opt/pokertable
VENV="$PREFIX/.venv"
CONF_DIR=${POKERTABLE_CONF_DIR:-/etc/pokertable}
STATE_DIR=/var/lib/pokertable
UNIT=/etc/systemd/system/pokertable.service
OLD_UDEV_RULE=/etc/udev/rules.d/99-pokertable.rules
MODEL_FILE=${POKERTABLE_MODEL_FILE:-/proc/device-tree/model}
BOOT_CONFIG=${POKERTABLE_BOOT_CONFIG:-/boot/firmware/config.txt}
OS_RELEASE=${POKERTABLE_OS_RELEASE:-/etc/os-release}
SYSTEMD_RUN_DIR=${POKERTABLE_SYSTEMD_RUN_DIR:-/run/systemd/system}
INDEX_URL=${PIP_INDEX_URL:-https://pypi.org/simple/}

SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WITH_BROKER=0
DRY_RUN=0

usage() {
    sed -n '2,17p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

while [[ $# -gt 0 ]]; do
    case "$1" in
        --with-broker) WITH_BROKER=1 ;;
        --dry-run) DRY_RUN=1 ;;
        --source) SOURCE=$(cd "${2:?--source needs a directory}" && pwd); shift ;;
        -h | --help) usage; exit 0 ;;
        *) echo "install.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
    esac
    shift
done

# say, and run: every change to the system goes through it, so --dry-run shows the plan.
# shellcheck source=SCRIPTDIR/lib/run.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/run.sh"

# Everything that can refuse the install is checked before anything is changed.
if [[ ! -f "$SOURCE/pyproject.toml" || ! -f "$SOURCE/deploy/pokertable.service" ]]; then
    echo "install.sh: $SOURCE is not a pokertable checkout (no pyproject.toml / deploy/)" >&2
    exit 66
fi
if [[ $DRY_RUN -eq 0 && $EUID -ne 0 ]]; then
    echo "install.sh: run as root (sudo $0), or with --dry-run to see the plan" >&2
    exit 77
fi

# Pi OS 64-bit says ID=debian, Pi OS 32-bit ID=raspbian; both name the Debian release.
os_release() {  # the value of one os-release key, unquoted (the file is read, not run)
    [[ -r "$OS_RELEASE" ]] || return 0
    sed -n "s/^$1=//p" "$OS_RELEASE" | head -n 1 | sed -e 's/^"\(.*\)"$/\1/' -e "s/^'\(.*\)'$/\1/"
}
OS_ID=$(os_release ID)
OS_CODENAME=$(os_release VERSION_CODENAME)
OS_NAME=$(os_release PRETTY_NAME)
OS_NAME=${OS_NAME:-${OS_ID:-an unknown system}}
if [[ $OS_ID != debian && $OS_ID != raspbian ]] ||
    [[ $OS_CODENAME != bookworm && $OS_CODENAME != trixie ]] ||
    ! command -v apt-get >/dev/null 2>&1; then
    echo "install.sh: $OS_NAME is not supported: use Raspberry Pi OS (or Debian) Bookworm or Trixie" >&2
    exit 69
fi

# pip fetches the table's wheels from the index: without it nothing could be installed.
# (Pi OS always has python3; a bare Debian without it gets it from apt below.)
if command -v python3 >/dev/null 2>&1 &&
    ! python3 -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=20)' \
        "$INDEX_URL" >/dev/null 2>&1; then
    echo "install.sh: no network: cannot reach $INDEX_URL; nothing was changed, run it again once the Pi is online" >&2
    exit 75
fi

MODEL=""
if [[ -r "$MODEL_FILE" ]]; then
    MODEL=$(tr -d '\0' <"$MODEL_FILE")
fi
ON_PI=0
[[ $MODEL == "Raspberry Pi"* ]] && ON_PI=1

say "packages"
# No compiler: every dependency installs as a wheel on Pi OS (.ci/run checks it).
PACKAGES=(python3 python3-venv)
[[ $WITH_BROKER -eq 1 ]] && PACKAGES+=(mosquitto mosquitto-clients)
# GPIO: rpi-lgpio (the pi extra) is pure Python; its C half, lgpio, is Pi OS's python3-lgpio,
# which the venv sees through --system-site-packages: PyPI has no lgpio wheel for Python
# 3.13 (Trixie). docs/packaging.md, "GPIO".
VENV_OPTIONS=()
# lgpio 0.0.0.2, the only "wheel" PyPI offers Python 3.13, is an empty module: from PyPI,
# only a real lgpio wheel will do (pip then says plainly when there is none; nothing is
# compiled).
PIP_LGPIO=()
run apt-get update
if [[ $ON_PI -eq 1 ]]; then
    if apt-cache show python3-lgpio >/dev/null 2>&1; then
        PACKAGES+=(python3-lgpio)
        VENV_OPTIONS=(--system-site-packages)
    else
        say "python3-lgpio is not in this system's package archive (Raspberry Pi OS has it): pip brings lgpio from PyPI"
        PIP_LGPIO=("lgpio>=0.2" --only-binary=lgpio)
    fi
fi
run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${PACKAGES[@]}"

# Which UART drives GPIO14/15 (the reader bus) depends on the board: docs/install-pi.md.
PI5=0
BT_ON_PL011=0
case "$MODEL" in
    "Raspberry Pi 5"* | "Raspberry Pi Compute Module 5"*) PI5=1 ;;
    "Raspberry Pi 3"* | "Raspberry Pi 4"* | "Raspberry Pi Zero 2"* | "Raspberry Pi Zero W"*) BT_ON_PL011=1 ;;
esac

# Append a line to the boot config unless it is already there (takes effect at reboot).
boot_config_line() {
    if [[ -f "$BOOT_CONFIG" ]] && grep -qxF "$1" "$BOOT_CONFIG"; then
        return 0
    fi
    if [[ $DRY_RUN -eq 1 ]]; then
        printf '+ append %q to %q\n' "$1" "$BOOT_CONFIG"
    else
        printf '%s\n' "$1" >>"$BOOT_CONFIG"
    fi
}

say "user $APP (groups dialout, gpio, spi)"
for group in dialout gpio spi; do
    if ! getent group "$group" >/dev/null; then
        run groupadd --system "$group"
    fi
done
if ! getent passwd "$APP" >/dev/null; then
    run useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home \
        --shell /usr/sbin/nologin --comment "pokertable table controller" "$APP"
fi
run usermod --append --groups dialout,gpio,spi "$APP"

say "python environment in $VENV"
run install -d -m 0755 "$PREFIX" "$PREFIX/docs"
if [[ ! -x "$VENV/bin/python" ]]; then
    run python3 -m venv "${VENV_OPTIONS[@]}" "$VENV"
else
    say "updating the existing $VENV"
    if [[ ${#VENV_OPTIONS[@]} -gt 0 ]] &&
        ! grep -qx 'include-system-site-packages = true' "$VENV/pyvenv.cfg"; then
        # A venv from an older install.sh: let it see python3-lgpio too.
        run sed -i 's/^include-system-site-packages = .*/include-system-site-packages = true/' \
            "$VENV/pyvenv.cfg"
    fi
fi
run "$VENV/bin/python" -m pip install --quiet --upgrade pip
if [[ $ON_PI -eq 1 ]]; then
    # The pi extra brings rpi-lgpio, the RPi.GPIO drop-in that also works on a Pi 5.
    run "$VENV/bin/python" -m pip install --quiet --upgrade "${SOURCE}[pi]" "${PIP_LGPIO[@]}"
else
    say "not a Raspberry Pi (${MODEL:-no device-tree model}): installing without GPIO support"
    run "$VENV/bin/python" -m pip install --quiet --upgrade "$SOURCE"
fi
run install -m 0644 "$SOURCE/docs/install-pi.md" "$PREFIX/docs/install-pi.md"

if command -v raspi-config >/dev/null 2>&1; then
    say "UART on GPIO14/15 without a login console, and SPI (reboot to apply)"
    run raspi-config nonint do_serial_hw 0
    run raspi-config nonint do_serial_cons 1
    run raspi-config nonint do_spi 0
else
    say "raspi-config not found: enable the UART and SPI by hand (docs/install-pi.md)"
fi
if [[ $PI5 -eq 1 ]]; then
    say "Pi 5: the UART on GPIO14/15 is /dev/ttyAMA0 (dtparam=uart0=on); /dev/serial0 is the debug connector"
    boot_config_line "dtparam=uart0=on"
elif [[ $BT_ON_PL011 -eq 1 ]]; then
    say "$MODEL: Bluetooth off the PL011 UART, so GPIO14/15 get it as /dev/ttyAMA0 (dtoverlay=disable-bt)"
    boot_config_line "dtoverlay=disable-bt"
    if systemctl list-unit-files hciuart.service >/dev/null 2>&1; then
        run systemctl disable hciuart.service
    fi
fi

# Reader ports are named by the kernel's own /dev/serial/by-id links (docs/install-pi.md);
# older installs shipped a udev rule that duplicated them.
if [[ -e "$OLD_UDEV_RULE" ]]; then
    say "removing $OLD_UDEV_RULE: use the /dev/serial/by-id/ links instead"
    run rm -f "$OLD_UDEV_RULE"
fi

say "configuration in $CONF_DIR"
run install -d -m 0750 -o root -g "$APP" "$CONF_DIR"
FRESH_CONFIG=0
if [[ ! -e "$CONF_DIR/table.toml" ]]; then
    FRESH_CONFIG=1
    run install -m 0640 -o root -g "$APP" "$SOURCE/deploy/table.example.toml" "$CONF_DIR/table.toml"
else
    say "keeping the existing $CONF_DIR/table.toml"
fi
run install -d -m 0750 -o "$APP" -g "$APP" "$STATE_DIR"

say "systemd unit $UNIT"
run install -m 0644 "$SOURCE/deploy/pokertable.service" "$UNIT"
# Enabling works offline; reloading and starting need a running systemd (sd_booted's test),
# which a chroot or a container (deploy/check-arm.sh) does not have.
SYSTEMD_UP=0
[[ -d $SYSTEMD_RUN_DIR ]] && SYSTEMD_UP=1
[[ $SYSTEMD_UP -eq 1 ]] && run systemctl daemon-reload
run systemctl enable "$APP.service"
if [[ $WITH_BROKER -eq 1 ]]; then
    run systemctl enable mosquitto.service
    [[ $SYSTEMD_UP -eq 1 ]] && run systemctl start mosquitto.service
fi

if [[ $SYSTEMD_UP -eq 0 ]]; then
    say "done; systemd is not running here (a chroot or container): $APP starts at the next boot"
elif [[ $FRESH_CONFIG -eq 1 ]]; then
    say "done. Edit $CONF_DIR/table.toml (docs/install-pi.md), reboot if the UART/SPI were"
    say "just enabled, then: systemctl start $APP; journalctl -u $APP -f"
else
    run systemctl restart "$APP.service"
    say "done: $APP restarted with the new code; journalctl -u $APP -f"
fi
