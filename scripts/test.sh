#!/usr/bin/env bash
# The test command: installs what is missing, builds with warnings as errors, runs every
# unit test (the hardware layer's against libgpiod 1.6 and 2.2), then every acceptance
# scenario (the shared ones and the project's own), the same on an arm64 cross build under
# qemu user emulation, then the kernel-VM and install tests.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --tests

echo "== build (warnings are errors)"
swift build --build-tests -Xswiftc -warnings-as-errors

echo "== unit tests"
swift test --skip-build

# Raspberry Pi OS trixie has libgpiod 2: the same build and the hardware layer's unit tests
# against libgpiod 2.2 from Debian trixie's source package (static, cached in .build/libgpiod2).
echo "== libgpiod 2.2 build (.build-gpiod2, warnings are errors) and the hardware unit tests on it"
gpiod2=$(scripts/build-libgpiod2.sh)/lib/pkgconfig
PKG_CONFIG_PATH=$gpiod2 swift build --scratch-path .build-gpiod2 --build-tests -Xswiftc -warnings-as-errors
PKG_CONFIG_PATH=$gpiod2 swift test --scratch-path .build-gpiod2 --skip-build --filter GymTimerHardwareTests

echo "== acceptance scenarios"
shared="../shared"
[ -d "$shared/scenarios" ] || { echo "missing $shared/scenarios: clone next to the shared/ folder"; exit 1; }
python3 "$shared/bin/scenario" --bin .build/debug/gymtimer "$shared/scenarios"
# Programs are built: their scenarios run from upcoming/ until they move into scenarios/.
if [ -d "$shared/upcoming/programs" ]; then
  python3 "$shared/bin/scenario" --bin .build/debug/gymtimer "$shared/upcoming/programs"
fi
python3 "$shared/bin/scenario" --bin .build/debug/gymtimer Tests/scenarios

echo "== a real Home Assistant reads a station's discovery and drives it (cached in .build-ha)"
scripts/ha-test.sh .build/debug/gymtimer

# The Raspberry Pi's build: cross-compiled with Swift 6.2.3 for arm64 trixie, its unit tests and
# every scenario above run under qemu user emulation, and its Debian package checked by lintian.
echo "== arm64: cross build, unit tests and scenarios under qemu-aarch64-static (scripts/test-arm64.sh)"
scripts/test-arm64.sh

# The coach's console in headless Chromium (selenium from .build-venv, made by install-deps.sh):
# a real Mosquitto, the collector, two headless stations; its screenshot goes to .build (run it
# with --screenshot docs/console.png to refresh the README's picture).
echo "== the coach's console in a real browser (Tests/console/console_test.py)"
.build-venv/bin/python Tests/console/console_test.py .build/debug/gymtimer --screenshot .build/console.png

echo "== the interactive simulator in a real terminal (tmux)"
python3 Tests/terminal/terminal_test.py .build/debug/gymtimer
# The README's captures of a rest and an interval run: the runs must still reach every screen shown.
python3 scripts/capture-readme.py --check .build/debug/gymtimer

echo "== the README's command blocks, run as a newcomer would (scripts/check-readme.py)"
python3 scripts/check-readme.py .build/debug/gymtimer

echo "== systemd unit hardening (exposure must stay at 2.0 or lower)"
# Both variants: the plain unit (no [fleet]: no network) and the unit with the drop-in that
# `gymtimer unit-network` writes for a [fleet] (its network opened to the broker only), read
# from a root folder laid out as install.sh lays it out.
if command -v systemd-analyze >/dev/null; then
  unitroot=$(mktemp -d); dropins=$unitroot/etc/systemd/system/gymtimer.service.d
  mkdir -p "$dropins"; cp deploy/gymtimer.service "$unitroot/etc/systemd/system/"
  printf '[fleet]\nbroker = "mqtt://192.168.1.10:1883"\nstation = "rack-1"\n' > "$unitroot/fleet.toml"
  .build/debug/gymtimer unit-network --config "$unitroot/fleet.toml" --write "$unitroot/fleet-network.conf" >/dev/null
  for variant in "no [fleet]" "with a [fleet]"; do
    [ "$variant" = "no [fleet]" ] || cp "$unitroot/fleet-network.conf" "$dropins/"
    report=$(systemd-analyze security --offline=true --root="$unitroot" --threshold=20 gymtimer.service) \
      || { echo "$report" | grep -v '^✓'; echo "gymtimer.service $variant: exposure above 2.0"; exit 1; }
    echo "$variant: $(echo "$report" | tail -1)"
  done
  rm -rf "$unitroot"
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
# Given a package for another architecture it refuses in one line, before touching anything.
for deb in .build-arm64/out/gymtimer_*_arm64.deb; do
  [ -f "$deb" ] || continue
  if msg=$(deploy/install.sh "$deb" 2>&1) || [[ "$msg" != *"is for arm64, this system is amd64"* ]]; then
    echo "install.sh did not refuse $deb on amd64: $msg"; exit 1
  fi
  echo "install.sh refuses the arm64 package here: ${msg#install.sh: }"
done

echo "== kernel-level tests (the real binary against gpio-sim, i2c-stub and snd-aloop in a qemu VM)"
# Software emulation on 2 cores is slow and its start-up time varies with load: one retry
# tells a loaded machine apart from a real failure, and says so.
for stage in kernel install; do
  if ! scripts/vm-test.sh $stage; then
    echo "vm tests ($stage): failed once, retrying to rule out an overloaded emulator"
    scripts/vm-test.sh $stage
  fi
done

# The x86-64 package, from the release binary the install test built (Debian 12, libgpiod 1.6).
if [ -x .build/release/gymtimer ]; then
  echo "== the amd64 Debian package: lintian, then install/upgrade/remove/purge"
  out=$(scripts/build-deb.sh amd64 .build/release/gymtimer .build/deb | sed -n 's/^  built \([^ ]*\).*/\1/p')
  ! command -v lintian >/dev/null || lintian --fail-on error "$out"
  Tests/package/lifecycle.sh "$out"
fi
