#!/usr/bin/env bash
# The arm64 package on an arm64 system: boots Debian 13 (trixie) arm64 with systemd under
# qemu-system-aarch64 (software emulation, -M virt -cpu max; no KVM, no Pi), with Debian's
# arm64 kernel and the simulated devices gpio-sim, i2c-stub (both cross-built for it) and
# snd-aloop, installs gymtimer_<version>_arm64.deb there with `apt install ./…deb` (its
# dependencies from Debian's archive) and checks, printing PASS or FAIL for each:
#   the service starts (systemctl is-active), a simulated button press lights the rest LED,
#   the watchdog holds (still active, NRestarts=0, after a whole rest > WatchdogSec),
#   the rest is recorded, and `apt remove gymtimer` keeps /etc/gymtimer/config.toml (with an
#   owner's edit) and the history in /var/lib/gymtimer.
#
#   scripts/vm-arm64-install-test.sh [PACKAGE.deb]
#
# Without an argument it tests .build-arm64/out/gymtimer_<version>_arm64.deb, running
# scripts/build-arm64.sh first when that is missing. Root, an x86-64 Debian host and network to
# deb.debian.org; installs qemu-system-arm and debootstrap if missing. Not part of
# scripts/test.sh: the first run takes about 40 minutes on a busy 2-core machine (kernel modules,
# root filesystem, debootstrap's second stage under emulation: 35 of them), later ones 4 to 6
# (everything is cached in .build-arm64/vm). The VM's console goes to .build-arm64/vm/console-install.log.
# Exits 0 iff every check passed.
set -uo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
WORK=${VM_WORK:-$repo/.build-arm64/vm}
LOG=$WORK/console-install.log
t0=$(date +%s)
fail() { echo "arm64 install test: FAIL ($*)"; exit 1; }
[ "$(id -u)" = 0 ] || fail "needs root: debootstrap, chroot and apt"
[ "$(uname -m)" = x86_64 ] || fail "made for an x86-64 Debian host, this is $(uname -m)"

need=()
for p in qemu-system-arm debootstrap e2fsprogs kmod cpio debian-archive-keyring; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  echo "== installing ${need[*]}"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}"; } \
    >/dev/null 2>&1 || fail "apt-get could not install ${need[*]}"
fi

version=$(sed -n 's/^ *\(public \)\{0,1\}static let current = "\(.*\)"$/\2/p' Sources/GymTimerCore/GymTimerVersion.swift)
deb=${1:-.build-arm64/out/gymtimer_${version}_arm64.deb}
if [ $# = 0 ] && [ ! -f "$deb" ]; then
  echo "== no $deb: scripts/build-arm64.sh"
  scripts/build-arm64.sh >/dev/null || fail "scripts/build-arm64.sh"
fi
[ -f "$deb" ] || fail "no package $deb"
deb=$(realpath "$deb")
[ "$(dpkg-deb -f "$deb" Architecture)" = arm64 ] || fail "$deb is for $(dpkg-deb -f "$deb" Architecture), not arm64"
echo "== package: $deb ($(dpkg-deb -f "$deb" Version))"

echo "== the VM: Debian 13 arm64 kernel, gpio-sim and i2c-stub, root filesystem (cached in ${WORK#$repo/})"
VM_WORK=$WORK Tests/vm/arm64/build.sh || fail "building the VM (above)"

# The test's files go on a second disk that the initramfs copies over a fresh copy of the root.
P=$WORK/payload
rm -rf "$P"; mkdir -p "$P/root/root/gymtimer/Tests/vm/systemd" "$P/root/root/gymtimer/Tests/vm/arm64" \
  "$P/root/etc/systemd/system/multi-user.target.wants" "$P/root/etc/systemd/network"
R=$P/root
cp "$deb" "$R/root/gymtimer/"
cp Tests/vm/guest_test.py Tests/vm/simulated-devices.sh "$R/root/gymtimer/Tests/vm/"
cp Tests/vm/systemd/devices.sh "$R/root/gymtimer/Tests/vm/systemd/"
cp Tests/vm/arm64/guest_deb_test.py "$R/root/gymtimer/Tests/vm/arm64/"
echo gymtimer-arm64 > "$R/etc/hostname"
echo "LABEL=root / ext4 rw,errors=remount-ro 0 1" > "$R/etc/fstab"
printf '[Match]\nName=en* eth*\n[Network]\nDHCP=yes\n' > "$R/etc/systemd/network/50-vm.network"
ln -s /usr/lib/systemd/system/systemd-networkd.service "$R/etc/systemd/system/multi-user.target.wants/"
# Nothing on the console but the test: no login prompts, no timers.
for u in serial-getty@ttyAMA0.service getty@tty1.service apt-daily.timer apt-daily-upgrade.timer \
         e2scrub_all.timer fstrim.timer dpkg-db-backup.timer; do
  ln -s /dev/null "$R/etc/systemd/system/$u"
done
install -m644 Tests/vm/systemd/vmtest-devices.service Tests/vm/arm64/vmtest-arm64.service "$R/etc/systemd/system/"
for u in vmtest-devices.service vmtest-arm64.service; do ln -s "../$u" "$R/etc/systemd/system/multi-user.target.wants/$u"; done
rm -f "$WORK/payload.ext4"
mkfs.ext4 -q -L payload -d "$P" "$WORK/payload.ext4" 256M >/dev/null || fail "making the payload disk"
rm -rf "$P"
cp --sparse=always "$WORK/rootfs.ext4" "$WORK/disk.ext4" || fail "copying the root filesystem"

echo "== booting Debian 13 arm64 with systemd (qemu-system-aarch64 -M virt -cpu max, TCG), installing the package"
t1=$(date +%s)
VM_WORK=$WORK VM_LOG=$LOG Tests/vm/arm64/run.sh "$WORK/disk.ext4" "$WORK/payload.ext4"; rc=$?
[ $rc = 124 ] && echo "arm64 install test: qemu timed out after ${VM_TIMEOUT:-1800} s"
# The test's own lines (its unit writes to the console through the journal), without prefixes.
sed 's/\x1b\][^\x07]*\x07//g; s/\x1b\[!p//g; s/\x1b[[?0-9;]*[a-zA-Z]//g; s/\r$//' "$LOG" | grep -a -E '\] (python3|devices\.sh|sh)\[[0-9]+\]: ' \
  | sed -E 's/^\[ *[0-9.]+\] [a-z0-9.]+\[[0-9]+\]: //'
rm -f "$WORK/disk.ext4"
echo "arm64 install test: VM ran $(( $(date +%s) - t1 )) s, $(( $(date +%s) - t0 )) s in all; console: $LOG"
if grep -aq "ARM64 INSTALLTEST: PASS" "$LOG" && ! grep -aq "ARM64TEST FAIL" "$LOG"; then
  echo "arm64 install test: PASS ($(grep -ac 'ARM64TEST PASS' "$LOG") checks)"
  exit 0
fi
grep -aq "ARM64TEST" "$LOG" || { echo "--- the console's last lines:"; sed 's/\x1b[[?0-9;]*[a-zA-Z]//g; s/\r$//' "$LOG" | tail -30; }
echo "arm64 install test: FAIL (console: $LOG)"
exit 1
