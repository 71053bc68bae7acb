#!/usr/bin/env bash
# shellcheck disable=SC2317  # the steps are functions called through step(), not unreachable
# The emulated Pi: install and run the table in a Debian arm64 root under qemu-user-static,
# as a Pi owner would. Run as root on a Debian/Ubuntu x86-64 machine, from a checkout:
#
#   sudo deploy/check-arm.sh                    # Bookworm (Pi OS Bookworm 64-bit's base)
#   sudo deploy/check-arm.sh --suite trixie     # Trixie (Python 3.13)
#   sudo deploy/check-arm.sh --footprint        # ... then the RSS after 1,000 hands
#   sudo deploy/check-arm.sh --rebuild          # build the root again from Debian's packages
#   sudo deploy/check-arm.sh --if-changed .ci/arm-checked   # what .ci/run does
#
# The first run builds a minimal Debian arm64 root with debootstrap (systemd, python3,
# ca-certificates: what Pi OS Lite starts with) and keeps it, untouched, in
# $POKERTABLE_ARM_CACHE/<suite>/base (default /var/cache/pokertable-arm, outside the
# clone). Every run then works in a throwaway overlay on top of it, so each check starts
# from a fresh image. Steps, each printed with its duration:
#   install.sh --with-broker; pokertable --version; pokertable run --check on the installed
#   example config; pokertable replay of a PHH file; pokertable run for 30 s against
#   simulated readers and a real mosquitto (deploy/table_run_check.py); pokertable demo
#   --hands 2; install.sh again (config and journal kept).
# --if-changed FILE runs the check only when pyproject.toml, deploy/ or firmware/ differ from
# the commit FILE names (the last one that passed here; a commit this clone lacks counts as a
# change), and after a pass writes HEAD into FILE when those paths have no uncommitted edits:
# commit FILE with the change it checked.
# Exit status: 0 every step passed (or nothing to check); 1 a step failed (named on the last
# line); 2 usage; 69 a host tool is missing and cannot be installed, or binfmt cannot run arm64 binaries.
# docs/install-pi.md, "The emulated Pi", shows a passing run.
set -euo pipefail
{ # read whole before it runs, so a git pull during a long check cannot change the run

SUITE=bookworm
REBUILD=0
FOOTPRINT=0
IF_CHANGED=""
WATCHED=(pyproject.toml deploy firmware)
RUN_SECONDS=${POKERTABLE_ARM_RUN_SECONDS:-30}
CACHE=${POKERTABLE_ARM_CACHE:-/var/cache/pokertable-arm}
MIRROR=${POKERTABLE_ARM_MIRROR:-http://deb.debian.org/debian}
# A Pi OS Lite image starts with these; install.sh must bring everything else.
BASE_PACKAGES=python3,systemd,systemd-sysv,ca-certificates,procps
CLONE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# The board the emulated root stands for (install.sh and the table read this file).
MODEL="Raspberry Pi Zero 2 W Rev 1.0"

while [[ $# -gt 0 ]]; do
    case "$1" in
        --suite) SUITE=${2:?--suite needs bookworm or trixie}; shift ;;
        --rebuild) REBUILD=1 ;;
        --footprint) FOOTPRINT=1 ;;
        --if-changed) IF_CHANGED=${2:?--if-changed needs the record file}; shift ;;
        -h | --help) sed -n '3,27p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "check-arm.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
    esac
    shift
done
if [[ -n $IF_CHANGED ]]; then
    last=$(awk 'NR == 1 {print $1}' "$CLONE/$IF_CHANGED" 2>/dev/null || true)
    if [[ -n $last ]] && git -C "$CLONE" cat-file -e "$last^{commit}" 2>/dev/null &&
        git -C "$CLONE" diff --quiet "$last" -- "${WATCHED[@]}"; then
        echo "emulated Pi: skipped, ${WATCHED[*]} unchanged since $last ($IF_CHANGED)"
        exit 0
    fi
fi
case "$SUITE" in
    bookworm | trixie) ;;
    *) echo "check-arm.sh: suite '$SUITE' is not bookworm or trixie" >&2; exit 2 ;;
esac
if [[ $EUID -ne 0 ]]; then
    echo "check-arm.sh: run as root (debootstrap, chroot and mounts need it)" >&2
    exit 2
fi

BASE="$CACHE/$SUITE/base"
WORK="$CACHE/$SUITE/run.$$"
ROOT="$WORK/root"
SRC_IN_ROOT=/home/pi/pokertable
STEP=0
CHECK_STARTED=$SECONDS

say() { printf '==> %s\n' "$*"; }

# One step: what runs, then how long it took. A failing command ends the check (set -e):
# the exit trap names the step.
STEP_NAME="" STEP_STARTED=0
step() {
    STEP_NAME=$1 STEP_STARTED=$SECONDS
    shift
    STEP=$((STEP + 1))
    say "[$STEP] $STEP_NAME"
    "$@"
    printf '    ok, %d s\n' "$((SECONDS - STEP_STARTED))"
    STEP_NAME=""
}

# --- the host: debootstrap, qemu-user-static and binfmt ---------------------------------

host_tools() {
    local missing=()
    command -v debootstrap >/dev/null || missing+=(debootstrap)
    [[ -x /usr/bin/qemu-aarch64-static ]] || missing+=(qemu-user-static)
    command -v update-binfmts >/dev/null || missing+=(binfmt-support)
    if [[ ${#missing[@]} -gt 0 ]]; then
        say "installing ${missing[*]} from the host's Debian packages"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null ||
            { echo "check-arm.sh: cannot install ${missing[*]}" >&2; exit 69; }
    fi
    if [[ ! -e /proc/sys/fs/binfmt_misc/register ]]; then
        mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
    fi
    if [[ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]]; then
        update-binfmts --enable qemu-aarch64 ||
            { echo "check-arm.sh: binfmt cannot register qemu-aarch64" >&2; exit 69; }
    fi
    # The F flag opens the interpreter once, at registration: nothing to copy into the root.
    grep -q '^flags: .*F' /proc/sys/fs/binfmt_misc/qemu-aarch64 ||
        { echo "check-arm.sh: qemu-aarch64 is registered without the F flag" >&2; exit 69; }
}

build_base() {
    if [[ -e "$BASE/.complete" && $REBUILD -eq 0 ]]; then
        echo "    cached root $BASE (built $(cat "$BASE/.complete"); --rebuild builds it again)"
        return 0
    fi
    rm -rf "$BASE" "$BASE.building"
    mkdir -p "$CACHE/$SUITE"
    echo "    debootstrap --arch=arm64 --variant=minbase --include=$BASE_PACKAGES $SUITE $MIRROR"
    if ! debootstrap --arch=arm64 --variant=minbase --include="$BASE_PACKAGES" \
        "$SUITE" "$BASE.building" "$MIRROR" >"$CACHE/$SUITE/debootstrap.log" 2>&1; then
        tail -n 20 "$CACHE/$SUITE/debootstrap.log" >&2
        return 1
    fi
    date -u +%FT%TZ >"$BASE.building/.complete"
    mv "$BASE.building" "$BASE"  # only a finished root is ever used
}

# --- the throwaway image: an overlay on the cached root, and its mounts ----------------

MOUNTS=()
mount_at() {  # mount_at <target> <mount args...>; remembered for the unmount on exit
    local target=$1
    shift
    mkdir -p "$target"
    mount "$@" "$target"
    MOUNTS+=("$target")
}

cleanup() {
    local status=$? i
    if [[ $status -ne 0 && -n $STEP_NAME ]]; then
        printf 'check-arm.sh: FAILED: step %d (%s), status %d after %d s\n' \
            "$STEP" "$STEP_NAME" "$status" "$((SECONDS - STEP_STARTED))" >&2
    fi
    # Processes the checks left in the root (a mosquitto, a table) go before its mounts.
    if [[ -d "$ROOT/proc" ]]; then
        local proc
        for proc in /proc/[0-9]*; do
            if [[ $(readlink "$proc/root" 2>/dev/null) == "$ROOT" ]]; then
                kill -9 "${proc#/proc/}" 2>/dev/null || true
            fi
        done
    fi
    for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do
        umount "${MOUNTS[i]}" 2>/dev/null || umount -l "${MOUNTS[i]}" 2>/dev/null || true
    done
    if [[ -d "$WORK" ]] && ! grep -qF " $WORK" /proc/mounts; then
        rm -rf "$WORK"
    fi
    exit "$status"
}

prepare_image() {
    mkdir -p "$WORK/upper" "$WORK/overlay-work" "$CACHE/$SUITE/apt-archives" "$CACHE/pip"
    mount_at "$ROOT" -t overlay overlay \
        -o "lowerdir=$BASE,upperdir=$WORK/upper,workdir=$WORK/overlay-work"
    mount_at "$ROOT/proc" -t proc proc
    mount_at "$ROOT/sys" -t sysfs -o ro sysfs
    # A /dev of its own (never the host's): the usual nodes and a private devpts for the ptys.
    mount_at "$ROOT/dev" -t tmpfs -o mode=0755,nosuid devtmp
    local node
    for node in null:1:3 zero:1:5 full:1:7 random:1:8 urandom:1:9 tty:5:0; do
        IFS=: read -r name major minor <<<"$node"
        mknod -m 0666 "$ROOT/dev/$name" c "$major" "$minor"
    done
    mount_at "$ROOT/dev/pts" -t devpts -o newinstance,ptmxmode=0666,mode=0620 devpts
    ln -s pts/ptmx "$ROOT/dev/ptmx"
    ln -s /proc/self/fd "$ROOT/dev/fd"
    ln -s /proc/self/fd/0 "$ROOT/dev/stdin"
    ln -s /proc/self/fd/1 "$ROOT/dev/stdout"
    ln -s /proc/self/fd/2 "$ROOT/dev/stderr"
    mount_at "$ROOT/dev/shm" -t tmpfs -o mode=1777,nosuid,nodev shm
    mount_at "$ROOT/run" -t tmpfs -o mode=0755,nosuid,nodev run
    # Downloads survive between runs (the packages still come from Debian and PyPI).
    mount_at "$ROOT/var/cache/apt/archives" --bind "$CACHE/$SUITE/apt-archives"
    mount_at "$ROOT/root/.cache/pip" --bind "$CACHE/pip"
    cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
    # Services must not start inside a chroot (Debian's policy-rc.d convention).
    printf '#!/bin/sh\nexit 101\n' >"$ROOT/usr/sbin/policy-rc.d"
    chmod 0755 "$ROOT/usr/sbin/policy-rc.d"
    printf '%s\0' "$MODEL" >"$ROOT/etc/pi-model"
    mkdir -p "$ROOT/boot/firmware"
    touch "$ROOT/boot/firmware/config.txt"
    # Certificate authorities this host added (an egress proxy's) are trusted in the image
    # too: appended to the bundle pip and Python read (update-ca-certificates would take
    # minutes under emulation). A real Pi needs none of this.
    if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
        cat /usr/local/share/ca-certificates/*.crt >>"$ROOT/etc/ssl/certs/ca-certificates.crt"
    fi
    # The clone as `git clone` would give it: tracked and new files, nothing ignored.
    mkdir -p "$ROOT$SRC_IN_ROOT"
    (cd "$CLONE" && git ls-files -z --cached --others --exclude-standard |
        while IFS= read -r -d '' file; do [[ -e $file ]] && printf '%s\0' "$file"; done |
        tar --null -T - -cf -) | tar -xf - -C "$ROOT$SRC_IN_ROOT"
}

# A command inside the image, in a clean environment like a root login shell on the Pi.
in_root() {
    chroot "$ROOT" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        POKERTABLE_MODEL_FILE=/etc/pi-model PIP_CERT=/etc/ssl/certs/ca-certificates.crt \
        PIP_DISABLE_PIP_VERSION_CHECK=1 "$@"
}
in_src() {
    local script=$1
    in_root bash -c "cd $SRC_IN_ROOT && set -euo pipefail && $script"
}

# --- the checks: as a Pi owner would ----------------------------------------------------

PT=/opt/pokertable/.venv/bin/pokertable
PHH=docs/examples/side-pot.phh

install_table() {
    in_src "./deploy/install.sh --with-broker"
    # What docs/install-pi.md tells the owner to do next: the table's broker password, and
    # the enrollment, here of the simulated readers' chip set and deck (what `pokertable
    # enroll` writes when the real chips lie on a real pad).
    in_src "install -m 0640 -o root -g pokertable /dev/stdin /etc/pokertable/mqtt.password <<<'pi-check'"
    in_src "/opt/pokertable/.venv/bin/python -c 'import sys
from pokertable.hardware.registry import TagRegistry
from pokertable.hardware.simulator import SyntheticTags
registry = TagRegistry(sys.argv[1]); SyntheticTags.enroll(registry); registry.close()' \
        /var/lib/pokertable/registry.sqlite3 &&
        chown pokertable:pokertable /var/lib/pokertable/registry.sqlite3"
}

check_config() {
    in_src "$PT run --config /etc/pokertable/table.toml --check"
}

run_table() {
    in_src "$PT --version >/dev/null && /opt/pokertable/.venv/bin/python deploy/table_run_check.py --seconds $RUN_SECONDS"
}

demo() {
    # The Pi's own mosquitto (install.sh --with-broker) as the demo's broker, on a free port
    # (systemd does not run here to start it; the table's extras stay as installed).
    in_src "port=\$(/opt/pokertable/.venv/bin/python -c 'from pokertable.mqtt.mosquitto import free_port; print(free_port())')
        /usr/sbin/mosquitto -p \$port >/dev/null 2>&1 & broker=\$!
        trap 'kill \$broker' EXIT
        for _ in \$(seq 600); do (exec 3<>/dev/tcp/127.0.0.1/\$port) 2>/dev/null && break; sleep 0.1; done
        echo \"    mosquitto on port \$port\"
        $PT demo --hands 2 --broker 127.0.0.1:\$port"
}

install_again() {
    in_src "printf '%s\n' '{\"check-arm\": \"a journal record the update must keep\"}' >>/var/lib/pokertable/journal.jsonl"
    local before after
    before=$(in_root sha256sum /etc/pokertable/table.toml /var/lib/pokertable/journal.jsonl)
    in_src "./deploy/install.sh --with-broker" | tee "$WORK/install-again.log"
    grep -q "keeping the existing /etc/pokertable/table.toml" "$WORK/install-again.log"
    after=$(in_root sha256sum /etc/pokertable/table.toml /var/lib/pokertable/journal.jsonl)
    [[ $before == "$after" ]] || { echo "the config or the journal changed"; return 1; }
    echo "    config and journal unchanged (sha256)"
}

footprint() {
    in_root du -sh --apparent-size /opt/pokertable/.venv
    in_src "/opt/pokertable/.venv/bin/python -m pokertable.bench.app_figures"
}

trap cleanup EXIT
trap 'exit 130' INT TERM
say "emulated Pi: Debian $SUITE arm64 under qemu-user-static (stands for: $MODEL)"
step "host tools: debootstrap, qemu-user-static, binfmt" host_tools
step "Debian $SUITE arm64 root (cache $CACHE/$SUITE)" build_base
step "fresh image: overlay on the cached root, the clone copied to $SRC_IN_ROOT" prepare_image
# shellcheck disable=SC2016  # expanded inside the image
in_root bash -c '. /etc/os-release; echo "    $PRETTY_NAME, $(uname -m), $(python3 --version)"'
step "sudo ./deploy/install.sh --with-broker; the broker password; enroll chips and a deck" install_table
step "$PT --version" in_root "$PT" --version
step "$PT run --config /etc/pokertable/table.toml --check" check_config
step "$PT replay $PHH" in_src "$PT replay $PHH"
step "$PT run for ${RUN_SECONDS} s: simulated readers, mosquitto, SIGTERM" run_table
step "$PT demo --hands 2 --broker (the image's mosquitto)" demo
step "sudo ./deploy/install.sh --with-broker again: config and journal kept" install_again
if [[ $FOOTPRINT -eq 1 ]]; then
    step "footprint: venv size, RSS after 1,000 hands beside python + paho" footprint
fi
say "all steps passed on Debian $SUITE arm64 in $((SECONDS - CHECK_STARTED)) s"
if [[ -n $IF_CHANGED ]] && git -C "$CLONE" diff --quiet HEAD -- "${WATCHED[@]}"; then
    printf '%s %s passed %s\n' "$(git -C "$CLONE" rev-parse HEAD)" "$SUITE" \
        "$(date -u +%F)" >"$CLONE/$IF_CHANGED"
    echo "recorded in $IF_CHANGED: commit it, so the next run skips until ${WATCHED[*]} change"
fi
exit 0
}
