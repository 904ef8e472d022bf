#!/usr/bin/env bash
# The test command: installs what is missing, builds with warnings as errors, runs every
# unit test, then every acceptance scenario (the shared ones and the project's own).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh

echo "== build (warnings are errors)"
swift build --build-tests -Xswiftc -warnings-as-errors

echo "== unit tests"
swift test --skip-build

echo "== acceptance scenarios"
shared="../shared"
[ -d "$shared/scenarios" ] || { echo "missing $shared/scenarios: clone next to the shared/ folder"; exit 1; }
python3 "$shared/bin/scenario" --bin .build/debug/gymtimer "$shared/scenarios"
python3 "$shared/bin/scenario" --bin .build/debug/gymtimer Tests/scenarios
