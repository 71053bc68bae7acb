#!/usr/bin/env bash
# Install (or update) pokertable on Raspberry Pi OS Bookworm, 64-bit. Run as root from a checkout:
#
#   sudo ./deploy/install.sh                 # the table service
#   sudo ./deploy/install.sh --with-broker   # ... and a local mosquitto broker
#   ./deploy/install.sh --dry-run            # print what would be done, change nothing
#
# Safe to run again: it updates the code and the unit, keeps /etc/pokertable/table.toml and
# everything in /var/lib/pokertable, and restarts the service if it was configured.
# docs/install-pi.md explains every step.
set -euo pipefail

APP=pokertable
PREFIX=/opt/pokertable
VENV="$PREFIX/.venv"
CONF_DIR=/etc/pokertable
STATE_DIR=/var/lib/pokertable
UNIT=/etc/systemd/system/pokertable.service
UDEV_RULE=/etc/udev/rules.d/99-pokertable.rules
MODEL_FILE=${POKERTABLE_MODEL_FILE:-/proc/device-tree/model}

SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WITH_BROKER=0
DRY_RUN=0

usage() {
    sed -n '2,9p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
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

say() { printf '==> %s\n' "$*"; }

# Every change to the system goes through run, so --dry-run shows the whole plan.
run() {
    if [[ $DRY_RUN -eq 1 ]]; then
        printf '+'
        printf ' %q' "$@"
        printf '\n'
    else
        "$@"
    fi
}

if [[ ! -f "$SOURCE/pyproject.toml" || ! -f "$SOURCE/deploy/pokertable.service" ]]; then
    echo "install.sh: $SOURCE is not a pokertable checkout (no pyproject.toml / deploy/)" >&2
    exit 1
fi
if [[ $DRY_RUN -eq 0 && $EUID -ne 0 ]]; then
    echo "install.sh: run as root (sudo $0), or with --dry-run to see the plan" >&2
    exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "install.sh: needs Raspberry Pi OS or Debian (apt-get not found)" >&2
    exit 1
fi

MODEL=""
if [[ -r "$MODEL_FILE" ]]; then
    MODEL=$(tr -d '\0' <"$MODEL_FILE")
fi
ON_PI=0
[[ $MODEL == "Raspberry Pi"* ]] && ON_PI=1

say "packages"
PACKAGES=(python3 python3-venv python3-dev build-essential)
[[ $WITH_BROKER -eq 1 ]] && PACKAGES+=(mosquitto mosquitto-clients)
run apt-get update
run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${PACKAGES[@]}"

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
    run python3 -m venv "$VENV"
fi
run "$VENV/bin/python" -m pip install --quiet --upgrade pip
if [[ $ON_PI -eq 1 ]]; then
    # The pi extra brings rpi-lgpio, the RPi.GPIO drop-in that also works on a Pi 5.
    run "$VENV/bin/python" -m pip install --quiet --upgrade "${SOURCE}[pi]"
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

say "udev rule for USB-serial adapters: $UDEV_RULE"
run install -m 0644 "$SOURCE/deploy/99-pokertable.rules" "$UDEV_RULE"
if command -v udevadm >/dev/null 2>&1; then
    run udevadm control --reload-rules
    run udevadm trigger --subsystem-match=tty --action=add
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
run systemctl daemon-reload
run systemctl enable "$APP.service"
if [[ $WITH_BROKER -eq 1 ]]; then
    run systemctl enable --now mosquitto.service
fi

if [[ $FRESH_CONFIG -eq 1 ]]; then
    say "done. Edit $CONF_DIR/table.toml (docs/install-pi.md), reboot if the UART/SPI were"
    say "just enabled, then: systemctl start $APP; journalctl -u $APP -f"
else
    run systemctl restart "$APP.service"
    say "done: $APP restarted with the new code; journalctl -u $APP -f"
fi
