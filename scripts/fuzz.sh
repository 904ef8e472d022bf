#!/usr/bin/env bash
# Fuzzes every input parser with libFuzzer: the simulation script parser (FuzzScript), the
# config parser (FuzzConfig), the WAV reader (FuzzWAV), the fleet's command parser
# (FuzzCommand, what arrives from the broker), a whole fleet station (FuzzStation: a kiosk's
# loop in virtual time over the in-memory broker, its countdown checked) and the collector's
# record decoding and checks (FuzzRecord, what a station or anyone else publishes on P/workout)
# and what `fleet status` prints of any retained status and state (FuzzConsole), each for SECONDS
# (default 60).
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]
#
# Builds into .build-fuzz (so the normal .build is not rebuilt with sanitizer flags), starts
# from the checked-in corpus Tests/FuzzTests/Corpus/<target>, keeps the grown corpus in
# .build-fuzz/corpus/<target>, and writes crash inputs to .build-fuzz/artifacts/<target>/.
# A crash input belongs in Tests/FuzzTests/Corpus/<target>/ once fixed: `swift test` replays
# every file there (FuzzReplayTests).
#
# FuzzConfig runs with -detect_leaks=0: TOMLKit never frees the C++ objects behind
# TOMLTable(string:), TOMLTable(), `keys` and `string` (a few hundred bytes per parse; the
# kiosk parses its config once), so LeakSanitizer would stop every run at the first input.
# Every other ASan check (overflows, use after free) stays on.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(FuzzScript FuzzConfig FuzzWAV FuzzCommand FuzzStation FuzzRecord FuzzConsole)

status=0
for target in "${targets[@]}"; do
    echo "== $target: building with -sanitize=fuzzer,address"
    swift build --scratch-path .build-fuzz -c debug --product "$target" \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -DFUZZING \
        2>&1 | grep -E "error|Compiling|Build" | grep -v "Cannot export local symbol" || true
    binary=".build-fuzz/debug/$target"
    [ -x "$binary" ] || { echo "$target: build failed" >&2; status=1; continue; }
    corpus=".build-fuzz/corpus/$target"
    artifacts=".build-fuzz/artifacts/$target/"
    mkdir -p "$corpus" "$artifacts"
    extra=()
    [ "$target" = FuzzConfig ] && extra=(-detect_leaks=0)
    echo "== $target: fuzzing for ${seconds}s ${extra[*]:-}"
    if "$binary" "${extra[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$artifacts" "$corpus" "Tests/FuzzTests/Corpus/$target" 2>".build-fuzz/$target.log"; then
        grep -E "^(Done|stat::number_of_executed_units|stat::peak_rss_mb)" ".build-fuzz/$target.log" || true
        echo "$target: no crash"
    else
        status=1
        grep -E "ERROR|SUMMARY|Fatal error|Test unit written" ".build-fuzz/$target.log" | head -20
        echo "$target: CRASH (input in $artifacts; full log .build-fuzz/$target.log)" >&2
    fi
done
exit $status
