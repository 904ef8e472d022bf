#!/usr/bin/env bash
# The x86-64 release binaries the test command's VMs boot and its amd64 package ships, with the
# Swift runtime and Foundation linked in as deploy/install.sh links them on a Pi, made from the
# test command's one release build (.build, `swift build -c release --build-tests`) by
# relinking, not by compiling again (scripts/static-binaries.py says how):
#   * for Debian 12 / bookworm (libgpiod 1.6): gymtimer, gymtimer-console and gymtimer-central,
#     in .build-release/bookworm;
#   * for Debian 13 / trixie (libgpiod 2.2 from trixie's source, scripts/build-libgpiod2.sh,
#     static): the kiosk, its libgpiod shim compiled against 2.2 with warnings as errors, in
#     .build-release/trixie, with bookworm's gymtimer-console and gymtimer-central beside it
#     (neither links libgpiod).
# Builds the release build first when it is not there (a no-op in the test command, which has
# just built it). Prints two lines, "bookworm PATH" and "trixie PATH" (each kiosk's binary), and
# writes them to .build-release/binaries (removed first: no file, no binaries). Exits 1 when a
# build or link fails, 77 (cannot run) when libgpiod could not be downloaded.
set -euo pipefail
cd "$(dirname "$0")/.."
CANNOT_RUN_STAGE="release binaries"; . scripts/lib/cannot-run.sh
rm -f .build-release/binaries
mkdir -p .build-release
if [ ! -f .build/release.yaml ] || [ "${RELEASE_BUILT:-}" != 1 ]; then
  # The test command's flags (scripts/test.sh), so that its build is this one.
  swift build -c release --build-tests -Xswiftc -enable-testing -Xswiftc -warnings-as-errors -Xswiftc -gnone -Xcc -g0 >&2 \
    || { echo "release binaries: FAIL (swift build -c release --build-tests)" >&2; exit 1; }
fi
python3 scripts/static-binaries.py .build .build-release/bookworm >&2 \
  || { echo "release binaries: FAIL (scripts/static-binaries.py, bookworm)" >&2; exit 1; }
if ! prefix=$(scripts/build-libgpiod2.sh); then
  ls .build/libgpiod2/src/libgpiod_*.orig.tar.* >/dev/null 2>&1 || cannot_run "could not download libgpiod from Debian trixie"
  echo "release binaries: FAIL (scripts/build-libgpiod2.sh)" >&2; exit 1
fi
python3 scripts/static-binaries.py .build .build-release/trixie --gpiod2 "$prefix" >&2 \
  || { echo "release binaries: FAIL (scripts/static-binaries.py, trixie's libgpiod 2.2)" >&2; exit 1; }
for program in gymtimer-console gymtimer-central; do
  install -m 0755 ".build-release/bookworm/$program" ".build-release/trixie/$program"
done
# Each kiosk says which libgpiod it carries (its `running:` line names it too).
for release in bookworm trixie; do
  "./.build-release/$release/gymtimer" --version >/dev/null \
    || { echo "release binaries: FAIL (.build-release/$release/gymtimer --version)" >&2; exit 1; }
done
printf 'bookworm %s\ntrixie %s\n' "$(realpath .build-release/bookworm/gymtimer)" "$(realpath .build-release/trixie/gymtimer)" \
  | tee .build-release/binaries
