#!/usr/bin/env bash
# Install (or update) the room's services (clock, floor console, seating desk, archive,
# broadcast relays) on the machine that runs them, from one room.toml (docs/room.md). Run
# as root from a checkout:
#
#   sudo ./deploy/install-room.sh              # code, user, config, password files, units
#   ./deploy/install-room.sh --dry-run         # print what would be done, change nothing
#   sudo ./deploy/install-room.sh --root DIR   # into DIR as if it were / (an image)
#
# Safe to run again: it updates the code and the unit, keeps /etc/pokertable/room.toml and
# every password file (only tightening them to 0600, owned by the services' user), keeps
# everything in /var/lib/pokertable, and restarts the services if they were configured.
# It enables one pokertable-room@<service> unit per service room.toml names.
#
# Exit status: 0 installed or updated; 1 a step failed (its own message is above);
# 2 usage; 66 not run from a pokertable checkout; 77 not root (and not --dry-run).
#
# For tests: POKERTABLE_CONF_DIR (default /etc/pokertable) and POKERTABLE_SYSTEMD_RUN_DIR
# (present when systemd runs) name other folders.
set -euo pipefail

APP=pokertable
PREFIX=/opt/pokertable
VENV="$PREFIX/.venv"
CONF_DIR=${POKERTABLE_CONF_DIR:-/etc/pokertable}
SECRETS_DIR="$CONF_DIR/secrets"
STATE_DIR=/var/lib/pokertable
UNIT_NAME="pokertable-room@.service"
UNIT_DIR=/etc/systemd/system
SYSTEMD_RUN_DIR=${POKERTABLE_SYSTEMD_RUN_DIR:-/run/systemd/system}

SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DRY_RUN=0
ROOT=""

usage() {
    sed -n '2,16p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

while [[ $# -gt 0 ]]; do
    case "$1" in
        --dry-run) DRY_RUN=1 ;;
        --root)
            [[ $# -ge 2 && -n $2 ]] || { echo "install-room.sh: --root needs a directory" >&2; exit 2; }
            [[ -d $2 ]] || { echo "install-room.sh: --root $2 is not a directory" >&2; exit 2; }
            ROOT=$(cd "$2" && pwd)
            shift
            ;;
        --source) SOURCE=$(cd "${2:?--source needs a directory}" && pwd); shift ;;
        -h | --help) usage; exit 0 ;;
        *) echo "install-room.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
    esac
    shift
done

# say, and run: every change to the system goes through it, so --dry-run shows the plan.
# shellcheck source=SCRIPTDIR/lib/run.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/run.sh"

# Everything that can refuse the install is checked before anything is changed.
if [[ ! -f "$SOURCE/pyproject.toml" || ! -f "$SOURCE/deploy/$UNIT_NAME" ||
    ! -f "$SOURCE/deploy/room.example.toml" ]]; then
    echo "install-room.sh: $SOURCE is not a pokertable checkout (no pyproject.toml / deploy/)" >&2
    exit 66
fi
if [[ $DRY_RUN -eq 0 && $EUID -ne 0 ]]; then
    echo "install-room.sh: run as root (sudo $0), or with --dry-run to see the plan" >&2
    exit 77
fi

# The user's entry: the running system's, or the one in DIR's /etc/passwd under --root.
user_entry() {
    if [[ -z $ROOT ]]; then
        getent passwd "$APP" || true
    elif [[ -f "$ROOT/etc/passwd" ]]; then
        grep "^$APP:" "$ROOT/etc/passwd" || true
    fi
}

say "user $APP"
if [[ -z $(user_entry) ]]; then
    ROOT_OPTION=()
    [[ -n $ROOT ]] && ROOT_OPTION=(--root "$ROOT")
    run useradd "${ROOT_OPTION[@]}" --system --user-group --home-dir "$STATE_DIR" \
        --no-create-home --shell /usr/sbin/nologin --comment "pokertable services" "$APP"
fi
# Owners by name on the running system; by number under --root (the name is DIR's).
OWNER=$APP
GROUP=$APP
ENTRY=$(user_entry)
if [[ -n $ROOT && -n $ENTRY ]]; then
    OWNER=$(cut -d: -f3 <<<"$ENTRY")
    GROUP=$(cut -d: -f4 <<<"$ENTRY")
fi

if [[ -n $ROOT ]]; then
    say "the Python environment is not made under --root: the image gets it from deploy/install.sh or pip"
else
    say "python environment in $VENV (with the broadcast relay's equities)"
    run install -d -m 0755 "$PREFIX"
    if [[ ! -x "$VENV/bin/python" ]]; then
        run python3 -m venv "$VENV"
    else
        say "updating the existing $VENV"
    fi
    run "$VENV/bin/python" -m pip install --quiet --upgrade "${SOURCE}[broadcast]"
fi

say "configuration in $ROOT$CONF_DIR"
run install -d -m 0750 -o root -g "$GROUP" "$ROOT$CONF_DIR" "$ROOT$SECRETS_DIR"
FRESH_CONFIG=0
CONFIG="$ROOT$CONF_DIR/room.toml"
if [[ ! -e "$CONFIG" ]]; then
    FRESH_CONFIG=1
    run install -m 0640 -o root -g "$GROUP" "$SOURCE/deploy/room.example.toml" "$CONFIG"
else
    say "keeping the existing $CONFIG"
fi
run install -d -m 0750 -o "$OWNER" -g "$GROUP" "$ROOT$STATE_DIR"

# What room.toml names: its password files and its services, read with the system's
# Python (tomllib, 3.11+) so that an image without the venv is served too. A dry run of a
# fresh install reads the example it would copy.
READ_FROM=$CONFIG
[[ -e $CONFIG ]] || READ_FROM="$SOURCE/deploy/room.example.toml"
room_toml() {  # room_toml passwords|services: one a line
    python3 - "$1" "$READ_FROM" <<'PY'
import sys, tomllib

what, path = sys.argv[1], sys.argv[2]
with open(path, "rb") as file:
    room = tomllib.load(file)
sections = {name: room[name] for name in ("clock", "floor", "seating", "archive")
            if isinstance(room.get(name), dict)}
sections |= {f"relay-{table}": section for table, section in room.get("relay", {}).items()
             if isinstance(section, dict)}
for name, section in sections.items():
    if what == "services":
        print(name)
    elif "password_file" in section:
        print(section["password_file"])
PY
}
if ! PASSWORD_FILES=$(room_toml passwords) || ! SERVICES=$(room_toml services); then
    echo "install-room.sh: $READ_FROM is not valid TOML: fix it (pokertable room --config $READ_FROM --check)" >&2
    exit 1
fi

say "password files (one broker login's password each, 0600, owned by $APP)"
NEEDS_PASSWORD=()
while IFS= read -r file; do
    [[ -n $file ]] || continue
    if [[ ! -e "$ROOT$file" ]]; then
        run install -D -m 0600 -o "$OWNER" -g "$GROUP" /dev/null "$ROOT$file"
        NEEDS_PASSWORD+=("$file")
    else
        say "keeping the existing $ROOT$file"
        run chown "$OWNER:$GROUP" "$ROOT$file"
        run chmod 0600 "$ROOT$file"
        [[ -s "$ROOT$file" ]] || NEEDS_PASSWORD+=("$file")
    fi
done <<<"$PASSWORD_FILES"

say "systemd unit $ROOT$UNIT_DIR/$UNIT_NAME"
run install -d -m 0755 "$ROOT$UNIT_DIR"
run install -m 0644 "$SOURCE/deploy/$UNIT_NAME" "$ROOT$UNIT_DIR/$UNIT_NAME"
UNITS=()
while IFS= read -r service; do
    [[ -n $service ]] && UNITS+=("pokertable-room@$service.service")
done <<<"$SERVICES"
# Enabling works offline; reloading and starting need a running systemd (sd_booted's test),
# which a chroot, a container or --root does not have.
SYSTEMD_UP=0
[[ -z $ROOT && -d $SYSTEMD_RUN_DIR ]] && SYSTEMD_UP=1
[[ $SYSTEMD_UP -eq 1 ]] && run systemctl daemon-reload
if [[ ${#UNITS[@]} -gt 0 ]]; then
    if [[ -n $ROOT ]]; then
        run systemctl --root="$ROOT" enable "${UNITS[@]}"
    else
        run systemctl enable "${UNITS[@]}"
    fi
else
    say "room.toml names no service: no unit enabled"
fi

for file in "${NEEDS_PASSWORD[@]}"; do
    say "write its broker login's password in $file (the one in mosquitto's passwd)"
done
if [[ $SYSTEMD_UP -eq 0 ]]; then
    say "done; systemd is not running here: the services start at the next boot"
elif [[ $FRESH_CONFIG -eq 1 || ${#NEEDS_PASSWORD[@]} -gt 0 ]]; then
    say "done. Edit $CONF_DIR/room.toml (docs/room.md), then:"
    say "$VENV/bin/pokertable room --config $CONF_DIR/room.toml --check"
    say "systemctl start ${UNITS[*]}"
else
    [[ ${#UNITS[@]} -gt 0 ]] && run systemctl restart "${UNITS[@]}"
    say "done: the room's services restarted with the new code; journalctl -u 'pokertable-room@*' -f"
fi
