#!/usr/bin/env bash
# Installs the Debian packages GymTimer builds against, if any are missing; safe to run again.
#
#   scripts/install-deps.sh            what the kiosk builds against (scripts/kiosk.sh uses it)
#   scripts/install-deps.sh --tests    also everything every stage of the test command needs,
#                                      before any stage runs (scripts/test.sh), so that no stage
#                                      installs anything itself and a stage that finds a tool
#                                      missing is a real failure, not a "skipped"
#   scripts/install-deps.sh --vm-arm64 also what scripts/vm-arm64-install-test.sh boots
#                                      Debian 13 arm64 with (alone or after --tests)
#
# What --tests adds, and for which stage:
#   unit tests        mosquitto (the real broker), openssl (its TLS certificate), faketime,
#                     postgresql (the chain's central store: a real server, LocalPostgres),
#                     libnfc-bin (the real libnfc's nfc-list, against the simulated PN532)
#                     (the clock-step tests)
#   libgpiod 2.2      gcc, make, xz-utils (built from Debian trixie's source, build-libgpiod2.sh)
#   Home Assistant    debootstrap (its sid chroot), curl, jq
#   arm64, packages   debootstrap, qemu-user-static, file, binutils, lintian, dpkg-dev
#                     (dpkg-shlibdeps), debhelper (its maintainer-script snippets)
#   signed package    debootstrap (a bookworm server root too), iproute2 (ip netns: the chroots'
#   source            own network), curl, all above; reprepro, gnupg, nginx and the station's
#                     curl are what docs/upgrades.md installs, so Tests/package/signed-repo.sh
#                     installs them into its chroots from Debian's archive (--prepare, in the
#                     background job), as the owner does on the server and the station
#   console           chromium, chromium-driver, python3-venv (selenium goes into .build-venv)
#   terminal          tmux
#   kernel/install VM qemu-system-x86, busybox-static, gpiod, i2c-tools, alsa-utils, cpio, kmod,
#                     e2fsprogs, iproute2, debian-archive-keyring, and the headers of the kernel
#                     Debian ships now (gpio-sim is compiled against them); reprepro and gnupg
#                     (the install VM's upgrade step: the host signs and serves the gym's source)
set -euo pipefail
needed=(libgpiod-dev libasound2-dev libsqlite3-dev libmosquitto-dev pkg-config python3 espeak-ng)
tests=false
for flag in "$@"; do
  case "$flag" in
    --tests) tests=true
      needed+=(mosquitto openssl faketime postgresql gcc make xz-utils debootstrap curl jq util-linux
               qemu-user-static file binutils lintian dpkg-dev debhelper chromium chromium-driver python3-venv tmux
               qemu-system-x86 busybox-static gpiod i2c-tools alsa-utils cpio kmod e2fsprogs
               iproute2 debian-archive-keyring libnfc-bin reprepro gnupg) ;;
    --vm-arm64) needed+=(qemu-system-arm debootstrap e2fsprogs kmod cpio debian-archive-keyring) ;;
    *) echo "usage: $0 [--tests] [--vm-arm64]" >&2; exit 2 ;;
  esac
done
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
updated=false
update_once() { $updated || { $sudo apt-get update -qq; updated=true; }; }
# The kernel VM compiles gpio-sim against the headers of the kernel Debian ships now: that
# version moves with security updates, so apt is asked which one it is.
if $tests; then
  kpkg=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-/{print $2; exit}') || true
  if [ -z "$kpkg" ]; then
    update_once
    kpkg=$(apt-cache depends linux-image-amd64 | awk '/Depends: linux-image-/{print $2; exit}')
  fi
  [ -n "$kpkg" ] || { echo "install-deps.sh: apt knows no linux-image-amd64 (is this Debian?)" >&2; exit 1; }
  needed+=("linux-headers-${kpkg#linux-image-}")
fi
missing=()
for pkg in "${needed[@]}"; do installed "$pkg" || missing+=("$pkg"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing: ${missing[*]}"
  update_once
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
