#!/usr/bin/env bash
# Installs the Debian packages GymTimer builds against, if any are missing.
# Used by scripts/test.sh and scripts/kiosk.sh; safe to run again.
set -euo pipefail
# gcc, make and xz-utils build libgpiod 2.2 from source for the trixie build (build-libgpiod2.sh).
needed=(libgpiod-dev libasound2-dev libsqlite3-dev pkg-config python3 espeak-ng gcc make xz-utils)
missing=()
for pkg in "${needed[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "Installing: ${missing[*]}"
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
