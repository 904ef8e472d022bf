#!/usr/bin/env bash
# The kiosk's release binary for Raspberry Pi OS trixie's libgpiod 2 on this x86-64 machine:
# built with the flags deploy/install.sh uses (release, static Swift runtime) against
# libgpiod 2.2 from Debian trixie's source (scripts/build-libgpiod2.sh, static: it needs no
# libgpiod.so), warnings as errors, in .build-gpiod2. Prints the binary's path. The test
# command's libgpiod 2.2 stage builds it; the kernel and install VMs then boot it (the same
# command again finds it built). Exits 1 when libgpiod or the build fails.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=$(scripts/build-libgpiod2.sh)
PKG_CONFIG_PATH=$prefix/lib/pkgconfig swift build -c release --static-swift-stdlib --scratch-path .build-gpiod2 \
  --product gymtimer -Xswiftc -warnings-as-errors >&2
[ -x .build-gpiod2/release/gymtimer ] || { echo "build-gpiod2-kiosk: no .build-gpiod2/release/gymtimer" >&2; exit 1; }
echo .build-gpiod2/release/gymtimer
