#!/usr/bin/env bash
# What the two server programs must not link, checked on the built binaries' symbols (a Swift
# module's symbols are mangled `$s<length><name>`, so one symbol of a forbidden module means the
# binary links it):
#  * the coach's console (gymtimer-console) links none of the kiosk's modules nor the gym's
#    database (issue 34): it takes what it needs of the fleet from GymTimerFleet, GymTimerMQTT
#    and GymTimerConfig, and asks the collector over the broker (CollectorDesk, fleet.md);
#  * the chain's central collector (gymtimer-central) links none of the kiosk's modules, nor the
#    station's side of the fleet, the upgrade agent or the console (issue 49): it is the
#    collector (GymTimerCollector) over PostgreSQL (GymTimerCentral).
#   Tests/ci/links-test.sh [directory]   (default .build/release)
set -euo pipefail
cd "$(dirname "$0")/../.."
directory=${1:-.build/release}

KIOSK="GymTimerRuntime GymTimerDrivers GymTimerKiosk GymTimerSetup GymTimerHardware GymTimerSimulator GymTimerBenchmark"
# The one list of each: what it must not link.
CONSOLE_FORBIDDEN="$KIOSK GymTimerFleetLink GymTimerStationLink GymTimerCollector GymTimerUpgrade GymTimerFleetCommands GymTimerHistory GRDB"
CENTRAL_FORBIDDEN="$KIOSK GymTimerStationLink GymTimerUpgrade GymTimerFleetCommands GymTimerConsole"

failures=0
check() {
  local binary=$directory/$1 symbols n
  [ -x "$binary" ] || { echo "FAIL no $binary (build first)"; failures=$((failures + 1)); return; }
  symbols=$(nm "$binary")
  for module in $2; do
    n=$(grep -cF "\$s${#module}$module" <<<"$symbols" || true)
    if [ "$n" -gt 0 ]; then
      echo "FAIL $binary links $module ($n symbols)"
      failures=$((failures + 1))
    else
      echo "ok   $binary does not link $module"
    fi
  done
}
check gymtimer-console "$CONSOLE_FORBIDDEN"
check gymtimer-central "$CENTRAL_FORBIDDEN"
[ "$failures" = 0 ]
