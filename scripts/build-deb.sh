#!/usr/bin/env bash
# Makes the Debian packages gymtimer_<version>_<arch>.deb and gymtimer-server_<version>_<arch>.deb
# (the gym's server: the collector's and the console's units and the broker's configuration, at
# the end below) from a release binary, with Debian's tools (dpkg-shlibdeps, debhelper's
# maintainer-script snippets, sysusers.d, dpkg-deb):
#   scripts/build-deb.sh ARCH BINARY OUTDIR [LIBDIR...]
# ARCH is amd64 or arm64; BINARY a release gymtimer built for it (scripts/build-arm64.sh makes
# the arm64 one, `swift build -c release --static-swift-stdlib` the host's), with the coach's
# console program gymtimer-console and the chain's central store gymtimer-central (built with
# it) beside it; the package's Depends are what dpkg-shlibdeps finds the binaries need: from the host's dpkg database for the host's
# architecture, or from the .debs under each LIBDIR (the cross build's sysroot packages) for
# another. The version is the one `gymtimer --version` prints
# (Sources/GymTimerCore/GymTimerVersion.swift).
#
# What the package holds and does (docs/ARCHITECTURE.md, "Packaging", in short):
#   /usr/bin/gymtimer, /usr/bin/gymtimer-console (what `gymtimer console` runs) and
#   /usr/bin/gymtimer-central (what `gymtimer collect|history --db postgresql://…` run),
#   /usr/lib/systemd/system/gymtimer.service (deploy/gymtimer.service with
#   /usr/bin paths) and gymtimer-config.{path,service} (the network rule rewritten from the
#   config's [fleet] when it changes; postinst writes it first), /usr/lib/udev/rules.d/60-gymtimer.rules,
#   /usr/lib/sysusers.d/gymtimer.conf (the `gymtimer` system user in the device groups:
#   deploy/debian/gymtimer.sysusers), /etc/gymtimer/config.toml (a conffile: dpkg keeps the
#   owner's edits on upgrade and asks before replacing them), the README and its guides,
#   the man pages (gymtimer.1, gymtimer-console.1, gymtimer-central.1, made from the binaries
#   by scripts/manpages.py);
#   the maintainer scripts (deploy/debian/) make the user, enable and start the service;
#   remove stops it and keeps the config and /var/lib/gymtimer (the history); purge deletes both.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 3 ] || { echo "usage: $0 amd64|arm64 BINARY OUTDIR [LIBDIR...]" >&2; exit 2; }
arch=$1 binary=$2 out=$3; shift 3
die() { echo "build-deb.sh: $*" >&2; exit 1; }
[ -x "$binary" ] || die "no binary $binary"
console=$(dirname "$binary")/gymtimer-console
[ -x "$console" ] || die "no $console beside $binary: build it with gymtimer (swift build --product gymtimer-console)"
central=$(dirname "$binary")/gymtimer-central
[ -x "$central" ] || die "no $central beside $binary: build it with gymtimer (swift build --product gymtimer-central)"
version=$(sed -n 's/^ *\(public \)\{0,1\}static let current = "\(.*\)"$/\2/p' Sources/GymTimerCore/GymTimerVersion.swift)
[ -n "$version" ] || die "no version in Sources/GymTimerCore/GymTimerVersion.swift"
debversion=$version-1

# ---- the tree
root=$(mktemp -d); trap 'rm -rf "$root"' EXIT
# debhelper's layout (debian/control, debian/PACKAGE/DEBIAN), which dpkg-shlibdeps reads.
pkgroot=$root/debian/gymtimer
install -d "$pkgroot/DEBIAN" "$pkgroot/usr/bin" "$pkgroot/usr/lib/systemd/system" "$pkgroot/usr/lib/udev/rules.d" \
  "$pkgroot/usr/lib/sysusers.d" "$pkgroot/etc/gymtimer" "$pkgroot/usr/share/doc/gymtimer/docs"
install -m 0755 "$binary" "$pkgroot/usr/bin/gymtimer"
install -m 0755 "$console" "$pkgroot/usr/bin/gymtimer-console"
install -m 0755 "$central" "$pkgroot/usr/bin/gymtimer-central"
# Stripped as dh_strip does (kept by hand: dh_strip also splits debug symbols into a -dbgsym
# package, which we do not ship); a binary for another architecture must come stripped (the
# host's strip reads only its own), as scripts/build-arm64.sh makes it.
for b in gymtimer gymtimer-console gymtimer-central; do
  if [[ $(file -b "$pkgroot/usr/bin/$b") == *"not stripped"* ]]; then
    [ "$arch" = "$(dpkg --print-architecture)" ] || die "$b is not stripped: strip it with a strip for $arch first"
    strip --strip-unneeded --remove-section=.comment --remove-section=.note "$pkgroot/usr/bin/$b"
  fi
done
# The units as install.sh installs them, with the package's paths: the kiosk, and the watch on
# its config that rewrites its network rule (gymtimer unit-network) and restarts it.
for u in gymtimer.service gymtimer-config.path gymtimer-config.service \
         gymtimer-upgrade.service gymtimer-upgrade.timer gymtimer-upgrade.path; do
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
install -m 0644 deploy/debian/gymtimer.sysusers "$pkgroot/usr/lib/sysusers.d/gymtimer.conf"
# The README and its guides (docs/*.md, which the README and the program's messages name).
install -m 0644 README.md "$pkgroot/usr/share/doc/gymtimer/README.md"
install -m 0644 docs/*.md "$pkgroot/usr/share/doc/gymtimer/docs/"
gzip -9n "$pkgroot/usr/share/doc/gymtimer/README.md" "$pkgroot/usr/share/doc/gymtimer/docs/"*.md
cat > "$pkgroot/usr/share/doc/gymtimer/copyright" <<'EOF'
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: gymtimer
Comment: The binaries link in the Swift runtime and Foundation (Apache-2.0 with the Runtime
 Library Exception), swift-argument-parser (Apache-2.0), TOMLKit and its toml++ (MIT) and
 GRDB.swift (MIT); gymtimer-console also Hummingbird, SwiftNIO and swift-log (Apache-2.0);
 gymtimer-central loads Debian's libpq5 (PostgreSQL's client) when it first connects.

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
chmod 0644 "$pkgroot/usr/share/doc/gymtimer/"*.gz "$pkgroot/usr/share/doc/gymtimer/copyright" "$pkgroot/usr/share/doc/gymtimer/docs/"*

# ---- Depends: dpkg-shlibdeps, as dh_shlibdeps runs it, from the libraries' own symbols files:
# the host's dpkg database for the host's architecture, else a database of the packages under
# LIBDIR (the cross build's sysroot packages), unpacked beside it.
printf 'Source: gymtimer\n\nPackage: gymtimer\nArchitecture: any\n' > "$root/debian/control"
shlibdeps=()
if [ $# -gt 0 ]; then
  sys=$root/sysroot admin=$root/dpkg
  mkdir -p "$sys" "$admin/info" "$admin/updates"; : > "$admin/status"
  echo 1 > "$admin/info/format"; printf '%s\n' "$(dpkg --print-architecture)" "$arch" > "$admin/arch"
  for dir in "$@"; do
    for deb in "$dir"/*.deb; do
      pkg=$(dpkg-deb -f "$deb" Package); case $pkg in *-dev) continue ;; esac
      name=$pkg; [ "$(dpkg-deb -f "$deb" Multi-Arch)" = same ] && name=$pkg:$(dpkg-deb -f "$deb" Architecture)
      dpkg-deb -x "$deb" "$sys"; rm -rf "$root/control"; dpkg-deb -e "$deb" "$root/control"
      for f in shlibs symbols; do [ ! -f "$root/control/$f" ] || cp "$root/control/$f" "$admin/info/$name.$f"; done
      dpkg-deb -c "$deb" | awk -v s="$sys" '{ sub(/^\./, "", $6); print s $6 }' > "$admin/info/$name.list"
      { echo "Status: install ok installed"; dpkg-deb -f "$deb"; echo; } >> "$admin/status"
    done
  done
  multiarch=$(dpkg-architecture -a"$arch" -qDEB_HOST_MULTIARCH 2>/dev/null)
  shlibdeps=(--admindir="$admin" -l"$sys/usr/lib/$multiarch" -l"$sys/lib/$multiarch")
fi
depends=$(cd "$root" && dpkg-shlibdeps -O "${shlibdeps[@]}" -e debian/gymtimer/usr/bin/gymtimer \
  -e debian/gymtimer/usr/bin/gymtimer-console -e debian/gymtimer/usr/bin/gymtimer-central 2> "$root/shlibdeps.log") \
  || die "dpkg-shlibdeps found no package for a library: $(grep error "$root/shlibdeps.log")"
depends=${depends#shlibs:Depends=}

# ---- the man pages, made from the binaries themselves (--experimental-dump-help, turned into
# roff by scripts/manpages.py): gymtimer.1 with every subcommand, gymtimer-console.1,
# gymtimer-central.1. A binary for another architecture runs under qemu-user, with the sysroot
# of GYMTIMER_SYSROOT (scripts/build-arm64.sh gives its own) or else the libraries' packages.
helprun=()
if [ "$arch" != "$(dpkg --print-architecture)" ]; then
  qemu=qemu-$(dpkg-architecture -a"$arch" -qDEB_HOST_GNU_CPU 2>/dev/null)-static
  command -v "$qemu" >/dev/null || die "no $qemu to run the $arch binaries for their man pages: apt install qemu-user-static"
  helprun=("$qemu" -L "${GYMTIMER_SYSROOT:-${sys:-/}}")
fi
install -d "$pkgroot/usr/share/man/man1"
for b in gymtimer gymtimer-console gymtimer-central; do
  "${helprun[@]}" "$pkgroot/usr/bin/$b" --experimental-dump-help > "$root/$b.help.json" \
    || die "$b --experimental-dump-help failed: no man page for it"
done
python3 scripts/manpages.py "$pkgroot/usr/share/man/man1" "$version" \
  "$(date -u -d @"${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}" +%Y-%m-%d)" "$root/"*.help.json
if command -v groff >/dev/null; then   # a page groff warns about is one man shows wrong
  for page in "$pkgroot/usr/share/man/man1/"*.1; do
    warnings=$(groff -man -ww -z -Tutf8 "$page" 2>&1) && [ -z "$warnings" ] || die "groff on $(basename "$page"): $warnings"
  done
fi
gzip -9n "$pkgroot/usr/share/man/man1/"*.1
chmod 0644 "$pkgroot/usr/share/man/man1/"*.gz

echo /etc/gymtimer/config.toml > "$pkgroot/DEBIAN/conffiles"
cat > "$pkgroot/DEBIAN/control" <<EOF
Package: gymtimer
Version: $debversion
Architecture: $arch
Maintainer: GymTimer maintainers <maintainers@gymtimer.invalid>
Installed-Size: $(du -sk --exclude=DEBIAN "$pkgroot" | cut -f1)
Depends: $depends, systemd | systemd-standalone-sysusers | systemd-sysusers, init-system-helpers (>= 1.54~)
Recommends: libmosquitto1, libnfc6, libpq5, alsa-utils, gpiod
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
 for a [fleet] section (MQTT). gymtimer-console serves the coach's web console;
 gymtimer-central stores a chain of gyms' records in PostgreSQL.
EOF

# The maintainer scripts: deploy/debian/'s, with debhelper's own snippets where they say
# (#SYSUSERS#, #SYSTEMD#), filled in as dh_installsysusers and dh_installsystemd
# --no-stop-on-upgrade fill them (debhelper is not run itself: it builds from a source package,
# and ours are prebuilt binaries of two architectures).
# The upgrade agent's timer and path are enabled and restarted like the kiosk; its service is
# never named here: an upgrade runs inside it, and its own postinst must not restart it.
units="gymtimer.service gymtimer-config.path gymtimer-upgrade.timer gymtimer-upgrade.path"
snippet() {  # snippet NAME [KEY VALUE]...: debhelper's autoscript NAME with #KEY# replaced
  local text; text=$(cat "/usr/share/debhelper/autoscripts/$1") || die "no debhelper snippet $1: apt install debhelper"
  shift
  while [ $# -ge 2 ]; do text=${text//"#$1#"/$2}; shift 2; done
  printf '%s\n' "$text"
}
fill() {  # fill SCRIPT MARK TEXT: the template's line MARK replaced by TEXT
  local text=$3; awk -v mark="$2" -v text="$text" '$0 == mark { print text; next } { print }' "$1" > "$1.new" && mv "$1.new" "$1"
}
# maintainer_scripts ROOT TEMPLATES SYSUSERS UNITS: a package's postinst, prerm and postrm from the
# templates' folder, their marks filled with debhelper's snippets (its sysusers.d file, its units).
maintainer_scripts() {
  local root=$1 from=$2 sysusers=$3 units=$4 script u
  for script in postinst prerm postrm; do cp "$from/$script" "$root/DEBIAN/$script"; done
  fill "$root/DEBIAN/postinst" "#SYSUSERS#" "$(snippet postinst-sysusers CONFILE_BASENAME "$sysusers")"
  fill "$root/DEBIAN/postinst" "#SYSTEMD#" "$(for u in $units; do snippet postinst-systemd-enable UNITFILE "$u"; done
    snippet postinst-systemd-restart UNITFILES "$units" RESTART_ACTION restart)"
  fill "$root/DEBIAN/prerm" "#SYSTEMD#" "$(snippet prerm-systemd-restart UNITFILES "$units")"
  fill "$root/DEBIAN/postrm" "#SYSTEMD#" "$(snippet postrm-systemd-reload-only; snippet postrm-systemd UNITFILES "$units")"
  ! grep -q '#[A-Z_]*#' "$root/DEBIAN/"post* "$root/DEBIAN/prerm" || die "a debhelper mark left unfilled in $from's maintainer scripts"
  chmod 0755 "$root/DEBIAN/postinst" "$root/DEBIAN/prerm" "$root/DEBIAN/postrm"
}
maintainer_scripts "$pkgroot" deploy/debian gymtimer.conf "$units"

mkdir -p "$out"
# xz, as Debian's own packages; GYMTIMER_DEB_COMPRESSION=gzip for the test command's amd64
# packages, which only cross this machine: xz costs a minute a package on CI's two cores, and
# its unpacking minutes more inside the emulated install VM.
compression=${GYMTIMER_DEB_COMPRESSION:-xz}
case $compression in xz|gzip) ;; *) die "GYMTIMER_DEB_COMPRESSION must be xz or gzip, not '$compression'" ;; esac
deb=$out/gymtimer_${version}_$arch.deb
dpkg-deb --root-owner-group -Z"$compression" --build "$pkgroot" "$deb" >/dev/null
echo "  built $(realpath "$deb")  (Depends: $depends)"

# ---- gymtimer-server_<version>_<arch>.deb: the gym's server, beside the same version of gymtimer
# (whose binaries its units run): the collector's and the console's units (deploy/server/, off
# until /etc/gymtimer/collect.env or console.env exists), their users
# (/usr/lib/sysusers.d/gymtimer-server.conf), Mosquitto's configuration for the gym (conffiles:
# /etc/mosquitto/conf.d/gymtimer.conf, the ACL /etc/mosquitto/gymtimer.acl and the accounts'
# file /etc/mosquitto/gymtimer.passwd, empty), the example settings in its doc's examples/.
# Architecture-specific as gymtimer is, so that its exact Depends stays binNMU-safe.
srvroot=$root/debian/gymtimer-server
srvdoc=$srvroot/usr/share/doc/gymtimer-server
install -d "$srvroot/DEBIAN" "$srvroot/usr/lib/systemd/system" "$srvroot/usr/lib/sysusers.d" \
  "$srvroot/etc/mosquitto/conf.d" "$srvdoc/examples"
install -m 0644 deploy/server/gymtimer-collect.service deploy/server/gymtimer-console.service "$srvroot/usr/lib/systemd/system/"
install -m 0644 deploy/server/gymtimer-server.sysusers "$srvroot/usr/lib/sysusers.d/gymtimer-server.conf"
install -m 0644 deploy/server/mosquitto-gymtimer.conf "$srvroot/etc/mosquitto/conf.d/gymtimer.conf"
install -m 0644 deploy/server/gymtimer.acl "$srvroot/etc/mosquitto/gymtimer.acl"
install -m 0644 /dev/null "$srvroot/etc/mosquitto/gymtimer.passwd"   # 0640, group mosquitto: postinst
install -m 0644 deploy/server/collect.env deploy/server/console.env "$srvdoc/examples/"
install -m 0644 "$pkgroot/usr/share/doc/gymtimer/copyright" "$srvdoc/copyright"
sed '1s/^gymtimer /gymtimer-server /' "$root/changelog" | gzip -9n > "$srvdoc/changelog.Debian.gz"
chmod 0644 "$srvdoc/changelog.Debian.gz"
printf '%s\n' /etc/mosquitto/conf.d/gymtimer.conf /etc/mosquitto/gymtimer.acl /etc/mosquitto/gymtimer.passwd > "$srvroot/DEBIAN/conffiles"
cat > "$srvroot/DEBIAN/control" <<CONTROL
Package: gymtimer-server
Version: $debversion
Architecture: $arch
Maintainer: GymTimer maintainers <maintainers@gymtimer.invalid>
Installed-Size: $(du -sk --exclude=DEBIAN "$srvroot" | cut -f1)
Depends: gymtimer (= $debversion), systemd | systemd-standalone-sysusers | systemd-sysusers, init-system-helpers (>= 1.54~)
Recommends: mosquitto
Section: misc
Priority: optional
Homepage: https://gymtimer.invalid/
Description: GymTimer's gym server: the collector and the coach's console as services
 The gym's server side of GymTimer, installed like the stations: the collector
 (gymtimer-collect.service, every station's records in one history) and the
 coach's web console (gymtimer-console.service), each hardened, as its own
 unprivileged user, off until its settings in /etc/gymtimer are written, and
 Mosquitto's configuration for the gym's broker (accounts and ACL).
CONTROL
srvunits="gymtimer-collect.service gymtimer-console.service"
maintainer_scripts "$srvroot" deploy/server/debian gymtimer-server.conf "$srvunits"
srvdeb=$out/gymtimer-server_${version}_$arch.deb
dpkg-deb --root-owner-group -Z"$compression" --build "$srvroot" "$srvdeb" >/dev/null
echo "  built $(realpath "$srvdeb")  (Depends: gymtimer (= $debversion))"
