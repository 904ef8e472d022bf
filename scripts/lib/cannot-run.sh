# Sourced by the test command's stage scripts: how a stage says it cannot run on this machine.
#
#   cannot_run WHY          prints "<stage>: cannot run: WHY" and exits 77; scripts/lib/stages.sh
#                           reports it as skipped outside CI and as a failure under CI
#   require_tools TOOL...
#                           cannot_run unless every TOOL is a command on PATH, naming the
#                           missing ones and the command that installs them
CANNOT_RUN=77
cannot_run() { echo "${CANNOT_RUN_STAGE:-$(basename "$0")}: cannot run: $*"; exit $CANNOT_RUN; }
require_tools() {
  local missing=() tool
  for tool in "$@"; do command -v "$tool" >/dev/null 2>&1 || missing+=("$tool"); done
  [ ${#missing[@]} = 0 ] || cannot_run "no ${missing[*]} on this machine (scripts/install-deps.sh --tests installs it)"
}
