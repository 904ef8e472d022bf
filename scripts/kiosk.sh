#!/usr/bin/env bash
# Runs the kiosk: on a Raspberry Pi with /etc/gymtimer/config.toml the real hardware,
# anywhere else the simulator in this terminal. Installs and builds what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build -c release --product gymtimer
bin=.build/release/gymtimer
if [ -f /etc/gymtimer/config.toml ] && ls /dev/gpiochip* >/dev/null 2>&1 && "$bin" run --help >/dev/null 2>&1; then
  exec "$bin" run --config /etc/gymtimer/config.toml "$@"
fi
exec "$bin" simulate "$@"
