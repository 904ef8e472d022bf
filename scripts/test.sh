#!/usr/bin/env bash
# The test command. It installs what every stage needs (scripts/install-deps.sh --tests), builds
# once (release, with the tests, warnings as errors), then runs every stage: what the console binary links (none of the
# kiosk's modules), the unit tests (the hardware layer's against
# libgpiod 1.6 here and 2.2 on arm64), every acceptance scenario (the shared ones and the project's own), a
# real Home Assistant, the arm64 cross build under qemu, the console in a real browser, the
# terminal simulator, the README's commands, the systemd unit, the kernel-VM and install tests
# and the Debian packages. Each stage prints its duration; the run ends with a table of stages,
# times, CPU seconds and counts (scripts/lib/stages.sh). A stage that cannot run on this machine
# is skipped outside CI and fails the run under CI, saying why.
#
#   scripts/test.sh           everything (what CI runs)
#   scripts/test.sh --quick   a developer's loop: the build, the unit tests, the scenarios and the
#                             console in a real browser; no VM, no arm64, no background job
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
case "${1:-}" in --quick) quick=1 ;; "") ;; *) echo "usage: scripts/test.sh [--quick]" >&2; exit 2 ;; esac
. scripts/lib/stages.sh
shared=../shared
[ -d "$shared/scenarios" ] || { echo "missing $shared/scenarios: clone next to the shared/ folder"; exit 1; }

stage "dependencies (scripts/install-deps.sh --tests)" scripts/install-deps.sh --tests
stage_failed && { stage_table; exit 1; }

# What later stages build, download and unpack runs in the background while the host builds
# and tests, at a lower CPU and disk priority (the tests in front come first, and a build leaves
# one of two cores idle much of the time). Each job only fills its stage's cache: a stage awaits
# its job, then runs its own command, which finds the work done (or does it again and fails with
# its own reason). The arm64 cross build runs in its chroot once the chroot is downloaded.
if [ $quick = 0 ]; then
  background ha env HA_BUILD_ONLY=1 scripts/ha-test.sh
  # The cross build starts once its own chroot is there; the packages' chroots (debootstraps,
  # mostly waiting on the network) are made beside it, not before it.
  background arm64 bash -c 'scripts/build-arm64.sh --prepare && scripts/build-arm64.sh --tests'
  background pkgroots bash -c 'Tests/package/lifecycle.sh --prepare && Tests/package/signed-repo.sh --prepare'
  background vm bash -c 'scripts/build-libgpiod2.sh && Tests/vm/build.sh && Tests/vm/systemd/build.sh trixie --base-only'
fi
# One build for this CPU: release, with the tests (-enable-testing, for their @testable
# imports). The unit tests, the scenarios and every process-level test run its binaries; the VMs' and the packages' binaries
# are its objects linked again with the Swift runtime inside (scripts/build-release-binaries.sh):
# the same code is not compiled a second time in debug, nor a third against libgpiod 2.
# Without debug information (-gnone, -g0): every binary shipped is stripped of it, and making it
# costs some 7 % of a release build's CPU (SwiftNIO measured here: 100 CPU s with it, 93
# without). scripts/build-release-binaries.sh builds with the same flags (the same build).
stage "build: release, with the tests (warnings are errors)" \
  swift build -c release --build-tests -Xswiftc -enable-testing -Xswiftc -warnings-as-errors -Xswiftc -gnone -Xcc -g0
stage_failed && { stage_table; exit 1; }
export RELEASE_BUILT=1
BIN=.build/release/gymtimer

# The binaries the VMs boot and the amd64 packages ship, with the Swift runtime linked in as
# deploy/install.sh links it: the build's objects linked again (seconds, not a build), for
# Debian 12's libgpiod 1.6 and, its one C shim compiled again, for libgpiod 2.2 from Debian
# trixie's source (static, cached in .build/libgpiod2), in .build-release.
if [ $quick = 0 ]; then
  stage "the release binaries: libgpiod 1.6 and 2.2, linked from the build (scripts/build-release-binaries.sh)" \
    scripts/build-release-binaries.sh
  export VM_RELEASE_BUILT=1
fi

# Checked first, in seconds: under CI a stage without its tools fails, it is never skipped.
stage "a stage that cannot run fails under CI (Tests/ci/stage-truth-test.sh)" Tests/ci/stage-truth-test.sh
# docs/architecture-files.md places every source file, in the words of its doc comment, and
# docs/ARCHITECTURE.md stays a map: at most 300 lines, its codemap naming every target.
stage "ARCHITECTURE.md a map, every source file in architecture-files.md (scripts/architecture-files.py --check)" \
  python3 scripts/architecture-files.py --check

stage "the console and the central collector link none of the kiosk's modules (Tests/ci/links-test.sh)" Tests/ci/links-test.sh

# ConsoleNameTextTests serves the console's real HTTP handlers in the test process; beside the
# whole suite on two cores, tests that block Swift's cooperative pool starved its server past
# any margin (a CI run: "did not listen within 120 s"), so it runs after them, alone.
unit_tests() {
  swift test -c release --skip-build --skip ConsoleNameTextTests
  swift test -c release --skip-build --filter ConsoleNameTextTests
}
stage "unit tests" unit_tests

scenarios() {
  python3 "$shared/bin/scenario" --bin $BIN "$shared/scenarios"
  # Programs are built: their scenarios run from upcoming/ until they move into scenarios/.
  if [ -d "$shared/upcoming/programs" ]; then
    python3 "$shared/bin/scenario" --bin $BIN "$shared/upcoming/programs"
  fi
  python3 "$shared/bin/scenario" --bin $BIN Tests/scenarios
}
stage "acceptance scenarios (shared and Tests/scenarios)" scenarios

# The coach's console in headless Chromium (selenium from .build-venv, made by install-deps.sh):
# a real Mosquitto, the collector, two headless stations; its screenshot goes to .build (run it
# with --screenshot docs/console.png to refresh the README's picture).
# Then the console on a hostile Wi-Fi: an attacker on 127.0.0.2 against the coach on 127.0.0.1.
console() {
  .build-venv/bin/python Tests/console/console_test.py $BIN --screenshot .build/console.png
  # Athletes: a new card named, the class list on the stations, the leaderboard by athlete (phone size).
  .build-venv/bin/python Tests/console/athletes_test.py $BIN
  # A chain's console on the central broker: the gym picker and the chain's leaderboard (phone size).
  .build-venv/bin/python Tests/console/chain_test.py $BIN
  python3 Tests/console/hostile_test.py $BIN
}
stage "the coach's console in a real browser, and on a hostile Wi-Fi (Tests/console/)" console
[ $quick = 0 ] || { stage_table; exit; }

terminal() {
  python3 Tests/terminal/terminal_test.py $BIN
  # The README's captures of a rest and an interval run: the runs must still reach every screen shown.
  python3 scripts/capture-readme.py --check $BIN
}
stage "the interactive simulator in a real terminal (tmux) and the README's captures" terminal

stage "the README's command blocks, run as a newcomer would (scripts/check-readme.py)" \
  python3 scripts/check-readme.py $BIN

# Both variants: the plain unit (no [fleet]: no network) and the unit with the drop-in that
# `gymtimer unit-network` writes for a [fleet] (its network opened to the broker only), read
# from a root folder laid out as install.sh lays it out.
unit_hardening() {
  . scripts/lib/cannot-run.sh
  require_tools systemd-analyze
  local unitroot dropins report variant
  unitroot=$(mktemp -d); dropins=$unitroot/etc/systemd/system/gymtimer.service.d
  mkdir -p "$dropins"; cp deploy/gymtimer.service "$unitroot/etc/systemd/system/"
  printf '[fleet]\nbroker = "mqtt://192.168.1.10:1883"\nstation = "rack-1"\n' > "$unitroot/fleet.toml"
  $BIN unit-network --config "$unitroot/fleet.toml" --write "$unitroot/fleet-network.conf" >/dev/null
  for variant in "no [fleet]" "with a [fleet]"; do
    [ "$variant" = "no [fleet]" ] || cp "$unitroot/fleet-network.conf" "$dropins/"
    report=$(systemd-analyze security --offline=true --root="$unitroot" --threshold=20 gymtimer.service) \
      || { echo "$report" | grep -v '^✓'; echo "gymtimer.service $variant: exposure above 2.0"; exit 1; }
    echo "ok   $variant: $(echo "$report" | tail -1)"
  done
  rm -rf "$unitroot"
}
stage "systemd unit hardening (exposure must stay at 2.0 or lower)" unit_hardening

# Units printed by systemd's own exposure score and failing above THRESHOLD (tenths):
# unit_exposure THRESHOLD UNIT_FILE...
unit_exposure() {
  . scripts/lib/cannot-run.sh
  require_tools systemd-analyze
  local threshold=$1 unitroot report file unit; shift
  unitroot=$(mktemp -d); mkdir -p "$unitroot/etc/systemd/system"
  cp "$@" "$unitroot/etc/systemd/system/"
  for file in "$@"; do
    unit=$(basename "$file")
    report=$(systemd-analyze security --offline=true --root="$unitroot" --threshold="$threshold" "$unit") \
      || { echo "$report" | grep -v '^✓'; echo "$unit: exposure above $((threshold / 10)).$((threshold % 10))"; exit 1; }
    echo "$report" | grep -v '^✓'
    echo "ok   $unit: $(echo "$report" | tail -1)"
  done
  rm -rf "$unitroot"
}
# The gym's server's units (gymtimer-server package): the collector and the console, each
# printed and failing above 2.0, as the kiosk's.
stage "the server's units' hardening (collector and console, exposure at 2.0 or lower)" \
  unit_exposure 20 deploy/server/gymtimer-collect.service deploy/server/gymtimer-console.service

# The upgrade agent's unit (gymtimer package): root, running apt, so it cannot be sandboxed as
# the others are (2.0): apt and dpkg write /usr, /etc and /var, run maintainer scripts as root
# and restart the kiosk, which rules out ProtectSystem, User=, PrivateDevices, PrivateNetwork,
# a system call allow-list and most of root's capabilities (the unit lists what is left out
# and why). 4.9 is what is left once everything apt can do without is taken away (9.6 with no
# sandbox): the stage fails above it, so a directive dropped from the unit shows here.
stage "the upgrade agent's unit's hardening (root running apt, exposure at 4.9 or lower)" \
  unit_exposure 49 deploy/gymtimer-upgrade.service

# The broker's ACL the server's package ships is the fleet guide's, rule for rule.
broker_acl() {
  python3 - <<'EOF'
import re, sys
rules = lambda text: [l for l in text.split("\n") if l.strip() and not l.startswith("#")]
guide = re.search(r"```\n# /etc/mosquitto/acl\n(.*?)```", open("docs/fleet.md").read(), re.S)
shipped = rules(open("deploy/server/gymtimer.acl").read())
if not guide or rules(guide.group(1)) != shipped:
    sys.exit("deploy/server/gymtimer.acl and docs/fleet.md's ACL differ: make them the same")
print("ok   deploy/server/gymtimer.acl is docs/fleet.md's ACL (%d rules)" % len(shipped))
EOF
}
stage "the server package's broker ACL is the fleet guide's" broker_acl

await ha
stage "a real Home Assistant drives a station (scripts/ha-test.sh; cached in .build-ha)" scripts/ha-test.sh $BIN

# A chain of gyms (docs/chain.md) on three hosts: network namespaces for two gyms and the centre,
# a Mosquitto on each (the gyms' bridged over TLS), PostgreSQL and two central collectors; a cut
# link, a collector killed with SIGKILL and PostgreSQL restarted lose and double nothing.
stage "a chain of gyms: three hosts (network namespaces), bridged brokers, PostgreSQL, two collectors (Tests/chain/)" \
  python3 Tests/chain/chain_test.py $BIN


# Software emulation on 2 cores is slow and its start-up time varies with load: one retry of
# the kernel VM (minutes) tells a loaded machine apart from a real failure, and says so. The
# install VM (a quarter of an hour, two releases side by side) is not retried: a second run
# would not fit CI's time, so its guests' timeouts carry the margin instead (run.sh). A VM stage
# that cannot run (77) is not retried.
vm_tests() {
  local rc=0
  scripts/vm-test.sh "$1" || rc=$?
  [ $rc = 0 ] || [ $rc = "$CANNOT_RUN" ] || [ "$1" = install ] && return $rc
  echo "vm tests ($1): failed once, retrying to rule out an overloaded emulator"
  scripts/vm-test.sh "$1"
}
# The amd64 packages, from the release binaries built for Debian 12 (libgpiod 1.6): built
# here, before the install VM, which installs both on its Debian 12 guest (VM_DEBS; Debian 13's
# are built by vm-test.sh from the libgpiod 2.2 kiosk) as a gym's
# server; the package stage below checks the same files with lintian and their lifecycle.
amd64_debs() {
  [ -x .build-release/bookworm/gymtimer ] || { echo "no .build-release/bookworm/gymtimer: scripts/build-release-binaries.sh makes it"; exit 1; }
  rm -f .build/deb/gymtimer_*_amd64.deb .build/deb/gymtimer-server_*_amd64.deb   # only this build's
  scripts/build-deb.sh amd64 .build-release/bookworm/gymtimer .build/deb
}
# The amd64 packages are the tests' own (the Pi's arm64 package keeps xz): gzip (build-deb.sh).
export GYMTIMER_DEB_COMPRESSION=gzip
stage "the amd64 Debian packages built (scripts/build-deb.sh), for the install VM and the package stage" amd64_debs
# The two, gymtimer first (Tests/package/lifecycle.sh takes them in that order).
amd64_built() {
  local deb
  for deb in .build/deb/gymtimer_*_amd64.deb .build/deb/gymtimer-server_*_amd64.deb; do [ ! -f "$deb" ] || echo "$deb"; done
}
VM_DEBS=$(amd64_built | tr '\n' ' ') || true
export VM_DEBS

await vm
stage "kernel VM: the real binary against gpio-sim, i2c-stub and snd-aloop (qemu)" vm_tests kernel
# Debian 13 only (VM_RELEASES): both releases booted side by side ran CI's 90 minutes out, on
# two cores with the arm64 build behind them. Debian 12 stays covered by this machine's own
# tests (it is Debian 12), the kernel VM (Debian 12's root), the unit's offline exposure score
# and the package stage's Debian 12 chroot; `VM_RELEASES="bookworm trixie" scripts/vm-test.sh
# install` boots both (docs/development.md).
export VM_RELEASES=trixie
stage "install VM: install.sh on Debian 13 under systemd (qemu), then the packages: the server, upgrades from a signed source" vm_tests install

# The Raspberry Pi's build: cross-compiled with Swift 6.2.3 for arm64 trixie, the unit tests of
# what can differ on arm64 and every scenario above run under qemu user emulation, and its Debian
# package checked by lintian and installed, upgraded and purged.
await pkgroots
await arm64
stage "arm64: cross build, tests and scenarios under qemu (scripts/test-arm64.sh)" scripts/test-arm64.sh

install_sh() {
  bash -n deploy/install.sh
  # A failed build stops it (the rest of it runs in the install test VM).
  local fake msg deb
  fake=$(mktemp -d); printf '#!/bin/sh\nexit 1\n' > "$fake/swift"; chmod +x "$fake/swift"
  if PATH="$fake:$PATH" deploy/install.sh --build-only >/dev/null 2>&1; then
    echo "install.sh --build-only succeeded although swift build failed"; exit 1
  fi
  rm -rf "$fake"; echo "ok   install.sh stops on a failed build"
  # Given a package for another architecture it refuses in one line, before touching anything.
  for deb in .build-arm64/out/gymtimer_*_arm64.deb; do
    [ -f "$deb" ] || continue
    if msg=$(deploy/install.sh "$deb" 2>&1) || [[ "$msg" != *"is for arm64, this system is amd64"* ]]; then
      echo "install.sh did not refuse $deb on amd64: $msg"; exit 1
    fi
    echo "ok   install.sh refuses the arm64 package here: ${msg#install.sh: }"
  done
}
stage "install.sh: a failed build stops it, a foreign package is refused" install_sh

# The x86-64 packages built above from the release binaries the VMs booted (Debian 12, libgpiod 1.6).
amd64_package() {
  local out deb
  # Two packages: gymtimer, then gymtimer-server (the gym's server's units and broker).
  out=$(amd64_built) && [ "$(wc -w <<<"$out")" = 2 ] || { echo "no amd64 packages in .build/deb: the build stage above failed"; exit 1; }
  for deb in $out; do
    lintian --fail-on error "$deb"
    echo "ok   lintian: $(basename "$deb")"
  done
  Tests/package/lifecycle.sh $out
  # docs/upgrades.md's package source as written: the gym's server (reprepro, its key, nginx; on
  # Debian 13, then 12) and a station (Signed-By) in chroots; newer versions taken, altered,
  # unsigned or foreign-signed ones refused.
  for deb in $out; do
    case $(basename "$deb") in gymtimer_*) Tests/package/signed-repo.sh "$deb" ;; esac
  done
}
stage "the amd64 Debian packages (gymtimer, gymtimer-server): lintian, install/upgrade/remove/purge, the gym's signed package source" amd64_package

stage_table
