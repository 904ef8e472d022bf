#!/usr/bin/env bash
# The arm64 part of the test command (scripts/test.sh): cross-builds gymtimer and the unit
# tests for the Raspberry Pi (scripts/build-arm64.sh --tests), then runs, under qemu user
# emulation (qemu-aarch64-static with the trixie arm64 sysroot as its root for libraries):
#   * the unit tests (Swift Testing), but for the few that need what qemu-user has not
#     (listed in `skip` below, each with why);
#   * the shared and the project's acceptance scenarios, with the arm64 release binary.
# Prints "arm64 tests: skipped (reason)" and exits 0 on a machine that cannot cross-build
# (not root, not x86-64 Debian); exits non-zero on a failure.
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
skip() { echo "arm64 tests: skipped ($*)"; exit 0; }
[ "$(uname -m)" = x86_64 ] || skip "needs an x86-64 host, this is $(uname -m)"
command -v apt-get >/dev/null || skip "needs apt (Debian)"
[ "$(id -u)" = 0 ] || skip "needs root for debootstrap and chroot"

echo "== arm64: cross build (scripts/build-arm64.sh --tests; cached in .build-arm64)"
out=$(scripts/build-arm64.sh --tests | tail -1) || { echo "arm64 tests: FAIL (scripts/build-arm64.sh)"; exit 1; }
built=$(date +%s)
sysroot=$(realpath .build-arm64/sysroot)
bundle=.build-arm64/trixie/aarch64-unknown-linux-gnu/debug/GymTimerPackageTests.xctest
[ -x "$bundle" ] || { echo "arm64 tests: FAIL (no $bundle)"; exit 1; }

# A wrapper that runs the arm64 binary as if it were native, for the scenario runner.
wrapper=.build-arm64/gymtimer-arm64
cat > "$wrapper" <<EOF
#!/bin/sh
exec qemu-aarch64-static -L "$sysroot" "$(realpath "$out/gymtimer")" "\$@"
EOF
chmod +x "$wrapper"
rc=0

echo "== arm64: the Debian package, checked by lintian (errors fail)"
command -v lintian >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends lintian >/dev/null 2>&1 \
  || { apt-get update -qq >/dev/null 2>&1; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends lintian >/dev/null 2>&1; }
deb=$(ls "$out"/gymtimer_*_arm64.deb)
if command -v lintian >/dev/null; then
  lintian --fail-on error "$deb" \
    || { echo "arm64 package: lintian found errors"; rc=1; }
  echo "lintian: $(basename "$deb") checked"
else
  echo "lintian: could not be installed (no network?), package not checked"
fi

echo "== arm64: the package's install, upgrade, remove and purge (Tests/package/lifecycle.sh)"
Tests/package/lifecycle.sh "$deb" || rc=1

# Tests that cannot run under qemu user emulation, and why (a regular expression for
# Swift Testing's --skip, matched against each test's full name):
skip_tests=(
  # They run the gymtimer binary as a child process (simulate --headless stations, the kill
  # and restart runs, the CLI's fault runs, the start-up probe). Under qemu-user the arm64 file
  # cannot be executed as a child without binfmt_misc (a change to the whole host), so they
  # would run the host's x86-64 build, or nothing: the scenarios below run the arm64 binary.
  # (Every HeadlessStationTests test but the terminal kiosk's, which runs in this process.)
  'HeadlessStationTests/(?!aTerminalKiosk)' HeadlessResumeTests BrokerSecurityTests KillRestartTests CLIFaultTests
  HostileScriptTests StorageFaultTests StartupProbeTests aStationOnARealBrokerIsTimedAndItsWakeUpsCounted
  aClickOnTheConsoleIsTimedToARealStationsDisplay theConsoleFigureNeedsGymtimerConsoleBesideTheBinary ConsoleLaunchTests
  CollectorRaceTests FleetNamesAndFilesTests ClockStepTests RecordClockMarkTests UnitNetworkCommandTests
  # qemu-user emulates posix_spawn's vfork with a fork, so an exec that fails is exit 127,
  # not the spawn error the test expects from the kernel.
  aMissingProgramIsASpawnErrorNamingIt
  # qemu-user answers ioctls it does not translate (SPI mode, I2C_SLAVE on /dev/null) with
  # ENOSYS where the kernel says ENOTTY: the tests check the kernel's errno.
  nonDeviceFileFailsTheIoctlAsIO nonI2CFileFailsTheAddressSelectionAsIO
  # Thousands of seeded random programs through the pure core: no architecture-specific code,
  # and more than 12 minutes of emulated debug build (the host's unit tests run it natively).
  ProgramPropertyTests
)
skip_args=()
for t in "${skip_tests[@]}"; do skip_args+=(--skip "$t"); done
echo "== arm64: unit tests under qemu-aarch64-static (${#skip_tests[@]} skipped: see scripts/test-arm64.sh)"
log=.build-arm64/unit-tests.log
# The test bundle links the Swift runtime dynamically: its libraries are in the sysroot.
qemu-aarch64-static -L "$sysroot" -E LD_LIBRARY_PATH="$sysroot/usr/lib/swift/linux" \
  "$bundle" --testing-library swift-testing "${skip_args[@]}" >"$log" 2>&1 </dev/null
one=$?
grep -E "✘|failed|recorded an issue" "$log" | head -40
tail -1 "$log"
[ $one = 0 ] || { echo "arm64 unit tests: FAILED (exit $one; $log)"; rc=1; }

echo "== arm64: acceptance scenarios with the arm64 release binary under qemu"
# Scenarios that cannot pass under qemu user emulation, and why:
skip_scenarios=(
  # The parser-crash guard (ConfigLoading.swift) parses the config in a child made by
  # executing /proc/self/exe. Under qemu-user that is qemu itself, and without binfmt_misc
  # (which would change the host for everyone) the arm64 file cannot be executed either: the
  # guard falls back to parsing in-process, as it does without /proc, and toml++ aborts. On
  # the Pi /proc/self/exe is gymtimer, as on x86-64 where this scenario runs.
  errors/config-parser-crash.scenario
)
shared=../shared
for dir in "$shared/scenarios" "$shared/upcoming/programs" Tests/scenarios; do
  [ -d "$dir" ] || continue
  files=()
  while IFS= read -r f; do
    for s in "${skip_scenarios[@]}"; do [[ "$f" == */"$s" ]] && { echo "skipped under qemu: $f"; continue 2; }; done
    files+=("$f")
  done < <(find "$dir" -name '*.scenario' | sort)
  [ ${#files[@]} -gt 0 ] || continue
  result=$(python3 "$shared/bin/scenario" --bin "$wrapper" "${files[@]}" 2>&1); status=$?
  grep -v '^ok ' <<<"$result"
  [ $status = 0 ] || { echo "arm64 scenarios in $dir: FAILED"; rc=1; }
done
end=$(date +%s)
echo "arm64 tests: $([ $rc = 0 ] && echo passed || echo FAILED) in $(( end - start )) s (build $(( built - start )) s, tests $(( end - built )) s)"
exit $rc
