#!/usr/bin/env bash
# Cross-builds gymtimer for the Raspberry Pi (arm64, Raspberry Pi OS / Debian 13 trixie,
# libgpiod 2) on an x86-64 Debian 12 machine, as root, from Debian's package archive only:
#
#   scripts/build-arm64.sh            the release binaries gymtimer, gymtimer-console and gymtimer-central
#                                     (Swift runtime linked in) and
#                                     gymtimer_<version>_arm64.deb, in .build-arm64/out/
#   scripts/build-arm64.sh --tests    also the unit tests for arm64 (only the targets they
#                                     link, with the release build's own flags, so that only
#                                     the tests are compiled on top of it), run under
#                                     qemu-aarch64-static (scripts/test-arm64.sh runs them)
#   scripts/build-arm64.sh --prepare  only the downloads: the compiler's chroot and the SDK
#                                     (the test command runs it in the background while the
#                                     host builds)
#
# How: the Swift compiler must be exactly the version of the arm64 Swift libraries, and only
# Debian sid carries Swift for both architectures (swiftlang, pinned below). So the build runs
# sid's amd64 compiler in a sid chroot (debootstrap), against an SDK bundle made of sid's arm64
# Swift libraries and a trixie arm64 sysroot unpacked from Debian's packages with dpkg-deb -x
# (no emulation to build; qemu only runs what was built).
# Everything is cached in .build-arm64/ (about 5 GB): a second run only recompiles. Every
# mount lives in a private mount namespace (unshare), so none outlives the script and
# `rm -rf .build-arm64` is always safe.
# Prints the output folder's path as its last line.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

# One Swift version for both architectures: the amd64 compiler and the arm64 libraries
# must match to the build (a 6.3 compiler refuses 6.2.3's modules).
SWIFT_DEB_VERSION=6.2.3-1+b1
SUITE=trixie
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
W=$repo/.build-arm64
CH=$W/chroot                                     # sid amd64 with swiftlang
SDKS=$CH/sdk                                     # Swift SDK bundles (seen as /sdk in the chroot)
SDK=$SUITE-arm64
SYSROOT_IN=/sdk/$SDK.artifactbundle/$SDK/aarch64-unknown-linux-gnu/sysroot
SYSROOT=$CH$SYSROOT_IN
OUT=$W/out
tests=0 prepare=0
case "${1:-}" in --tests) tests=1 ;; --prepare) prepare=1 ;; "") ;; *) echo "usage: $0 [--tests|--prepare]" >&2; exit 2 ;; esac

t0=$(date +%s)
stage() { echo "[arm64 $(( $(date +%s) - t0 ))s] $*" >&2; }
die() { echo "build-arm64.sh: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "needs root (debootstrap and chroot)"
[ "$(uname -m)" = x86_64 ] || die "made for an x86-64 Debian host, this is $(uname -m)"
version=$(sed -n 's/^ *\(public \)\{0,1\}static let current = "\(.*\)"$/\2/p' Sources/GymTimerCore/GymTimerVersion.swift)
[ -n "$version" ] || die "no version in Sources/GymTimerCore/GymTimerVersion.swift"
mkdir -p "$W" "$OUT"

# ---- host tools
need=()
for p in debootstrap qemu-user-static file binutils; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  stage "installing ${need[*]}"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}"; } >&2 \
    || die "apt-get could not install ${need[*]}"
fi

# ---- a private apt for arm64 packages (leaves the host's /etc/apt alone). The archive may
# look "expired" to a machine whose clock runs ahead: the signature still counts.
A=$W/apt
mkdir -p "$A/lists/partial" "$A/cache/archives/partial"; touch "$A/status"
cat > "$A/sources.list" <<EOF
deb [arch=arm64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $MIRROR sid main
deb [arch=arm64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $MIRROR $SUITE main
EOF
apt_arm64=(-o Dir::Etc::SourceList="$A/sources.list" -o Dir::Etc::SourceParts=/dev/null -o Dir::Cache="$A/cache"
  -o Dir::State::Lists="$A/lists" -o Dir::State::Status="$A/status" -o APT::Architectures::=arm64
  -o APT::Architecture=arm64 -o Acquire::Check-Valid-Until=false -o Acquire::Languages=none -o Debug::NoLocking=1)
refresh_lists() {
  # Lists are refreshed once a day: the pinned packages do not move, and offline reruns work.
  if [ -z "$(find "$A/lists" -name '*Packages*' -mtime -1 2>/dev/null | head -1)" ]; then
    apt-get "${apt_arm64[@]}" update -qq >&2 || die "apt-get update for arm64 failed (network?)"
  fi
}

# ---- 1. the arm64 Swift libraries (static runtime, Foundation, modules) from swiftlang:arm64
X=$W/swift-arm64
if [ ! -d "$X" ]; then
  refresh_lists
  stage "downloading swiftlang:arm64 $SWIFT_DEB_VERSION (about 530 MB)"
  mkdir -p "$W/debs"
  (cd "$W/debs" && apt-get "${apt_arm64[@]}" download -q "swiftlang:arm64=$SWIFT_DEB_VERSION" "libswiftlang:arm64=$SWIFT_DEB_VERSION" >&2) \
    || die "cannot download swiftlang:arm64=$SWIFT_DEB_VERSION (sid moved on? pin the version sid has now, for both architectures)"
  rm -rf "$X.tmp"; mkdir -p "$X.tmp"
  L=./usr/libexec/swift/lib
  dpkg-deb --fsys-tarfile "$W"/debs/swiftlang_*_arm64.deb | tar -x -C "$X.tmp" --wildcards \
    "$L/swift/linux/*" "$L/swift/shims/*" "$L/swift/CoreFoundation/*" "$L/swift/_FoundationCShims/*" \
    "$L/swift/dispatch/*" "$L/swift/_foundation_unicode/*" "$L/swift/os/*" "$L/swift/Block/*" \
    "$L/swift/apinotes/*" "$L/swift_static/*" "$L/clang/*"
  dpkg-deb -x "$W"/debs/libswiftlang_*_arm64.deb "$X.tmp"
  rm -f "$W"/debs/swiftlang_*_arm64.deb        # 450 MB that the extracted tree replaces
  mv "$X.tmp" "$X"
fi

# ---- 2. the compiler: sid amd64 chroot with swiftlang of the same version
# Runs a command in the chroot with /proc (the toolchain finds itself through /proc/self/exe),
# the repository on /src and the host's git mirror (if any), in a mount namespace of its own.
in_chroot() {
  local mirror=""
  [ -d /opt/swift-packages ] && mirror=/opt/swift-packages
  unshare --mount --propagation private -- env CH="$CH" REPO="$repo" MIRROR_DIR="$mirror" bash -c '
    set -e
    mount -t proc proc "$CH/proc"
    mkdir -p "$CH/src" "$CH/opt/swift-packages"
    mount --bind "$REPO" "$CH/src"
    if [ -n "$MIRROR_DIR" ]; then mount --bind "$MIRROR_DIR" "$CH/opt/swift-packages"; mount -o remount,bind,ro "$CH/opt/swift-packages"; fi
    exec chroot "$CH" "$@"' chroot-run "$@"
}
if [ ! -x "$CH/usr/libexec/swift/bin/swift" ]; then
  if [ ! -f "$CH/etc/debian_version" ] || [ ! -x "$CH/usr/bin/apt-get" ]; then
    stage "debootstrap sid amd64 (the compiler's system)"
    rm -rf "$CH"
    debootstrap --variant=minbase --include=ca-certificates sid "$CH.tmp" "$MIRROR" >"$W/debootstrap.log" 2>&1 \
      || { tail -5 "$W/debootstrap.log" >&2; rm -rf "$CH.tmp"; die "debootstrap sid failed: $W/debootstrap.log"; }
    mv "$CH.tmp" "$CH"
  fi
  stage "installing swiftlang $SWIFT_DEB_VERSION (amd64) in the chroot"
  cp /etc/resolv.conf "$CH/etc/resolv.conf"
  in_chroot sh -c "export DEBIAN_FRONTEND=noninteractive; apt-get -o Acquire::Check-Valid-Until=false update -qq &&
    apt-get install -y -q --no-install-recommends swiftlang=$SWIFT_DEB_VERSION libswiftlang=$SWIFT_DEB_VERSION libc6-dev git pkgconf" \
    >"$W/chroot-apt.log" 2>&1 || { tail -5 "$W/chroot-apt.log" >&2; die "installing swiftlang=$SWIFT_DEB_VERSION in the chroot failed: $W/chroot-apt.log"; }
  in_chroot apt-get clean
fi
# Git in the chroot takes github.com from the host's mirror when the host has one.
if [ -d /opt/swift-packages ]; then
  printf '[url "/opt/swift-packages/"]\n\tinsteadOf = https://github.com/\n[safe]\n\tdirectory = *\n' > "$CH/etc/gitconfig"
else
  printf '[safe]\n\tdirectory = *\n' > "$CH/etc/gitconfig"
fi

# ---- 3. the trixie arm64 sysroot and the Swift SDK bundle
# The marker names what the sysroot holds: a sysroot made before a package was added is made anew.
sysroot_contents="libnfc6 static-tests"
if [ "$(cat "$SYSROOT/.complete" 2>/dev/null)" != "$sysroot_contents" ]; then
  refresh_lists
  stage "sysroot: $SUITE arm64 from Debian's packages (dpkg-deb -x)"
  rm -rf "$SDKS/$SDK.artifactbundle"
  V=$SDKS/$SDK.artifactbundle/$SDK/aarch64-unknown-linux-gnu
  mkdir -p "$SYSROOT" "$A/cache-$SUITE/archives/partial"
  rm -rf "${SYSROOT:?}"; mkdir -p "$SYSROOT"
  # The C libraries the package links (Package.swift's system libraries) and the C/C++ runtime,
  # and libnfc6, which the card reader loads at run time (the unit tests read the simulated PN532
  # through it under qemu).
  apt-get "${apt_arm64[@]}" -o Dir::Cache="$A/cache-$SUITE" -o APT::Default-Release=$SUITE install --download-only -y -q \
    --no-install-recommends libc6-dev libstdc++-14-dev libgcc-14-dev libsqlite3-dev zlib1g-dev libgpiod-dev \
    libasound2-dev libmosquitto-dev libnfc6 >&2 || die "downloading the $SUITE arm64 packages failed"
  for d in "$A/cache-$SUITE"/archives/*.deb; do dpkg-deb -x "$d" "$SYSROOT"; done
  for d in lib lib64 bin sbin; do           # merged /usr
    if [ -d "$SYSROOT/$d" ] && [ ! -L "$SYSROOT/$d" ]; then mkdir -p "$SYSROOT/usr/$d"; cp -a "$SYSROOT/$d/." "$SYSROOT/usr/$d/"; rm -rf "${SYSROOT:?}/$d"; fi
    [ -e "$SYSROOT/$d" ] || ln -s "usr/$d" "$SYSROOT/$d"
  done
  # Absolute symlinks would point into the host: make them relative to the sysroot.
  find "$SYSROOT" -type l -lname '/*' | while read -r l; do
    ln -sfn "$(realpath -m --relative-to="$(dirname "$l")" "$SYSROOT$(readlink "$l")")" "$l"
  done
  L=$X/usr/libexec/swift/lib
  mkdir -p "$SYSROOT/usr/lib/swift" "$SYSROOT/usr/lib/swift_static" "$SYSROOT/usr/lib/clang"
  for d in linux shims CoreFoundation _FoundationCShims dispatch _foundation_unicode os Block apinotes; do cp -a "$L/swift/$d" "$SYSROOT/usr/lib/swift/"; done
  for d in linux shims CoreFoundation _FoundationCShims dispatch _foundation_unicode os Block; do cp -a "$L/swift_static/$d" "$SYSROOT/usr/lib/swift_static/"; done
  clangv=$(ls "$L/clang" | head -1)
  cp -a "$L/clang/$clangv" "$SYSROOT/usr/lib/clang/"
  ln -s "../clang/$clangv" "$SYSROOT/usr/lib/swift/clang"; ln -s "../clang/$clangv" "$SYSROOT/usr/lib/swift_static/clang"
  # Debian's package has the _Testing_Foundation cross-import overlay's module but not its
  # library: test bundles fail to link until it is removed.
  rm -rf "$SYSROOT/usr/lib/swift/linux/Testing.swiftcrossimport"
  # The tests are compiled with the release build's flags, --static-swift-stdlib included, so
  # that they reuse its modules: the compiler then looks for modules in swift_static, which has
  # no test frameworks (linked in: Testing, XCTest, _TestDiscovery), and the objects autolink
  # the static Foundation's parts by name (CoreFoundation, _FoundationCShims…), which the test
  # bundle, linked against the shared runtime, finds inside libFoundation*.so: empty archives of
  # those names satisfy the linker without a second copy of any code.
  for m in Testing XCTest _TestDiscovery; do ln -s "../../swift/linux/$m.swiftmodule" "$SYSROOT/usr/lib/swift_static/linux/$m.swiftmodule"; done
  for a in "$SYSROOT/usr/lib/swift_static/linux/"lib*.a; do
    n=$(basename "$a" .a)
    [ -e "$SYSROOT/usr/lib/swift/linux/$n.so" ] || [ -e "$SYSROOT/usr/lib/swift/linux/$n.a" ] || ar rcs "$SYSROOT/usr/lib/swift/linux/$n.a"
  done
  cat > "$V/swift-sdk.json" <<EOF
{ "schemaVersion": "4.0", "targetTriples": { "aarch64-unknown-linux-gnu": {
    "sdkRootPath": "sysroot", "swiftResourcesPath": "sysroot/usr/lib/swift",
    "swiftStaticResourcesPath": "sysroot/usr/lib/swift_static", "toolsetPaths": ["toolset.json"] } } }
EOF
  echo '{ "schemaVersion": "1.0", "swiftCompiler": { "extraCLIOptions": ["-use-ld=lld"] } }' > "$V/toolset.json"
  cat > "$SDKS/$SDK.artifactbundle/info.json" <<EOF
{ "schemaVersion": "1.0", "artifacts": { "$SDK": { "type": "swiftSDK", "version": "$SWIFT_DEB_VERSION",
    "variants": [ { "path": "$SDK/aarch64-unknown-linux-gnu" } ] } } }
EOF
  echo "$sysroot_contents" > "$SYSROOT/.complete"
fi

if [ $prepare = 1 ]; then stage "prepared: the chroot and the SDK"; echo "$W"; exit 0; fi

# ---- 4. build in the chroot. pkg-config must look in the sysroot only: otherwise SwiftPM
# adds the host's -L/usr/lib/x86_64-linux-gnu and the arm64 link fails.
xswift() {
  in_chroot env HOME=/root ${XSWIFT_ENV:-} PKG_CONFIG_SYSROOT_DIR=$SYSROOT_IN PKG_CONFIG_PATH=$SYSROOT_IN/usr/lib/aarch64-linux-gnu/pkgconfig:$SYSROOT_IN/usr/share/pkgconfig \
    sh -c 'cd /src && exec /usr/libexec/swift/bin/swift "$@" --swift-sdks-path /sdk --swift-sdk '$SDK' --scratch-path .build-arm64/'$SUITE swift "$@"
}
quiet() { grep -vE '^\[[0-9]+/[0-9]+\] |^Building for|^Compiling |^Write |^Fetching |^Fetched |^Computing |^Computed |^Creating |^Working copy' || true; }
# The release build's flags, the products' and the tests': -enable-testing (the tests' @testable
# imports; the host's one build is made the same way) costs the shipped binaries nothing once
# stripped, and it lets the test build below reuse every module instead of compiling the
# package a second time in debug. No debug information (-gnone, -g0), as the host's build: the
# binaries shipped are stripped of it, and making it costs some 7 % of the build's CPU.
release=(-c release --static-swift-stdlib -Xswiftc -enable-testing -Xswiftc -warnings-as-errors -Xswiftc -gnone -Xcc -g0)
stage "swift build ${release[*]} for $SDK"
# The programs the package ships: the kiosk's gymtimer, the coach's gymtimer-console (`gymtimer
# console` runs it) and a chain's gymtimer-central (`gymtimer collect --db postgresql://…` runs
# it); programs of their own, so that the kiosk links no HTTP server nor PostgreSQL client.
mkdir -p "$OUT"
for product in gymtimer gymtimer-console gymtimer-central; do
  xswift build "${release[@]}" --product $product 2>&1 | quiet >&2
  [ "${PIPESTATUS[0]}" = 0 ] || die "the arm64 release build of $product failed (see above)"
  bin=$W/$SUITE/aarch64-unknown-linux-gnu/release/$product
  [ -x "$bin" ] || die "the build left no $bin"
  # Stripped as Debian packages are (dh_strip's --strip-unneeded): 97 → 60 MB. The unstripped
  # binary, with symbols for backtraces, stays in .build-arm64/trixie/…/release. out/$product is
  # replaced only when it changed, so that an unchanged build is not packaged again.
  install -m 0755 "$bin" "$OUT/$product.new"
  in_chroot /usr/libexec/swift/bin/llvm-objcopy --strip-unneeded --remove-section=.comment /src/.build-arm64/out/$product.new
  if cmp -s "$OUT/$product.new" "$OUT/$product"; then rm -f "$OUT/$product.new"; else mv -f "$OUT/$product.new" "$OUT/$product"; fi
done
stage "checking: file, and gymtimer{,-console,-central} --version under qemu-aarch64-static"
for product in gymtimer gymtimer-console gymtimer-central; do
  file -b "$OUT/$product" | grep -q "ARM aarch64" || die "$OUT/$product is not an arm64 binary: $(file -b "$OUT/$product")"
  ran=$(qemu-aarch64-static -L "$SYSROOT" "$OUT/$product" --version) || die "$OUT/$product --version failed under qemu"
  [ "$ran" = "$version" ] || die "$OUT/$product --version says '$ran', the source says $version"
  echo "  $product: $(file -b "$OUT/$product" | cut -d, -f1-2); --version: $ran; needs glibc $(objdump -T "$OUT/$product" | grep -oE 'GLIBC_[0-9.]+' | sort -uV | tail -1)" >&2
done
objdump -p "$OUT/gymtimer" | grep 'NEEDED *libgpiod.so.3' >/dev/null || die "$OUT/gymtimer does not link trixie's libgpiod 2 (libgpiod.so.3): pkg-config did not find it in the sysroot"
ln -sfn "$SYSROOT" "$W/sysroot"     # for the wrapper and the tests: .build-arm64/sysroot

deb=$OUT/gymtimer_${version}_arm64.deb
if [ -f "$deb" ] && [ -f "$OUT/gymtimer-server_${version}_arm64.deb" ] && [ -z "$(find "$OUT/gymtimer" "$OUT/gymtimer-console" "$OUT/gymtimer-central" scripts/build-deb.sh scripts/manpages.py deploy README.md -newer "$deb" 2>/dev/null)" ]; then
  stage "package: $deb is up to date"
else
  stage "package: gymtimer_${version}_arm64.deb"
  # (its man pages from the binaries' own --help, run under qemu with this sysroot)
  GYMTIMER_SYSROOT=$SYSROOT scripts/build-deb.sh arm64 "$OUT/gymtimer" "$OUT" "$A/cache-$SUITE/archives" >&2
fi
# Paths compiled into the tests (#filePath: /src/Tests/…) resolve under qemu -L through this.
ln -sfn "$repo" "$SYSROOT/src"

if [ $tests = 1 ]; then
  # Only what the arm64 unit tests link (Package.swift, GYMTIMER_ARM64_UNIT_TESTS): not the
  # console's HTTP server, the central store nor the fuzz targets. With the release build's
  # flags, its modules are reused and only the tests compile. Should that build fail for a
  # reason of its own (the test bundle's link), the tests are built in debug as before, and
  # tests-configuration tells scripts/test-arm64.sh which bundle to run.
  rm -f "$W/$SUITE/tests-configuration"
  stage "swift build ${release[*]} --build-tests for $SDK (what scripts/test-arm64.sh runs)"
  # (In an if, so that set -e and pipefail leave the fallback its turn.)
  if XSWIFT_ENV=GYMTIMER_ARM64_UNIT_TESTS=1 xswift build "${release[@]}" --build-tests 2>&1 | quiet >&2; then
    echo release > "$W/$SUITE/tests-configuration"
  else
    stage "the release test build failed (above): building the tests in debug instead"
    XSWIFT_ENV=GYMTIMER_ARM64_UNIT_TESTS=1 xswift build --build-tests -Xswiftc -warnings-as-errors 2>&1 | quiet >&2 \
      || die "the arm64 test build failed (see above)"
    echo debug > "$W/$SUITE/tests-configuration"
  fi
fi
stage "done"
echo "$OUT"
