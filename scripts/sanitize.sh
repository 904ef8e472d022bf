#!/usr/bin/env bash
# Runs the whole test suite under AddressSanitizer, then ThreadSanitizer, each in its own
# build directory (.build-asan, .build-tsan) so the normal .build is not rebuilt.
#
#   scripts/sanitize.sh [address|thread]...
#
# LeakSanitizer is off under ASan (ASAN_OPTIONS=detect_leaks=0): TOMLKit leaks the C++
# objects behind every parsed config (see scripts/fuzz.sh), which would fail every config test.
set -uo pipefail
cd "$(dirname "$0")/.."
sanitizers=("$@")
[ ${#sanitizers[@]} -gt 0 ] || sanitizers=(address thread)
status=0
for sanitizer in "${sanitizers[@]}"; do
    echo "== swift test --sanitize=$sanitizer"
    scratch=".build-${sanitizer:0:1}san"
    mkdir -p "$scratch"
    log="$scratch/sanitize.log"
    ASAN_OPTIONS=detect_leaks=0 swift test --scratch-path "$scratch" --sanitize="$sanitizer" >"$log" 2>&1
    result=$?
    grep -E "Test run with|Executed [0-9]+ tests|ERROR: (Address|Thread)Sanitizer|WARNING: ThreadSanitizer|SUMMARY" "$log" | sort -u | head -20
    if [ $result -eq 0 ]; then echo "$sanitizer: passed"; else echo "$sanitizer: FAILED (exit $result, log $log)"; status=1; fi
done
exit $status
