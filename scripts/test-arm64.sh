#!/usr/bin/env bash
# The arm64 part of the test command (scripts/test.sh): cross-builds gymtimer and the unit
# tests for the Raspberry Pi (scripts/build-arm64.sh --tests), then runs, under qemu user
# emulation (qemu-aarch64-static with the trixie arm64 sysroot as its root for libraries):
#   * the unit tests of what can differ on arm64 (listed in `run_modules` and `run_suites`
#     below, with why the rest need not), but for the few that need what qemu-user has not
#     (listed in `skip_tests`, each with why);
#   * the shared and the project's acceptance scenarios, with the arm64 release binary.
# On a machine that cannot cross-build (not root, not x86-64 Debian, a tool missing) it prints
# "arm64 tests: cannot run: why" and exits 77, which fails the test command under CI
# (scripts/lib/cannot-run.sh); exits 1 on a failure.
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
CANNOT_RUN_STAGE="arm64 tests"; . scripts/lib/cannot-run.sh
[ "$(uname -m)" = x86_64 ] || cannot_run "needs an x86-64 host, this is $(uname -m)"
[ "$(id -u)" = 0 ] || cannot_run "needs root for debootstrap and chroot"
require_tools apt-get dpkg-deb dpkg-shlibdeps dh_installsystemd debootstrap unshare qemu-aarch64-static file objdump lintian python3

echo "== arm64: cross build (scripts/build-arm64.sh --tests; cached in .build-arm64)"
out=$(scripts/build-arm64.sh --tests | tail -1) || { echo "arm64 tests: FAIL (scripts/build-arm64.sh)"; exit 1; }
built=$(date +%s)
sysroot=$(realpath .build-arm64/sysroot)
# release (the build's own flags) or, if that build failed, debug: build-arm64.sh says which.
configuration=$(cat .build-arm64/trixie/tests-configuration 2>/dev/null) || { echo "arm64 tests: FAIL (scripts/build-arm64.sh --tests wrote no .build-arm64/trixie/tests-configuration)"; exit 1; }
[ "$configuration" = release ] || echo "arm64 tests: the tests were built in debug (the release test build failed: see above)"
bundle=.build-arm64/trixie/aarch64-unknown-linux-gnu/$configuration/GymTimerPackageTests.xctest
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
deb=$(ls "$out"/gymtimer_*_arm64.deb)
srvdeb=$(ls "$out"/gymtimer-server_*_arm64.deb)
for d in "$deb" "$srvdeb"; do
  lintian --fail-on error "$d" || { echo "arm64 package: lintian found errors in $(basename "$d")"; rc=1; }
  echo "lintian: $(basename "$d") checked"
done

echo "== arm64: the package's install, upgrade, remove and purge (Tests/package/lifecycle.sh)"
Tests/package/lifecycle.sh "$deb" "$srvdeb" || rc=1

# The unit tests of what can differ on arm64: the code that meets the kernel, C libraries or
# bytes on disk (the hardware layer's ioctls and libgpiod 2, the system layer's processes, the drivers' wire bytes and
# samples, SQLite, toml++, libmosquitto, the journal, the loop's poll and clocks, the trace's
# bytes). The pure logic above them (GymTimerCoreTests, the fleet's and the console's logic,
# the scripted runs and the fuzz corpora) has no architecture-specific code (checked below),
# and the scenarios after this run it end to end on the arm64 binary, trace byte for byte; the
# host's unit tests run it natively.
run_modules=(GymTimerHardwareTests GymTimerSystemTests GymTimerDriversTests GymTimerHistoryTests GymTimerKioskTests GymTimerConfigTests)
run_suites=(
  # GymTimerSimulationTests: the journal and store on disk, the loop's wait and clocks, the
  # trace's bytes, the terminal's input bytes, sd_notify's socket, the self-test's devices.
  JournalFormatTests KioskStoreTests SimulatedJournalTests PollSourceWaitTests EdgeQueueTests ClockTrustTests
  SleepClockRuntimeTests SystemdNotifierTests TerminalInputsTests TraceRecorderTests SelfTestTests
  SimulatedChipDisplayTests LateWakeupTests SlowWakeupTests
  # GymTimerFleetTests: the MQTT client over libmosquitto against this host's Mosquitto.
  MQTTClientTests
)
if grep -rlE '#if[^\n]*arch\(' Sources >/dev/null; then
  echo "arm64 unit tests: Sources/ has architecture-conditional code now: run its tests here too"
  grep -rnE '#if[^\n]*arch\(' Sources; rc=1
fi
# Of those, the tests that cannot run under qemu user emulation, and why (regular expressions
# for Swift Testing's --skip, matched against each test's full name):
skip_tests=(
  # They run the gymtimer binary as a child process. Under qemu-user the arm64 file cannot be
  # executed as a child without binfmt_misc (a change to the whole host), so they would run the
  # host's x86-64 build, or nothing: the scenarios below run the arm64 binary.
  StorageFaultTests StartupProbeTests
  # qemu-user emulates posix_spawn's vfork with a fork, so an exec that fails is exit 127,
  # not the spawn error the test expects from the kernel.
  aMissingProgramIsASpawnErrorNamingIt
  # qemu-user answers ioctls it does not translate (SPI mode, I2C_SLAVE on /dev/null) with
  # ENOSYS where the kernel says ENOTTY: the tests check the kernel's errno.
  nonDeviceFileFailsTheIoctlAsIO nonI2CFileFailsTheAddressSelectionAsIO
)
args=()
for t in "${run_modules[@]}" "${run_suites[@]}"; do args+=(--filter "$t"); done
for t in "${skip_tests[@]}"; do args+=(--skip "$t"); done
echo "== arm64: unit tests under qemu-aarch64-static: ${#run_modules[@]} modules and ${#run_suites[@]} suites (${#skip_tests[@]} skipped: see scripts/test-arm64.sh)"
log=.build-arm64/unit-tests.log
# The test bundle links the Swift runtime dynamically: its libraries are in the sysroot.
qemu-aarch64-static -L "$sysroot" -E LD_LIBRARY_PATH="$sysroot/usr/lib/swift/linux" \
  "$bundle" --testing-library swift-testing "${args[@]}" >"$log" 2>&1 </dev/null
one=$?
grep -E "✘|failed|recorded an issue" "$log" | head -40
tail -1 "$log"
# Every listed suite must have run: a renamed one would otherwise drop out unnoticed.
for t in "${run_suites[@]}"; do
  grep -q "Suite $t started" "$log" || { echo "arm64 unit tests: suite $t did not run (renamed? update run_suites)"; rc=1; }
done
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
