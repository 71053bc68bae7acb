# shellcheck shell=bash
# Sourced by deploy/install.sh and deploy/install-room.sh: how they report and make changes.
# The script sets DRY_RUN (0 or 1) before it calls run.

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
