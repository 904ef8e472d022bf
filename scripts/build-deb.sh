#!/usr/bin/env bash
# Makes the Debian package gymtimer_<version>_<arch>.deb from a release binary, with dpkg-deb:
#   scripts/build-deb.sh ARCH BINARY OUTDIR [LIBDIR...]
# ARCH is amd64 or arm64; BINARY a release gymtimer built for it (scripts/build-arm64.sh makes
# the arm64 one, `swift build -c release --static-swift-stdlib` the host's), with the coach's
# console program gymtimer-console (built with it) beside it; the package's
# Depends come from the shared libraries both binaries need, found in the host's dpkg database for
# the host's architecture, or in the .debs under each LIBDIR (the cross build's sysroot
# packages) for another. The version is the one `gymtimer --version` prints
# (Sources/GymTimerCore/GymTimerVersion.swift).
#
# What the package holds and does (docs/ARCHITECTURE.md, "Packaging"):
#   /usr/bin/gymtimer and /usr/bin/gymtimer-console (what `gymtimer console` runs), /usr/lib/systemd/system/gymtimer.service (deploy/gymtimer.service with
#   /usr/bin paths) and gymtimer-config.{path,service} (the network rule rewritten from the
#   config's [fleet] when it changes; postinst writes it first), /usr/lib/udev/rules.d/60-gymtimer.rules, /etc/gymtimer/config.toml (a
#   conffile: dpkg keeps the owner's edits on upgrade and asks before replacing them);
#   postinst makes the `gymtimer` system user in the device groups, enables and starts the
#   service; remove stops it and keeps the config and /var/lib/gymtimer (the history);
#   purge deletes both.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 3 ] || { echo "usage: $0 amd64|arm64 BINARY OUTDIR [LIBDIR...]" >&2; exit 2; }
arch=$1 binary=$2 out=$3; shift 3
die() { echo "build-deb.sh: $*" >&2; exit 1; }
[ -x "$binary" ] || die "no binary $binary"
console=$(dirname "$binary")/gymtimer-console
[ -x "$console" ] || die "no $console beside $binary: build it with gymtimer (swift build --product gymtimer-console)"
version=$(sed -n 's/^ *\(public \)\{0,1\}static let current = "\(.*\)"$/\2/p' Sources/GymTimerCore/GymTimerVersion.swift)
[ -n "$version" ] || die "no version in Sources/GymTimerCore/GymTimerVersion.swift"
debversion=$version-1

# ---- Depends: one package per shared library the binary needs, at least the version it was
# linked against (glibc: the newest symbol version it uses).
needed=$(for b in "$binary" "$console"; do objdump -p "$b" | awk '$1 == "NEEDED" {print $2}'; done | sort -u)
glibc=$(for b in "$binary" "$console"; do objdump -T "$b"; done | grep -oE 'GLIBC_[0-9.]+' | sed 's/GLIBC_//' | sort -uV | tail -1)
deps=("libc6 (>= $glibc)")
for so in $needed; do
  case "$so" in libc.so.*|libm.so.*|libpthread.so.*|libdl.so.*|librt.so.*|ld-linux*) continue ;; esac
  pkg="" ver=""
  if [ "$arch" = "$(dpkg --print-architecture)" ] && [ $# = 0 ]; then
    # (awk reads to the end: an early exit would SIGPIPE ldconfig, which pipefail and set -e make fatal.)
    path=$(ldconfig -p | awk -v so="$so" '$1 == so && !found {print $NF; found = 1}')
    # dpkg knows the file by the name it shipped (/lib or /usr/lib, the link or its target).
    if [ -n "$path" ]; then
      target=$(dirname "$path")/$(basename "$(readlink -f "$path")")
      for f in "$path" "$target" "${path#/usr}" "${target#/usr}" "/usr$path" "/usr$target"; do
        pkg=$(dpkg -S "$f" 2>/dev/null | sed -n '1s/:.*//p') && [ -n "$pkg" ] && break
      done
    fi
    [ -n "$pkg" ] && ver=$(dpkg-query -W -f='${Version}' "$pkg")
  else
    so_re=$(printf '%s' "$so" | sed 's/[.+]/\\&/g')   # a library's own package, not a -dev one
    for dir in "$@"; do
      for deb in "$dir"/*.deb; do
        case $(dpkg-deb -f "$deb" Package) in *-dev) continue ;; esac
        if dpkg-deb -c "$deb" | grep -E "/lib/([a-z0-9_-]+/)?$so_re( |$)" >/dev/null; then
          pkg=$(dpkg-deb -f "$deb" Package); ver=$(dpkg-deb -f "$deb" Version); break 2
        fi
      done
    done
  fi
  [ -n "$pkg" ] || die "no package found that ships $so (needed by $binary or $console)"
  deps+=("$pkg (>= ${ver%%-*})")
done
depends=$(printf '%s\n' "${deps[@]}" | sort -u | paste -sd, - | sed 's/,/, /g')

# ---- the tree
root=$(mktemp -d); trap 'rm -rf "$root"' EXIT
pkgroot=$root/gymtimer
install -d "$pkgroot/DEBIAN" "$pkgroot/usr/bin" "$pkgroot/usr/lib/systemd/system" "$pkgroot/usr/lib/udev/rules.d" \
  "$pkgroot/etc/gymtimer" "$pkgroot/usr/share/doc/gymtimer"
install -m 0755 "$binary" "$pkgroot/usr/bin/gymtimer"
install -m 0755 "$console" "$pkgroot/usr/bin/gymtimer-console"
# Stripped as dh_strip does; a binary for another architecture must come stripped (the host's
# strip reads only its own), as scripts/build-arm64.sh makes it.
for b in gymtimer gymtimer-console; do
  if [[ $(file -b "$pkgroot/usr/bin/$b") == *"not stripped"* ]]; then
    [ "$arch" = "$(dpkg --print-architecture)" ] || die "$b is not stripped: strip it with a strip for $arch first"
    strip --strip-unneeded --remove-section=.comment --remove-section=.note "$pkgroot/usr/bin/$b"
  fi
done
# The units as install.sh installs them, with the package's paths: the kiosk, and the watch on
# its config that rewrites its network rule (gymtimer unit-network) and restarts it.
for u in gymtimer.service gymtimer-config.path gymtimer-config.service; do
  sed -e 's|/usr/local/bin/gymtimer|/usr/bin/gymtimer|g' -e 's|/usr/local/share/doc/|/usr/share/doc/|g' \
      -e 's|^# Installed to /etc/systemd/system by deploy/install.sh.*|# From the gymtimer package.|' \
      deploy/$u > "$pkgroot/usr/lib/systemd/system/$u"
  chmod 0644 "$pkgroot/usr/lib/systemd/system/$u"
  grep -q /usr/local "$pkgroot/usr/lib/systemd/system/$u" && die "deploy/$u names /usr/local paths the package does not have"
done
sed -i '1s|.*|# GymTimer kiosk, from the gymtimer package (override with systemctl edit gymtimer).|' \
    "$pkgroot/usr/lib/systemd/system/gymtimer.service"
# Raspberry Pi OS gives these groups their devices already; plain Debian does not.
cat > "$pkgroot/usr/lib/udev/rules.d/60-gymtimer.rules" <<'RULES'
SUBSYSTEM=="gpio", KERNEL=="gpiochip*", GROUP="gpio", MODE="0660"
SUBSYSTEM=="i2c-dev", GROUP="i2c", MODE="0660"
SUBSYSTEM=="spidev", GROUP="spi", MODE="0660"
RULES
install -m 0644 deploy/config.example.toml "$pkgroot/etc/gymtimer/config.toml"
install -m 0644 README.md "$pkgroot/usr/share/doc/gymtimer/README.md"
gzip -9n "$pkgroot/usr/share/doc/gymtimer/README.md"
cat > "$pkgroot/usr/share/doc/gymtimer/copyright" <<'EOF'
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: gymtimer
Comment: The binaries link in the Swift runtime and Foundation (Apache-2.0 with the Runtime
 Library Exception), swift-argument-parser (Apache-2.0), TOMLKit and its toml++ (MIT) and
 GRDB.swift (MIT); gymtimer-console also Hummingbird, SwiftNIO and swift-log (Apache-2.0).

Files: *
Copyright: 2026 GymTimer maintainers
License: Apache-2.0
 On Debian systems, the full text of the Apache License, Version 2.0 is in
 /usr/share/common-licenses/Apache-2.0.
EOF
cat > "$root/changelog" <<EOF
gymtimer ($debversion) unstable; urgency=medium

  * Release $version, built from the source tree's GymTimerVersion.swift.

 -- GymTimer maintainers <maintainers@gymtimer.invalid>  $(date -R -d @"${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}")
EOF
gzip -9n -c "$root/changelog" > "$pkgroot/usr/share/doc/gymtimer/changelog.Debian.gz"
chmod 0644 "$pkgroot/usr/share/doc/gymtimer/"*

echo /etc/gymtimer/config.toml > "$pkgroot/DEBIAN/conffiles"
cat > "$pkgroot/DEBIAN/control" <<EOF
Package: gymtimer
Version: $debversion
Architecture: $arch
Maintainer: GymTimer maintainers <maintainers@gymtimer.invalid>
Installed-Size: $(du -sk --exclude=DEBIAN "$pkgroot" | cut -f1)
Depends: $depends, passwd, init-system-helpers (>= 1.54~)
Recommends: libmosquitto1, libnfc6, alsa-utils, gpiod
Suggests: espeak-ng
Section: misc
Priority: optional
Homepage: https://gymtimer.invalid/
Description: wall-mounted gym rest and interval timer for the Raspberry Pi
 GymTimer drives a gym's wall timer: a seven-segment display, buttons and a
 rotary knob on the Pi's GPIO, a buzzer or speaker, with rest, interval, workout
 and program modes and a local history of every set. It runs as a hardened
 systemd service (gymtimer.service) as the unprivileged gymtimer user;
 /etc/gymtimer/config.toml describes the wiring. libmosquitto1 is needed only
 for a [fleet] section (MQTT). gymtimer-console serves the coach's web console.
EOF

# The maintainer scripts are what debhelper's dh_installsystemd writes, plus the user.
cat > "$pkgroot/DEBIAN/postinst" <<'EOF'
#!/bin/sh
# gymtimer postinst: the service user in its device groups, then the service enabled and
# (re)started. The config and /var/lib/gymtimer are never touched here.
set -e
if [ "$1" = configure ]; then
    for group in gpio i2c spi audio dialout; do
        getent group "$group" >/dev/null || groupadd --system "$group"
    done
    if ! getent passwd gymtimer >/dev/null; then
        useradd --system --user-group --no-create-home --home-dir /var/lib/gymtimer \
            --shell /usr/sbin/nologin --comment "GymTimer kiosk" gymtimer
    fi
    usermod -a -G gpio,i2c,spi,audio,dialout gymtimer
    if [ -d /run/udev ] && command -v udevadm >/dev/null; then
        udevadm control --reload-rules || true
        udevadm trigger --subsystem-match=gpio --subsystem-match=i2c-dev --subsystem-match=spidev || true
    fi
fi
if [ "$1" = configure ] || [ "$1" = abort-upgrade ] || [ "$1" = abort-deconfigure ] || [ "$1" = abort-remove ]; then
    deb-systemd-helper unmask gymtimer.service >/dev/null || true
    # was-enabled is true for a new install: the service is enabled then, and an owner's
    # `systemctl disable` is kept on upgrade.
    if deb-systemd-helper --quiet was-enabled gymtimer.service; then
        deb-systemd-helper enable gymtimer.service >/dev/null || true
    else
        deb-systemd-helper update-state gymtimer.service >/dev/null || true
    fi
    # The network rule from the config's [fleet] (none without one); a config whose broker does
    # not resolve leaves the kiosk alone, saying so, rather than failing the install.
    mkdir -p /etc/systemd/system/gymtimer.service.d
    gymtimer unit-network --config /etc/gymtimer/config.toml \
        --write /etc/systemd/system/gymtimer.service.d/fleet-network.conf || true
    deb-systemd-helper unmask gymtimer-config.path >/dev/null || true
    if deb-systemd-helper --quiet was-enabled gymtimer-config.path; then
        deb-systemd-helper enable gymtimer-config.path >/dev/null || true
    else
        deb-systemd-helper update-state gymtimer-config.path >/dev/null || true
    fi
    if [ -d /run/systemd/system ]; then
        systemctl --system daemon-reload >/dev/null || true
        deb-systemd-invoke restart gymtimer.service >/dev/null || true
        deb-systemd-invoke start gymtimer-config.path >/dev/null || true
    fi
fi
exit 0
EOF
cat > "$pkgroot/DEBIAN/prerm" <<'EOF'
#!/bin/sh
# gymtimer prerm: stop the service before its binary goes (remove, or an upgrade's unpack).
set -e
if [ -z "$DPKG_ROOT" ] && [ "$1" = remove ] && [ -d /run/systemd/system ]; then
    deb-systemd-invoke stop gymtimer-config.path gymtimer.service >/dev/null || true
fi
exit 0
EOF
cat > "$pkgroot/DEBIAN/postrm" <<'EOF'
#!/bin/sh
# gymtimer postrm: remove keeps /etc/gymtimer and /var/lib/gymtimer (the history); purge
# deletes them, and the service's cache. The gymtimer user stays, as Debian's system users do
# (files it owned elsewhere would otherwise fall to the next user made).
set -e
if [ -d /run/systemd/system ] && [ "$1" = remove ]; then
    systemctl --system daemon-reload >/dev/null || true
fi
if [ "$1" = remove ] || [ "$1" = purge ]; then
    # The network rule unit-network wrote: made from the config, not the owner's.
    rm -f /etc/systemd/system/gymtimer.service.d/fleet-network.conf
    rmdir /etc/systemd/system/gymtimer.service.d 2>/dev/null || true
fi
if [ "$1" = remove ] && command -v deb-systemd-helper >/dev/null; then
    deb-systemd-helper mask gymtimer.service gymtimer-config.path >/dev/null || true
fi
if [ "$1" = purge ]; then
    if command -v deb-systemd-helper >/dev/null; then
        deb-systemd-helper purge gymtimer.service gymtimer-config.path >/dev/null || true
        deb-systemd-helper unmask gymtimer.service gymtimer-config.path >/dev/null || true
    fi
    rm -rf /etc/gymtimer /var/lib/gymtimer /var/cache/gymtimer
fi
exit 0
EOF
chmod 0755 "$pkgroot/DEBIAN/postinst" "$pkgroot/DEBIAN/prerm" "$pkgroot/DEBIAN/postrm"

mkdir -p "$out"
deb=$out/gymtimer_${version}_$arch.deb
dpkg-deb --root-owner-group -Zxz --build "$pkgroot" "$deb" >/dev/null
echo "  built $(realpath "$deb")  (Depends: $depends)"
