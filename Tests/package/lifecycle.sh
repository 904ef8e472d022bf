#!/usr/bin/env bash
# The Debian package's life on a system, checked in a Debian 13 (trixie) amd64 chroot made by
# debootstrap (cached in .build-arm64/pkgtest):
#   Tests/package/lifecycle.sh gymtimer_<version>_<arch>.deb
#   Tests/package/lifecycle.sh --prepare    only the clean root (scripts/prefetch.sh)
# install (the gymtimer user in its groups, the config, the service enabled), the owner edits
# the config and has history; upgrade (install again): both kept; remove: the binary gone,
# config and history kept (both binaries, gymtimer and gymtimer-console, come and go together); install again: enabled again, both kept; purge: both gone.
# dpkg runs the package's maintainer scripts natively (they are sh): an arm64 package is
# unpacked with --force-architecture, and its arm64 libraries are not installed
# (--force-depends); the binary itself is never run here (tests under qemu do that). No systemd
# runs in a chroot, so the service is enabled, not started (the install test boots one).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)/.build-arm64/pkgtest
fail() { echo "package lifecycle: FAIL ($*)"; exit 1; }
CANNOT_RUN_STAGE="package lifecycle"; . scripts/lib/cannot-run.sh
[ "$(id -u)" = 0 ] || cannot_run "needs root for chroot"
require_tools debootstrap dpkg-deb
prepare=false
[ "${1:-}" = --prepare ] && prepare=true || deb=$(realpath -e "$1")
if [ ! -x "$root/usr/bin/dpkg" ] || [ ! -x "$root/usr/bin/systemd-sysusers" ]; then
  echo "== package lifecycle: debootstrap trixie amd64 minbase (cached in $root)"
  rm -rf "$root.tmp"
  debootstrap --variant=minbase --include=init-system-helpers,systemd-standalone-sysusers trixie "$root.tmp" http://deb.debian.org/debian \
    >/tmp/gymtimer-pkgtest-debootstrap.log 2>&1 || { tail -5 /tmp/gymtimer-pkgtest-debootstrap.log; fail "debootstrap trixie"; }
  rm -rf "$root"; mv "$root.tmp" "$root"   # a root made before an --include was added goes
fi
$prepare && { echo "package lifecycle: the clean root is ready ($root)"; exit 0; }
# A fresh copy of the clean root for every run: nothing of the last run remains.
sys=$root.run; rm -rf "$sys"; cp -a "$root" "$sys"; trap 'rm -rf "$sys"' EXIT
cp "$deb" "$sys/gymtimer.deb"
run_in() { chroot "$sys" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"; }
dpkg_i() { run_in dpkg --force-architecture --force-depends --force-confold -i /gymtimer.deb >"$sys/dpkg.log" 2>&1 || { cat "$sys/dpkg.log"; fail "dpkg -i"; }; }
enabled=/etc/systemd/system/multi-user.target.wants/gymtimer.service
conf=/etc/gymtimer/config.toml

dpkg_i
[ -x "$sys/usr/bin/gymtimer" ] || fail "no /usr/bin/gymtimer"
[ -x "$sys/usr/bin/gymtimer-console" ] || fail "no /usr/bin/gymtimer-console (what gymtimer console runs)"
[ -x "$sys/usr/bin/gymtimer-central" ] || fail "no /usr/bin/gymtimer-central (what gymtimer collect --db postgresql://… runs)"
[ -f "$sys/usr/lib/systemd/system/gymtimer.service" ] || fail "no unit"
grep -q '^ExecStart=/usr/bin/gymtimer run' "$sys/usr/lib/systemd/system/gymtimer.service" || fail "the unit does not start /usr/bin/gymtimer"
groups=$(run_in id -nG gymtimer) || fail "no gymtimer user"
for g in gpio i2c spi audio dialout; do [[ " $groups " == *" $g "* ]] || fail "gymtimer is not in $g ($groups)"; done
run_in getent passwd gymtimer | grep -q ':/var/lib/gymtimer:/usr/sbin/nologin$' || fail "gymtimer's home/shell: $(run_in getent passwd gymtimer)"
[ -L "$sys$enabled" ] || fail "the service is not enabled after install"
grep -qx "$conf" "$sys/var/lib/dpkg/info/gymtimer.conffiles" || fail "$conf is not a conffile"
echo "install: both binaries, unit, user in gpio i2c spi audio dialout, service enabled, $conf a conffile"

echo '# the owner was here' >> "$sys$conf"
mkdir -p "$sys/var/lib/gymtimer"; echo history > "$sys/var/lib/gymtimer/history.sqlite"
dpkg_i
grep -q 'the owner was here' "$sys$conf" || fail "upgrade replaced the owner's config"
[ -f "$sys/var/lib/gymtimer/history.sqlite" ] || fail "upgrade lost the history"
echo "upgrade: the owner's config and the history kept"

run_in dpkg -r gymtimer >/dev/null 2>&1 || fail "dpkg -r"
[ ! -e "$sys/usr/bin/gymtimer" ] || fail "remove left /usr/bin/gymtimer"
[ ! -e "$sys/usr/bin/gymtimer-console" ] || fail "remove left /usr/bin/gymtimer-console"
[ ! -e "$sys/usr/bin/gymtimer-central" ] || fail "remove left /usr/bin/gymtimer-central"
grep -q 'the owner was here' "$sys$conf" || fail "remove deleted the config"
[ -f "$sys/var/lib/gymtimer/history.sqlite" ] || fail "remove deleted the history"
[ ! -e "$sys/usr/lib/systemd/system/gymtimer.service" ] || fail "remove left the unit"
echo "remove: both binaries and the unit gone, config and history kept (the enable link stays until purge, as debhelper's do)"

dpkg_i
grep -q 'the owner was here' "$sys$conf" || fail "reinstall replaced the config"
[ -L "$sys$enabled" ] || fail "the service is not enabled after reinstall"
echo "install again: enabled, config kept"

run_in dpkg -P gymtimer >/dev/null 2>&1 || fail "dpkg -P"
[ ! -e "$sys/etc/gymtimer" ] || fail "purge left /etc/gymtimer"
[ ! -e "$sys/var/lib/gymtimer" ] || fail "purge left /var/lib/gymtimer"
[ ! -L "$sys$enabled" ] && [ ! -L "$sys/etc/systemd/system/gymtimer.service" ] || fail "purge left a unit link"
echo "purge: config and history gone"
echo "package lifecycle: passed ($(basename "$deb"))"
