# shellcheck shell=bash
# Timed log lines for the long build scripts (scripts/zfsvm.sh, appliance/build.sh). Source it
# after setting LOG_NAME; it also traps ERR so that a failing command never ends a script silently.
T0=$(date +%s)
PHASE_T=$T0
log() { echo "[$LOG_NAME +$(($(date +%s) - T0))s] $*" >&2; }
phase() { # print how long the previous phase took, then name the next one
  local now; now=$(date +%s)
  log "$* (previous phase $((now - PHASE_T))s)"; PHASE_T=$now
}
die() { echo "$LOG_NAME: $*" >&2; exit 1; }
trap 'echo "$LOG_NAME: FAILED (exit $?) at line $LINENO: $BASH_COMMAND" >&2' ERR
