#!/usr/bin/env bash
# The coach's console (gymtimer-console) links none of the kiosk's modules nor the gym's database
# (issue 34): it takes what it needs of the fleet from GymTimerFleet, GymTimerMQTT and
# GymTimerConfig. Checked on the built binary's symbols: a Swift module's symbols are mangled
# `$s<length><name>`, so one symbol of a forbidden module means the console links it.
#   Tests/ci/console-links-test.sh [binary]   (default .build/release/gymtimer-console)
set -euo pipefail
cd "$(dirname "$0")/../.."
binary=${1:-.build/release/gymtimer-console}

# The one list of what the console must not link. History and GRDB too: the console opens no
# database, it asks the collector over the broker (CollectorDesk, fleet.md).
FORBIDDEN="GymTimerRuntime GymTimerFleetLink GymTimerDrivers GymTimerKiosk GymTimerSetup GymTimerHardware GymTimerSimulator GymTimerBenchmark GymTimerHistory GRDB"

[ -x "$binary" ] || { echo "console links test: no $binary (build first)"; exit 1; }
symbols=$(nm "$binary")
count() { grep -cF "\$s${#1}$1" <<<"$symbols" || true; }
failures=0
for module in $FORBIDDEN; do
  n=$(count "$module")
  if [ "$n" -gt 0 ]; then
    echo "FAIL $binary links $module ($n symbols)"
    failures=$((failures + 1))
  else
    echo "ok   $binary does not link $module"
  fi
done
[ "$failures" = 0 ]
