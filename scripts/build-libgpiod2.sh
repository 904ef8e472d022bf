#!/usr/bin/env bash
# Builds libgpiod 2.2 (the v2 API Raspberry Pi OS trixie / Debian 13 ships) from Debian trixie's
# own source package, on a Debian 12 machine, so the test command can build and test GymTimer
# against both libgpiod APIs. Prints the install prefix (PKG_CONFIG_PATH=PREFIX/lib/pkgconfig).
#
#   scripts/build-libgpiod2.sh          download (once), build (once), print the prefix
#
# Everything lives in .build/libgpiod2 (gitignored), cached: a second run only prints the prefix.
# The system is left as it was: the trixie deb-src line is in a private apt configuration
# (apt/sources/trixie-src.sources, with its own package lists), never in /etc/apt.
#
# Linking: static only (--enable-static --disable-shared). A gymtimer built against it carries
# libgpiod v2 inside, so it runs in the kernel VM (chrooted into this Debian 12 host, which has no
# libgpiod.so.3) without LD_LIBRARY_PATH, and on trixie without depending on its libgpiod3.
# The v2 tools (gpioinfo, gpiomon, gpioset, ...) are built too, in PREFIX/bin, for looking at
# a chip by hand the way a trixie owner would.
# Needs: apt, gcc, make, xz-utils, pkg-config (scripts/install-deps.sh and vm-test.sh install
# them); no root: it runs as whoever builds, like `install.sh --build-only`.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$ROOT/.build/libgpiod2
PREFIX=$WORK/prefix
FLAGS="--enable-static --disable-shared --enable-tools --disable-tests --disable-bindings-cxx --disable-bindings-python --disable-dbus"
# What a cached build must have been built with (a change rebuilds it).
STAMP="$FLAGS; -lgpiod-v2-static"
log() { echo "build-libgpiod2: $*" >&2; }

if [ -f "$PREFIX/.built" ] && [ "$(cat "$PREFIX/.built")" = "$STAMP" ]; then
  echo "$PREFIX"; exit 0
fi
mkdir -p "$WORK/apt/sources" "$WORK/apt/lists/partial" "$WORK/apt/cache/archives/partial" "$WORK/src"
cat > "$WORK/apt/sources/trixie-src.sources" <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
APT=(-o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$WORK/apt/sources"
     -o "Dir::State::Lists=$WORK/apt/lists" -o "Dir::Cache=$WORK/apt/cache")
# As root, apt would hand the download to its _apt user, who may not write into this checkout.
[ "$(id -u)" != 0 ] || APT+=(-o APT::Sandbox::User=root)

# Which 2.2.x trixie has, and the orig tarball's size and SHA-256 from its Sources index (whose
# signature apt checked against Debian's archive key).
if ! apt-cache "${APT[@]}" showsrc libgpiod 2>/dev/null | grep -q '^Version: 2\.'; then
  log "reading Debian trixie's source index"
  timeout 300 apt-get "${APT[@]}" update -qq >/dev/null 2>"$WORK/apt/update.log" \
    || { cat "$WORK/apt/update.log" >&2; log "apt-get update failed"; exit 1; }
fi
meta=$(apt-cache "${APT[@]}" showsrc libgpiod | awk '/^Package:/{n++} n==1')
version=$(awk '/^Version:/{print $2; exit}' <<<"$meta")
read -r sha size orig < <(awk '/^Checksums-Sha256:/{f=1; next} f && /^ /{ if ($3 ~ /\.orig\.tar\./) {print $1, $2, $3; exit} } f && !/^ /{f=0}' <<<"$meta")
[[ $version == 2.2.* ]] && [ -n "${orig:-}" ] || { log "trixie's libgpiod is '$version' ($orig), not 2.2.x"; exit 1; }

cd "$WORK/src"
if ! echo "$sha  $orig" | sha256sum -c --status 2>/dev/null; then
  log "downloading $orig (libgpiod $version, $size bytes)"
  rm -f "$orig"
  # The .dsc may answer 404 while the tarballs are there: judge by the tarball, not apt's status.
  apt-get "${APT[@]}" source --download-only -qq "libgpiod=$version" >apt-source.log 2>&1 || true
  [ -f "$orig" ] || { cat apt-source.log >&2; log "could not download $orig"; exit 1; }
  echo "$sha  $orig" | sha256sum -c --status || { log "$orig does not match trixie's SHA-256 $sha"; rm -f "$orig"; exit 1; }
fi
log "building libgpiod $version from $orig (SHA-256 matches trixie's index) into $PREFIX"
dir=libgpiod-${version%%-*}
rm -rf "$dir" "$PREFIX"; tar -xJf "$orig"
(cd "$dir" && ./configure --prefix="$PREFIX" $FLAGS >../configure.log 2>&1 && make -j"$(nproc)" >../make.log 2>&1 \
   && make install >>../make.log 2>&1) || { tail -20 configure.log make.log >&2; log "building libgpiod failed"; exit 1; }
# The archive under a name of its own: the link puts -L/usr/lib/x86_64-linux-gnu (where Debian
# 12's libgpiod v1 is) before this prefix, so -lgpiod would link v1; and SwiftPM drops a bare
# archive path from pkg-config's Libs. -lgpiod-v2-static can only be this one.
ln -sf libgpiod.a "$PREFIX/lib/libgpiod-v2-static.a"
sed -i 's|^Libs: .*|Libs: -L${libdir} -lgpiod-v2-static|' "$PREFIX/lib/pkgconfig/libgpiod.pc"
PKG_CONFIG_PATH=$PREFIX/lib/pkgconfig pkg-config --modversion libgpiod >/dev/null || { log "no libgpiod.pc in $PREFIX"; exit 1; }
rm -rf "$dir"
echo "$STAMP" > "$PREFIX/.built"
log "libgpiod $(PKG_CONFIG_PATH=$PREFIX/lib/pkgconfig pkg-config --modversion libgpiod) ready (static, with tools)"
echo "$PREFIX"
