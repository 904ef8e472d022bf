# The test command's stages (sourced by scripts/test.sh and Tests/ci/stage-truth-test.sh).
#
#   stage NAME COMMAND...   runs one stage: its output as it comes, then one line with its
#                           result and duration; remembers both for the table (and goes on
#                           whatever the result: stage_failed tells)
#   stage_table             prints the table of every stage (result, seconds, what it counted)
#                           and the closing line "stages: N passed, N failed"; returns non-zero
#                           when any stage failed
#
# A stage that cannot run on this machine (no root, a tool missing, no network) exits
# CANNOT_RUN (77) after printing "cannot run: WHY" (scripts/lib/cannot-run.sh). Outside CI that
# is "skipped" and the run goes on: a developer without root still runs the rest. Under CI
# (CI set and not "false") it is a failure with that reason, so that a machine missing a tool
# can never pass the test command by skipping what needed it.
CANNOT_RUN=77
STAGE_NAMES=() STAGE_RESULTS=() STAGE_SECONDS=() STAGE_COUNTS=() STAGE_CPU=()
STAGE_RUN_START=$(date +%s)
STAGE_LOGS=$(mktemp -d)

stage_under_ci() { [ -n "${CI:-}" ] && [ "${CI:-}" != false ]; }

# What a stage's output says it checked: the unit tests' count, the passed scenarios and
# checks, or the "ok"/"PASS" lines it printed.
stage_count() {
  local log=$1 n
  n=$(grep -aoE 'Test run with [0-9]+ tests?' "$log" | awk '{s += $4} END {if (s) print s}')
  [ -n "$n" ] && { echo "$n tests"; return; }
  n=$(grep -aoE '[0-9]+ checks passed' "$log" | awk '{s += $1} END {if (s) print s}')
  [ -n "$n" ] && { echo "$n checks"; return; }
  n=$(grep -aoE '(^|[^0-9])[0-9]+ passed, [0-9]+ failed' "$log" | grep -oE '[0-9]+ passed' | awk '{s += $1} END {if (s) print s}')
  [ -n "$n" ] && { echo "$n passed"; return; }
  n=$(grep -acE '^(ok |\[[^]]*\] PASS |PASS |[A-Z0-9]+TEST PASS)|: (passed|PASS)( |$)' "$log")
  [ "$n" -gt 0 ] && echo "$n checks" || echo "-"
}

# The CPU seconds (user and system) of this shell's finished and waited-for children, from
# bash's `times` (its second line): a stage's are the difference across it, what its builds
# and tests cost on every core together, not only the wall time.
# (`times` in this shell, not in a pipe or $(...): a forked shell's children start at zero.)
children_cpu() { times > "$STAGE_LOGS/times"; tail -1 "$STAGE_LOGS/times" | cpu_seconds; }
# "1m2.5s 0m0.5s" (a line of `times`: user, system) -> 63
cpu_seconds() { awk '{ s = 0; for (i = 1; i <= 2; i++) { split($i, p, "m"); s += p[1] * 60 + p[2] } printf "%d\n", s }'; }

stage() {
  local name=$1; shift
  local log t0 rc seconds result why cpu0
  log=$STAGE_LOGS/${#STAGE_NAMES[@]}.log
  echo
  echo "== $name"
  t0=$(date +%s); children_cpu > "$STAGE_LOGS/cpu0"; cpu0=$(cat "$STAGE_LOGS/cpu0")
  # The stage runs in a subshell with errexit of its own (a stage function stops at its first
  # failing command), while this shell goes on to record the result whatever it was.
  set +e
  ( set -e; "$@" ) 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  set -e
  seconds=$(( $(date +%s) - t0 ))
  if [ "$rc" = 0 ]; then
    result=passed
  elif [ "$rc" = "$CANNOT_RUN" ]; then
    why=$(grep -a 'cannot run: ' "$log" | tail -1 | sed 's/.*cannot run: //')
    if stage_under_ci; then result="FAILED (cannot run under CI: ${why:-no reason given})"; else result="skipped (${why:-no reason given})"; fi
  else
    result="FAILED (exit $rc)"
  fi
  STAGE_NAMES+=("$name") STAGE_RESULTS+=("$result") STAGE_SECONDS+=("$seconds") STAGE_COUNTS+=("$(stage_count "$log")")
  children_cpu > "$STAGE_LOGS/cpu1"
  STAGE_CPU+=("$(( $(cat "$STAGE_LOGS/cpu1") - cpu0 ))")
  echo "== $name: $result in $seconds s (${STAGE_CPU[-1]} CPU s)"
}

# Whether the last stage failed (a run stops after a failed build: nothing after it can pass).
stage_failed() { [[ "${STAGE_RESULTS[-1]}" == FAILED* ]]; }

stage_table() {
  local i passed=0 failed=0 skipped=0 total=$(( $(date +%s) - STAGE_RUN_START ))
  echo
  echo "== the stages"
  printf '%-44s %6s %6s  %-14s %s\n' stage seconds cpu-s counted result
  for i in "${!STAGE_NAMES[@]}"; do
    printf '%-44s %6s %6s  %-14s %s\n' "${STAGE_NAMES[$i]}" "${STAGE_SECONDS[$i]}" "${STAGE_CPU[$i]}" "${STAGE_COUNTS[$i]}" "${STAGE_RESULTS[$i]}"
    case "${STAGE_RESULTS[$i]}" in
      FAILED*) failed=$((failed + 1)) ;;
      skipped*) skipped=$((skipped + 1)) ;;
      *) passed=$((passed + 1)) ;;
    esac
  done
  children_cpu > "$STAGE_LOGS/cpu1"
  printf '%-44s %6s %6s\n' "all ($(( total / 60 )) min $(( total % 60 )) s)" "$total" "$(cat "$STAGE_LOGS/cpu1")"
  # The jobs that ran beside the stages: their seconds overlap the stages' and are not in "all";
  # their CPU seconds are in its cpu-s, which counts everything the run spent (awaited jobs too).
  [ ${#BACKGROUND_ROWS[@]} = 0 ] || printf '%s\n' "${BACKGROUND_ROWS[@]}"
  echo "stages: $passed passed, $failed failed$([ $skipped = 0 ] || echo ", $skipped skipped")"
  rm -rf "$STAGE_LOGS"
  [ "$failed" = 0 ]
}

# Builds, downloads and unpacking that later stages need (the release binaries, debootstrap
# roots, the cross compiler and the arm64 build, Home Assistant's venv, the VM's kernel) run in
# the background while the host builds and tests: downloads wait on the network and a build
# leaves one of two cores idle much of the time. The test command awaits a stage's job before the stage (in
# its own shell: a job is that shell's child); the job only fills the
# stage's cache, so a job that failed costs nothing but time: the stage does the work again and
# fails, if it must, with its own reason.
#
#   background NAME COMMAND...  starts COMMAND (a program: a session of its own, so that it
#                               stops whole), its output in .build/prefetch/NAME.log
#   await NAME                  waits for it and says how long it took and how long it was waited
#                               for (a row under the table, too)
declare -A BACKGROUND_PIDS=() BACKGROUND_START=()
BACKGROUND_ROWS=()
background() {
  local name=$1; shift
  mkdir -p .build/prefetch
  # At a low CPU and disk priority: the build and the tests in front come first, the jobs
  # take what they leave. setsid makes the job a session of its own, which Linux's scheduler
  # (with autogroup, as Debian's kernels have it) gives a group of its own, as much CPU as the
  # whole test command: a process's nice counts only inside its group, so the group's nice is
  # lowered too (/proc/self/autogroup; absent without autogroup, where nice alone does it).
  # The job's own end is noted, for await to say how long it took.
  rm -f ".build/prefetch/$name.end"
  setsid nice -n 10 ionice -c 2 -n 7 bash -c '{ echo 10 > /proc/self/autogroup; } 2>/dev/null
    "$@"; rc=$?; date +%s > "$0"; times >> "$0"; exit $rc' ".build/prefetch/$name.end" "$@" \
    > ".build/prefetch/$name.log" 2>&1 < /dev/null &
  BACKGROUND_PIDS[$name]=$!
  BACKGROUND_START[$name]=$(date +%s)
}
await() {
  local name=$1 rc=0 t0
  [ -n "${BACKGROUND_PIDS[$name]:-}" ] || return 0
  t0=$(date +%s)
  wait "${BACKGROUND_PIDS[$name]}" || rc=$?
  unset "BACKGROUND_PIDS[$name]"
  local end
  end=$(head -1 ".build/prefetch/$name.end" 2>/dev/null || date +%s)
  local cpu
  cpu=$(sed -n 3p ".build/prefetch/$name.end" 2>/dev/null | cpu_seconds)
  local result seconds waited
  result=$([ $rc = 0 ] && echo done || echo "failed (exit $rc; the stage does it again): .build/prefetch/$name.log")
  seconds=$(( end - BACKGROUND_START[$name] )) waited=$(( $(date +%s) - t0 ))
  BACKGROUND_ROWS+=("$(printf '%-44s %6s %6s  %-14s %s' "background: $name" "$seconds" "${cpu:--}" "waited $waited s" "$result")")
  echo "background $name: $result in $seconds s (${cpu:-?} CPU s), waited $waited s for it"
}
# Stops what still runs when the test command ends early.
background_stop() {
  local pid
  for pid in "${BACKGROUND_PIDS[@]}"; do kill -- "-$pid" 2>/dev/null || true; done
}
trap background_stop EXIT
