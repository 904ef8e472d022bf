#!/usr/bin/env bash
# Builds the install test VM under $VM_WORK (default .build/vm), after Tests/vm/build.sh:
#   - a Debian root filesystem of RELEASE (bookworm = 12, trixie = 13) from debootstrap:
#     systemd, udev, networking and the test's own tools only, so install.sh has to install its
#     packages itself (cached: debian-RELEASE-*);
#   - this checkout as a clone would be, at /root/gymtimer, with BINARY (a release build for
#     that release) beside it as gymtimer, OTHER (one built for the other release) as
#     gymtimer-other and what install.sh must do with it (works | refused) in other.expect,
#     the fleet step's ports and station name in fleet.env when VM_FLEET is set,
#     the packages of VM_DEBS (gymtimer, gymtimer-server) in debs/ for the server step,
#     the port of the host's package source in upgrade.env and its key for the upgrade step,
#     the simulated devices' unit and the test unit;
#   - a disk image of it (disk-RELEASE.ext4) and an initramfs that mounts it and starts its
#     systemd. The kernel is Debian 12's for both (the one gpio-sim is built for).
# Usage: Tests/vm/systemd/build.sh RELEASE BINARY OTHER works|refused
#        Tests/vm/systemd/build.sh RELEASE --base-only   only the cached debootstrap root
#                                                        (scripts/test.sh runs it in the background)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
. "$ROOT/Tests/vm/lib.sh"
WORK=${VM_WORK:-$ROOT/.build/vm}
RELEASE=$1
mkdir -p "$WORK"
HERE=$ROOT/Tests/vm/systemd

# What the test needs besides install.sh's packages: systemd as init, udev for the device
# rules, networkd for apt, and python3, i2c-tools, alsa-utils to drive and read the devices.
TOOLS=systemd,systemd-sysv,udev,dbus,kmod,iproute2,ca-certificates,python3,i2c-tools,alsa-utils,procps,passwd
BASE=$WORK/debian-$RELEASE-$(echo "$TOOLS" | md5sum | cut -c1-8)
if [ ! -d "$BASE" ]; then
  echo "install vm build: debootstrap $RELEASE ($TOOLS)"
  rm -rf "$BASE.tmp"
  debootstrap --variant=minbase --include="$TOOLS" "$RELEASE" "$BASE.tmp" http://deb.debian.org/debian \
    > "$WORK/debootstrap-$RELEASE.log" 2>&1 || { tail -20 "$WORK/debootstrap-$RELEASE.log"; exit 1; }
  rm -rf "$BASE.tmp/var/cache/apt/archives/"*.deb
  mv "$BASE.tmp" "$BASE"
fi
[ "$2" = --base-only ] && { echo "install vm build: $BASE is ready"; exit 0; }
BINARY=$(realpath -e "$2"); OTHER=$(realpath -e "$3"); EXPECT=$4
KVER=$(cat "$WORK/kver"); KROOT=$WORK/kernel-$KVER

echo "install vm build: $RELEASE root filesystem with this checkout"
R=$WORK/install-root-$RELEASE
rm -rf "$R"; cp -a "$BASE" "$R"
copy_module_closure "$KROOT" "$KVER" "$R" configfs gpio-sim i2c-stub i2c-dev snd-aloop virtio_net autofs4
echo gymtimer-vm > "$R/etc/hostname"
# The test guest's dpkg, not the product: dpkg's fsync after every file is slow on the
# emulated disk, and what the test checks does not depend on it.
echo force-unsafe-io > "$R/etc/dpkg/dpkg.cfg.d/vmtest-unsafe-io"
echo "/dev/vda / ext4 rw,errors=remount-ro 0 1" > "$R/etc/fstab"
echo "nameserver 10.0.2.3" > "$R/etc/resolv.conf"   # qemu's user network
printf '[Match]\nName=en* eth*\n[Network]\nDHCP=yes\n' > "$R/etc/systemd/network/50-vm.network"
ln -sf /lib/systemd/system/systemd-networkd.service "$R/etc/systemd/system/multi-user.target.wants/"
# Nothing on the console but the test: no login prompts, no timers.
for u in serial-getty@ttyS0.service getty@tty1.service apt-daily.timer apt-daily-upgrade.timer \
         e2scrub_all.timer fstrim.timer systemd-networkd-wait-online.service; do
  ln -sf /dev/null "$R/etc/systemd/system/$u"
done
T=$R/root/gymtimer
mkdir -p "$T/Tests/vm" "$T/docs"
cp -a "$ROOT/deploy" "$ROOT/README.md" "$T/"; cp -a "$ROOT"/docs/*.md "$T/docs/"   # install.sh installs the guides too
cp -a "$ROOT/Tests/vm/guest_test.py" "$ROOT/Tests/vm/simulated-devices.sh" "$HERE" "$T/Tests/vm/"
install -m755 "$BINARY" "$T/gymtimer"
install -m755 "$OTHER" "$T/gymtimer-other"
# install.sh --binary installs the gymtimer-console it finds beside the binary.
[ ! -x "$(dirname "$BINARY")/gymtimer-console" ] || install -m755 "$(dirname "$BINARY")/gymtimer-console" "$T/gymtimer-console"
echo "$EXPECT" > "$T/other.expect"
# The fleet step (guest_install_test.py with fleet_host.py on this host): VM_FLEET is
# "BROKER_PORT HTTP_PORT STATION"; VM_FLEET_OLD_UNIT=1 runs it without the network drop-in.
[ -z "${VM_FLEET:-}" ] || echo "$VM_FLEET" > "$T/fleet.env"
[ "${VM_FLEET_OLD_UNIT:-}" != 1 ] || touch "$T/fleet-old-unit"
# The server step (guest_install_test.py, after the uninstall): VM_DEBS names the gymtimer and
# gymtimer-server packages for this release, copied to debs/ for apt to install.
if [ -n "${VM_DEBS:-}" ]; then
  mkdir -p "$T/debs"
  for deb in $VM_DEBS; do install -m644 "$(realpath -e "$deb")" "$T/debs/"; done
fi
# The upgrade step (guest_upgrade.py): VM_UPGRADE is the port of the host's package source
# (10.0.2.2 in the guest), whose key upgrade-repos.sh made.
if [ -n "${VM_UPGRADE:-}" ]; then
  echo "$VM_UPGRADE" > "$T/upgrade.env"
  install -m644 "$WORK/upgrade-repo-$RELEASE/gym.asc" "$T/upgrade-key.asc"
fi
for u in vmtest-devices.service vmtest.service; do
  install -m644 "$HERE/$u" "$R/etc/systemd/system/$u"
  ln -sf "../$u" "$R/etc/systemd/system/multi-user.target.wants/$u"
done

rm -f "$WORK/disk-$RELEASE.ext4"
mkfs.ext4 -q -L root -d "$R" "$WORK/disk-$RELEASE.ext4" 3G
rm -rf "$R"

SIG=$( (cat "$HERE/boot-init.sh"; echo "$KVER") | md5sum | cut -c1-12)
INITRD=$WORK/boot-initramfs-$SIG.cpio.gz
[ -f "$INITRD" ] || make_initramfs "$KROOT" "$KVER" "$INITRD" "$HERE/boot-init.sh" "" virtio_pci virtio_blk crc32c_generic ext4
ln -sf "$(basename "$INITRD")" "$WORK/boot-initramfs.cpio.gz"
echo "install vm build: ready (disk-$RELEASE.ext4, $(basename "$INITRD"))"
