#!/usr/bin/env bash
# Installs the Debian packages GymTimer builds against, if any are missing.
# Used by scripts/kiosk.sh, and by scripts/test.sh with --tests (adds what only the tests use:
# tmux, the terminal the interactive simulator is tested in, mosquitto, the real MQTT broker the fleet
# tests start on loopback, openssl for their TLS certificate, faketime for the clock-step tests,
# the tools that build libgpiod 2.2, and chromium with its driver, the browser the coach's console
# is tested in (selenium goes into a venv cached in .build-venv, see below)); with --vm-arm64
# (optional, alone or after --tests) what scripts/vm-arm64-install-test.sh boots Debian 13 arm64
# with (qemu-system-aarch64, debootstrap; it installs them itself when missing); safe to run again.
set -euo pipefail
needed=(libgpiod-dev libasound2-dev libsqlite3-dev libmosquitto-dev pkg-config python3 espeak-ng)
# gcc, make and xz-utils build libgpiod 2.2 from source for the trixie build (build-libgpiod2.sh).
tests=false
for flag in "$@"; do
  case "$flag" in
    --tests) tests=true; needed+=(tmux mosquitto openssl gcc make xz-utils faketime chromium chromium-driver python3-venv) ;;
    --vm-arm64) needed+=(qemu-system-arm debootstrap e2fsprogs kmod cpio debian-archive-keyring) ;;
    *) echo "usage: $0 [--tests] [--vm-arm64]" >&2; exit 2 ;;
  esac
done
missing=()
for pkg in "${needed[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
fi
# The console's browser test (Tests/console/console_test.py) drives chromium with selenium, from
# PyPI into a venv kept under .build-venv (git ignores it), made once.
if $tests; then
  venv="$(cd "$(dirname "$0")/.." && pwd)/.build-venv"
  if ! "$venv/bin/python" -c 'import selenium' 2>/dev/null; then
    echo "Installing selenium into $venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q 'selenium>=4.20,<5'
  fi
fi
