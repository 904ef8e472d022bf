#!/usr/bin/env bash
# Runs the kiosk: on a Raspberry Pi with /etc/gymtimer/config.toml the real hardware,
# anywhere else the simulator in this terminal. Installs and builds what is missing.
#
# The simulator keeps its history and running state in a data directory it names: by default
# ${XDG_DATA_HOME:-~/.local/share}/gymtimer, or the one given with --data-dir DIR. The build
# is the debug one (.build/debug/gymtimer: quicker to build than a release), linked as
# `gymtimer` into ${GYMTIMER_BIN_DIR:-~/.local/bin} so the README's other commands run as
# written (with gymtimer-console beside it, which `gymtimer console` runs).
#
# Usage: scripts/kiosk.sh [--data-dir DIR] [other `gymtimer simulate` options, e.g. --config FILE]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# GYMTIMER_KIOSK_BINARY: a gymtimer built already (the test command's, which the terminal test
# passes), run as it is; otherwise this builds one.
if [ -n "${GYMTIMER_KIOSK_BINARY:-}" ]; then
  bin=$(realpath -e "$GYMTIMER_KIOSK_BINARY") || { echo "kiosk.sh: no $GYMTIMER_KIOSK_BINARY" >&2; exit 1; }
else
  # GYMTIMER_BUILD_FLAGS: other `swift build` flags (e.g. -c release).
  # shellcheck disable=SC2086
  swift build --product gymtimer ${GYMTIMER_BUILD_FLAGS:-}
  # shellcheck disable=SC2086
  swift build --product gymtimer-console ${GYMTIMER_BUILD_FLAGS:-}
  # shellcheck disable=SC2086
  bin=$(swift build --show-bin-path ${GYMTIMER_BUILD_FLAGS:-})/gymtimer
fi
if [ -f /etc/gymtimer/config.toml ] && ls /dev/gpiochip* >/dev/null 2>&1 && "$bin" run --help >/dev/null 2>&1; then
  exec "$bin" run --config /etc/gymtimer/config.toml "$@"
fi

# `gymtimer` on the PATH: a link to this build (never over a file that is not such a link).
bin_dir=${GYMTIMER_BIN_DIR:-$HOME/.local/bin}
link=$bin_dir/gymtimer
mkdir -p "$bin_dir"
if [ -L "$link" ] || [ ! -e "$link" ]; then
  ln -sfn "$bin" "$link"
else
  echo "kiosk.sh: $link exists and is not a link; leaving it (this build is $bin)" >&2
fi
case ":$PATH:" in
  *":$bin_dir:"*) on_path=yes ;;
  *) on_path=no ;;
esac

data_dir=""
for arg in "$@"; do
  case "$arg" in --data-dir|--data-dir=*) data_dir=given ;; esac
done
args=("$@")
if [ -z "$data_dir" ]; then
  data_dir=${XDG_DATA_HOME:-$HOME/.local/share}/gymtimer
  mkdir -p "$data_dir"
  args=(--data-dir "$data_dir" "${args[@]}")
fi

status=0
"$bin" simulate "${args[@]}" || status=$?
if [ "$data_dir" != given ]; then
  echo "Workouts are kept in $data_dir: gymtimer history --db $data_dir/history.sqlite"
fi
if [ "$on_path" = yes ]; then
  echo "gymtimer is $link (this build); the README's commands run as written."
else
  echo "gymtimer is $link, which is not on your PATH yet: export PATH=\"$bin_dir:\$PATH\""
fi
exit "$status"
