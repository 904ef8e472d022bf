#!/usr/bin/env bash
# Under CI a stage that cannot run fails the test command with its reason; outside CI it is
# skipped, saying why (issue 31: the Home Assistant stage once printed "skipped" for want of
# debootstrap and the run passed). The real stage scripts run under the real harness
# (scripts/lib/stages.sh) with debootstrap taken away: a PATH holding every command of this
# machine's but debootstrap. Each stage that needs it must stop in seconds, before any download,
# with its own reason; the run must fail under CI=true and pass, all skipped, with CI=false.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ "$(id -u)" = 0 ] || { echo "stage truth test: cannot run: needs root, as the stages it checks do"; exit 77; }
shadow=$(mktemp -d)
trap 'rm -rf "$shadow"' EXIT
IFS=: read -ra dirs <<<"$PATH"
for d in "${dirs[@]}" /usr/sbin /sbin; do
  for f in "$d"/*; do
    n=${f##*/}
    [ "$n" != debootstrap ] && [ -x "$f" ] && [ ! -e "$shadow/$n" ] && ln -s "$f" "$shadow/$n"
  done
done
command -v debootstrap >/dev/null || { echo "FAIL: this machine has no debootstrap to take away"; exit 1; }
PATH=$shadow command -v debootstrap >/dev/null && { echo "FAIL: debootstrap is still on the shadow PATH"; exit 1; }

failures=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; failures=$((failures + 1)); fi; }
# The stages that need debootstrap, as scripts/test.sh runs them (a dummy package for the
# lifecycle: it must stop before reading it).
run_stages() {
  CI=$1 PATH=$shadow bash -c '
    set -euo pipefail
    . scripts/lib/stages.sh
    stage "Home Assistant" scripts/ha-test.sh .build/release/gymtimer
    stage "arm64" scripts/test-arm64.sh
    stage "install VM" scripts/vm-test.sh install
    stage "package lifecycle" Tests/package/lifecycle.sh README.md
    stage_table' 2>&1
}
t0=$(date +%s)
set +e
ci_out=$(run_stages true); ci_rc=$?
dev_out=$(run_stages false); dev_rc=$?
set -e
# The tables, less their closing lines (this run's own table has the one that counts).
echo "$ci_out" | sed -n '/^== the stages/,$p' | grep -v '^stages: ' | sed 's/^/  CI=true:  /'
echo "$dev_out" | sed -n '/^== the stages/,$p' | grep -v '^stages: ' | sed 's/^/  CI=false: /'
reason="no debootstrap on this machine (scripts/install-deps.sh --tests installs it)"
check "under CI the run fails (exit $ci_rc)" '[ $ci_rc != 0 ]'
check "under CI all four stages failed, none passed" 'grep -qx "stages: 0 passed, 4 failed" <<<"$ci_out"'
for name in "Home Assistant" "arm64" "install VM" "package lifecycle"; do
  check "under CI, $name: FAILED with its reason" \
    'grep -qE "^$name +[0-9]+ +.* FAILED \(cannot run under CI: $(sed "s/[()]/\\\\&/g" <<<"$reason")\)$" <<<"$ci_out"'
  check "outside CI, $name: skipped with its reason" \
    'grep -qE "^$name +[0-9]+ +.* skipped \($(sed "s/[()]/\\\\&/g" <<<"$reason")\)$" <<<"$dev_out"'
done
check "outside CI the run passes, all skipped (exit $dev_rc)" '[ $dev_rc = 0 ] && grep -qx "stages: 0 passed, 0 failed, 4 skipped" <<<"$dev_out"'
seconds=$(( $(date +%s) - t0 ))
check "no stage started its work: both runs took $seconds s" '[ $seconds -lt 60 ]'
[ $failures = 0 ] || { echo "stage truth test: $failures failed"; echo "$ci_out" | tail -40; exit 1; }
