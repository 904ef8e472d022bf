#!/usr/bin/env bash
# The test command: installs what is missing, builds with warnings as errors, runs every
# unit test, then every acceptance scenario (the shared ones and the project's own).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --tests

echo "== build (warnings are errors)"
swift build --build-tests -Xswiftc -warnings-as-errors

echo "== unit tests"
swift test --skip-build

echo "== acceptance scenarios"
shared="../shared"
[ -d "$shared/scenarios" ] || { echo "missing $shared/scenarios: clone next to the shared/ folder"; exit 1; }
python3 "$shared/bin/scenario" --bin .build/debug/gymtimer "$shared/scenarios"
python3 "$shared/bin/scenario" --bin .build/debug/gymtimer Tests/scenarios

echo "== the interactive simulator in a real terminal (tmux)"
python3 Tests/terminal/terminal_test.py .build/debug/gymtimer

echo "== systemd unit hardening (exposure must stay at 2.0 or lower)"
if command -v systemd-analyze >/dev/null; then
  systemd-analyze security --offline=true --threshold=20 deploy/gymtimer.service | tail -1
else
  echo "unit hardening: skipped (no systemd-analyze on this machine)"
fi

echo "== install.sh: a failed build stops it (the rest of it runs in the install test VM)"
bash -n deploy/install.sh
fake=$(mktemp -d); printf '#!/bin/sh\nexit 1\n' > "$fake/swift"; chmod +x "$fake/swift"
if PATH="$fake:$PATH" deploy/install.sh --build-only >/dev/null 2>&1; then
  echo "install.sh --build-only succeeded although swift build failed"; exit 1
fi
rm -rf "$fake"; echo "ok"

echo "== kernel-level tests (the real binary against gpio-sim, i2c-stub and snd-aloop in a qemu VM)"
# Software emulation on 2 cores is slow and its start-up time varies with load: one retry
# tells a loaded machine apart from a real failure, and says so.
for stage in kernel install; do
  if ! scripts/vm-test.sh $stage; then
    echo "vm tests ($stage): failed once, retrying to rule out an overloaded emulator"
    scripts/vm-test.sh $stage
  fi
done
