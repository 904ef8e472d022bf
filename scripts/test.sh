#!/usr/bin/env bash
# The test command. It installs what every stage needs (scripts/install-deps.sh --tests), builds
# with warnings as errors, then runs every stage: what the console binary links (none of the
# kiosk's modules), the unit tests (the hardware layer's against
# libgpiod 1.6 here and 2.2 on arm64), every acceptance scenario (the shared ones and the project's own), a
# real Home Assistant, the arm64 cross build under qemu, the console in a real browser, the
# terminal simulator, the README's commands, the systemd unit, the kernel-VM and install tests
# and the Debian packages. Each stage prints its duration; the run ends with a table of stages,
# times and counts (scripts/lib/stages.sh). A stage that cannot run on this machine is skipped
# outside CI and fails the run under CI, saying why.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/stages.sh
shared=../shared
[ -d "$shared/scenarios" ] || { echo "missing $shared/scenarios: clone next to the shared/ folder"; exit 1; }

stage "dependencies (scripts/install-deps.sh --tests)" scripts/install-deps.sh --tests
stage_failed && { stage_table; exit 1; }

# What later stages build, download and unpack runs in the background while the host builds
# and tests, at a lower CPU and disk priority (the tests in front come first, and a build leaves
# one of two cores idle much of the time). Each job only fills its stage's cache: a stage awaits
# its job, then runs its own command, which finds the work done (or does it again and fails with
# its own reason). The release binaries build in .build-release and .build-gpiod2, beside the
# debug build in .build; the arm64 cross build in its chroot once the chroot is downloaded.
background release scripts/build-release-binaries.sh
background ha env HA_BUILD_ONLY=1 scripts/ha-test.sh
background arm64 bash -c 'scripts/build-arm64.sh --prepare && Tests/package/lifecycle.sh --prepare && Tests/package/signed-repo.sh --prepare && scripts/build-arm64.sh --tests'
background vm bash -c 'Tests/vm/build.sh && Tests/vm/systemd/build.sh bookworm --base-only && Tests/vm/systemd/build.sh trixie --base-only'
stage "build (warnings are errors)" swift build --build-tests -Xswiftc -warnings-as-errors
stage_failed && { stage_table; exit 1; }

# Checked first, in seconds: under CI a stage without its tools fails, it is never skipped.
stage "a stage that cannot run fails under CI (Tests/ci/stage-truth-test.sh)" Tests/ci/stage-truth-test.sh
# docs/ARCHITECTURE.md places every source file, in the words of its doc comment.
stage "every source file placed in docs/ARCHITECTURE.md (scripts/architecture-files.py --check)" \
  python3 scripts/architecture-files.py --check

stage "the console links none of the kiosk's modules (Tests/ci/console-links-test.sh)" Tests/ci/console-links-test.sh

stage "unit tests" swift test --skip-build

scenarios() {
  python3 "$shared/bin/scenario" --bin .build/debug/gymtimer "$shared/scenarios"
  # Programs are built: their scenarios run from upcoming/ until they move into scenarios/.
  if [ -d "$shared/upcoming/programs" ]; then
    python3 "$shared/bin/scenario" --bin .build/debug/gymtimer "$shared/upcoming/programs"
  fi
  python3 "$shared/bin/scenario" --bin .build/debug/gymtimer Tests/scenarios
}
stage "acceptance scenarios (shared and Tests/scenarios)" scenarios

# The coach's console in headless Chromium (selenium from .build-venv, made by install-deps.sh):
# a real Mosquitto, the collector, two headless stations; its screenshot goes to .build (run it
# with --screenshot docs/console.png to refresh the README's picture).
# Then the console on a hostile Wi-Fi: an attacker on 127.0.0.2 against the coach on 127.0.0.1.
console() {
  .build-venv/bin/python Tests/console/console_test.py .build/debug/gymtimer --screenshot .build/console.png
  # Athletes: a new card named, the class list on the stations, the leaderboard by athlete (phone size).
  .build-venv/bin/python Tests/console/athletes_test.py .build/debug/gymtimer
  # A chain's console on the central broker: the gym picker and the chain's leaderboard (phone size).
  .build-venv/bin/python Tests/console/chain_test.py .build/debug/gymtimer
  python3 Tests/console/hostile_test.py .build/debug/gymtimer
}
stage "the coach's console in a real browser, and on a hostile Wi-Fi (Tests/console/)" console

terminal() {
  python3 Tests/terminal/terminal_test.py .build/debug/gymtimer
  # The README's captures of a rest and an interval run: the runs must still reach every screen shown.
  python3 scripts/capture-readme.py --check .build/debug/gymtimer
}
stage "the interactive simulator in a real terminal (tmux) and the README's captures" terminal

stage "the README's command blocks, run as a newcomer would (scripts/check-readme.py)" \
  python3 scripts/check-readme.py .build/debug/gymtimer

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
  .build/debug/gymtimer unit-network --config "$unitroot/fleet.toml" --write "$unitroot/fleet-network.conf" >/dev/null
  for variant in "no [fleet]" "with a [fleet]"; do
    [ "$variant" = "no [fleet]" ] || cp "$unitroot/fleet-network.conf" "$dropins/"
    report=$(systemd-analyze security --offline=true --root="$unitroot" --threshold=20 gymtimer.service) \
      || { echo "$report" | grep -v '^✓'; echo "gymtimer.service $variant: exposure above 2.0"; exit 1; }
    echo "ok   $variant: $(echo "$report" | tail -1)"
  done
  rm -rf "$unitroot"
}
stage "systemd unit hardening (exposure must stay at 2.0 or lower)" unit_hardening

# The gym's server's units (gymtimer-server package): the collector and the console, each
# printed and failing above 2.0, as the kiosk's.
server_unit_hardening() {
  . scripts/lib/cannot-run.sh
  require_tools systemd-analyze
  local unitroot report unit
  unitroot=$(mktemp -d); mkdir -p "$unitroot/etc/systemd/system"
  cp deploy/server/gymtimer-collect.service deploy/server/gymtimer-console.service "$unitroot/etc/systemd/system/"
  for unit in gymtimer-collect.service gymtimer-console.service; do
    report=$(systemd-analyze security --offline=true --root="$unitroot" --threshold=20 "$unit") \
      || { echo "$report" | grep -v '^✓'; echo "$unit: exposure above 2.0"; exit 1; }
    echo "$report" | grep -v '^✓'
    echo "ok   $unit: $(echo "$report" | tail -1)"
  done
  rm -rf "$unitroot"
}
stage "the server's units' hardening (collector and console, exposure at 2.0 or lower)" server_unit_hardening

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
stage "a real Home Assistant drives a station (scripts/ha-test.sh; cached in .build-ha)" scripts/ha-test.sh .build/debug/gymtimer

# A chain of gyms (docs/chain.md) on three hosts: network namespaces for two gyms and the centre,
# a Mosquitto on each (the gyms' bridged over TLS), PostgreSQL and two central collectors; a cut
# link, a collector killed with SIGKILL and PostgreSQL restarted lose and double nothing.
stage "a chain of gyms: three hosts (network namespaces), bridged brokers, PostgreSQL, two collectors (Tests/chain/)" \
  python3 Tests/chain/chain_test.py .build/debug/gymtimer

# The release binaries the VMs boot and the amd64 package ships (scripts/build-release-binaries.sh,
# built in the background above): Raspberry Pi OS bookworm's libgpiod 1.6 as deploy/install.sh
# builds on a Pi, and trixie's libgpiod 2 (2.2 from Debian trixie's source, static, cached in
# .build/libgpiod2), warnings as errors.
# The background job wrote .build-release/binaries once both were built: then the stage only
# checks them; else (the job failed) it builds them again and fails with its own reason.
release_listed() {
  local _ binary
  [ -s .build-release/binaries ] || return 1
  while read -r _ binary; do [ -x "$binary" ] || return 1; done < .build-release/binaries
}
release_binaries() {
  if release_listed; then
    echo "built in the background (its log: .build/prefetch/release.log):"
    cat .build-release/binaries
  else
    scripts/build-release-binaries.sh
  fi
}
await release
stage "the release binaries: libgpiod 1.6 (.build-release) and 2.2 (.build-gpiod2, warnings are errors)" release_binaries
export VM_RELEASE_BUILT=1

# Software emulation on 2 cores is slow and its start-up time varies with load: one retry
# tells a loaded machine apart from a real failure, and says so. A VM stage that cannot run
# (77) is not retried.
vm_tests() {
  local rc=0
  scripts/vm-test.sh "$1" || rc=$?
  [ $rc = 0 ] || [ $rc = "$CANNOT_RUN" ] && return $rc
  echo "vm tests ($1): failed once, retrying to rule out an overloaded emulator"
  scripts/vm-test.sh "$1"
}
# The amd64 packages, from the release binaries built for Debian 12 (libgpiod 1.6): built
# here, before the install VM, which installs both on its Debian 12 guest (VM_DEBS; Debian 13's
# are built by vm-test.sh from the libgpiod 2.2 kiosk) as a gym's
# server; the package stage below checks the same files with lintian and their lifecycle.
amd64_debs() {
  [ -x .build-release/release/gymtimer ] || { echo "no .build-release/release/gymtimer: scripts/build-release-binaries.sh builds it"; exit 1; }
  rm -f .build/deb/gymtimer_*_amd64.deb .build/deb/gymtimer-server_*_amd64.deb   # only this build's
  scripts/build-deb.sh amd64 .build-release/release/gymtimer .build/deb
}
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
stage "install VM: install.sh on Debian 12 and 13 under systemd (qemu), then the packages: the server, upgrades from a signed source" vm_tests install

# The Raspberry Pi's build: cross-compiled with Swift 6.2.3 for arm64 trixie, the unit tests of
# what can differ on arm64 and every scenario above run under qemu user emulation, and its Debian
# package checked by lintian and installed, upgraded and purged.
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
