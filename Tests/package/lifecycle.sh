#!/usr/bin/env bash
# The Debian package's life on a system, checked in a Debian 13 (trixie) amd64 chroot made by
# debootstrap (cached in .build-arm64/pkgtest):
#   Tests/package/lifecycle.sh gymtimer_<version>_<arch>.deb [gymtimer-server_<version>_<arch>.deb]
#   Tests/package/lifecycle.sh --prepare    only the clean root (scripts/test.sh runs it in the background)
# install (the gymtimer user in its groups, the config, the service enabled), the owner edits
# the config and has history; upgrade (install again): both kept; remove: the binary gone,
# config and history kept (both binaries, gymtimer and gymtimer-console, come and go together); install again: enabled again, both kept; purge: both gone.
# dpkg runs the package's maintainer scripts natively (they are sh): an arm64 package is
# unpacked with --force-architecture, and its arm64 libraries are not installed
# (--force-depends); the binary itself is never run here (tests under qemu do that). No systemd
# runs in a chroot, so the service is enabled, not started (the install test boots one).
# Given the server's package too, the same for it after gymtimer's: its users, its units enabled
# but each conditioned on a settings file the package does not write (so nothing starts until
# the owner writes it), the broker's conffiles (the accounts' file Mosquitto's group's); remove
# keeps the owner's settings and the collector's history, purge deletes them.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)/.build-arm64/pkgtest
fail() { echo "package lifecycle: FAIL ($*)"; exit 1; }
CANNOT_RUN_STAGE="package lifecycle"; . scripts/lib/cannot-run.sh
[ "$(id -u)" = 0 ] || cannot_run "needs root for chroot"
require_tools debootstrap dpkg-deb
prepare=false
[ "${1:-}" = --prepare ] && prepare=true || deb=$(realpath -e "$1")
srvdeb=; $prepare || [ -z "${2:-}" ] || srvdeb=$(realpath -e "$2")
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

# The server's package, on gymtimer: install, the owner's settings and history, remove, purge.
server_lifecycle() {
  local unit wants=/etc/systemd/system/multi-user.target.wants env perms
  cp "$srvdeb" "$sys/gymtimer-server.deb"; dpkg_i
  run_in groupadd -r mosquitto   # as if Mosquitto came first: its group reads the accounts
  run_in dpkg --force-architecture --force-depends -i /gymtimer-server.deb >"$sys/dpkg.log" 2>&1 || { cat "$sys/dpkg.log"; fail "dpkg -i gymtimer-server"; }
  for unit in collect console; do
    env=/etc/gymtimer/$unit.env
    [ -f "$sys/usr/lib/systemd/system/gymtimer-$unit.service" ] || fail "no gymtimer-$unit.service"
    grep -qx "ConditionPathExists=$env" "$sys/usr/lib/systemd/system/gymtimer-$unit.service" || fail "gymtimer-$unit.service does not wait for $env"
    [ ! -e "$sys$env" ] || fail "the package wrote $env: gymtimer-$unit would start unconfigured"
    [ -L "$sys$wants/gymtimer-$unit.service" ] || fail "gymtimer-$unit.service is not enabled after install"
    run_in getent passwd "gymtimer-$unit" | grep -q ":/var/lib/gymtimer-$unit:/usr/sbin/nologin$" || fail "no gymtimer-$unit user: $(run_in getent passwd "gymtimer-$unit")"
    [ -f "$sys/usr/share/doc/gymtimer-server/examples/$unit.env" ] || fail "no example $unit.env"
  done
  for f in /etc/mosquitto/conf.d/gymtimer.conf /etc/mosquitto/gymtimer.acl /etc/mosquitto/gymtimer.passwd; do
    grep -qx "$f" "$sys/var/lib/dpkg/info/gymtimer-server.conffiles" || fail "$f is not a conffile"
  done
  perms=$(run_in stat -c %G:%a /etc/mosquitto/gymtimer.passwd)   # the chroot's group names
  [ "$perms" = mosquitto:640 ] || fail "the broker's accounts: $perms, not mosquitto:640"
  echo "server install: users, both units enabled and waiting for their settings, the broker's conffiles"
  cp "$sys/usr/share/doc/gymtimer-server/examples/collect.env" "$sys/etc/gymtimer/collect.env"
  mkdir -p "$sys/var/lib/gymtimer-collect"; echo history > "$sys/var/lib/gymtimer-collect/history.sqlite"
  run_in dpkg -r gymtimer-server >/dev/null 2>&1 || fail "dpkg -r gymtimer-server"
  [ ! -e "$sys/usr/lib/systemd/system/gymtimer-collect.service" ] || fail "remove left the collector's unit"
  [ -f "$sys/etc/gymtimer/collect.env" ] && [ -f "$sys/var/lib/gymtimer-collect/history.sqlite" ] || fail "remove deleted the settings or the history"
  echo "server remove: units gone, settings and the gym's history kept"
  run_in dpkg -P gymtimer-server >/dev/null 2>&1 || fail "dpkg -P gymtimer-server"
  [ ! -e "$sys/etc/gymtimer/collect.env" ] && [ ! -e "$sys/var/lib/gymtimer-collect" ] || fail "purge left the settings or the history"
  [ ! -e "$sys/etc/mosquitto/gymtimer.acl" ] && [ ! -e "$sys/etc/mosquitto/conf.d/gymtimer.conf" ] || fail "purge left the broker's files"
  [ ! -L "$sys$wants/gymtimer-collect.service" ] && [ ! -L "$sys$wants/gymtimer-console.service" ] || fail "purge left a unit link"
  echo "server purge: settings, history, the broker's files and the links gone"
}

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
# The upgrade agent: its timer and its watch on the kiosk's request enabled, the agent itself
# only ever started by them (enabling or restarting it from postinst would run it mid-upgrade).
[ -L "$sys/etc/systemd/system/timers.target.wants/gymtimer-upgrade.timer" ] || fail "gymtimer-upgrade.timer is not enabled"
[ -L "$sys/etc/systemd/system/multi-user.target.wants/gymtimer-upgrade.path" ] || fail "gymtimer-upgrade.path is not enabled"
! grep -q 'gymtimer-upgrade.service' "$sys/var/lib/dpkg/info/gymtimer.postinst" || fail "postinst names gymtimer-upgrade.service"
grep -q '^ExecStart=/usr/bin/gymtimer upgrade run ' "$sys/usr/lib/systemd/system/gymtimer-upgrade.service" || fail "the agent's unit does not run gymtimer upgrade run"
grep -qx "$conf" "$sys/var/lib/dpkg/info/gymtimer.conffiles" || fail "$conf is not a conffile"
echo "install: both binaries, unit, user in gpio i2c spi audio dialout, service, upgrade timer and path enabled, $conf a conffile"

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
[ -z "$srvdeb" ] || server_lifecycle
echo "package lifecycle: passed ($(basename "$deb")${srvdeb:+, $(basename "$srvdeb")})"
