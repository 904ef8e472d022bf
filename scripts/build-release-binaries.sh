#!/usr/bin/env bash
# The x86-64 release binaries the test command's VMs boot and its amd64 package ships, built
# as a Pi's owner builds them:
#   * for Debian 12 / bookworm (libgpiod 1.6): gymtimer, gymtimer-console and gymtimer-central with
#     `deploy/install.sh --build-only`, in .build-release;
#   * for Debian 13 / trixie (libgpiod 2.2 from trixie's source): the kiosk with the same flags,
#     warnings as errors (scripts/build-gpiod2-kiosk.sh), in .build-gpiod2, with bookworm's
#     gymtimer-console and gymtimer-central copied beside it (neither links libgpiod: a second
#     release build of SwiftNIO, Hummingbird and PostgresNIO would make the same programs).
# Prints two lines, "bookworm PATH" and "trixie PATH" (each kiosk's binary), and writes them to
# .build-release/binaries once both are built (removed first: no file, no binaries). The test command
# runs it in the background while the debug build and the tests in front use .build (hence
# .build-release: SwiftPM locks a build folder for one command at a time); the VM stages run it
# again and find both built. Exits 1 when a build fails, 77 (cannot run) when libgpiod could not
# be downloaded.
set -euo pipefail
cd "$(dirname "$0")/.."
CANNOT_RUN_STAGE="release binaries"; . scripts/lib/cannot-run.sh
rm -f .build-release/binaries
bookworm=$(GYMTIMER_BUILD_DIR=.build-release deploy/install.sh --build-only | sed -n 's/^  built //p')
[ -x "$bookworm" ] || { echo "release binaries: FAIL (GYMTIMER_BUILD_DIR=.build-release deploy/install.sh --build-only)" >&2; exit 1; }
if ! trixie=$(scripts/build-gpiod2-kiosk.sh); then
  ls .build/libgpiod2/src/libgpiod_*.orig.tar.* >/dev/null 2>&1 || cannot_run "could not download libgpiod from Debian trixie"
  echo "release binaries: FAIL (the release build against libgpiod 2.2: scripts/build-gpiod2-kiosk.sh)" >&2; exit 1
fi
for program in gymtimer-console gymtimer-central; do
  install -m 0755 "$(dirname "$bookworm")/$program" "$(dirname "$trixie")/$program"
done
printf 'bookworm %s\ntrixie %s\n' "$bookworm" "$trixie" | tee .build-release/binaries
