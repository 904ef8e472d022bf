#!/usr/bin/env bash
# Builds what the arm64 install test VM boots, cached under $VM_WORK (default .build-arm64/vm),
# each step skipped when its output exists (keyed by the kernel ABI and the package list):
#   - Debian 13's arm64 kernel, unpacked from linux-image-<abi>-arm64 (never installed);
#   - gpio-sim and i2c-stub for it, out of tree: Debian's arm64 kernel has neither
#     (CONFIG_GPIO_SIM and CONFIG_I2C_STUB are unset), so they are cross-compiled from
#     linux-source at the same version against linux-headers-<abi>-arm64, in a trixie amd64
#     chroot with the compiler Debian built the kernel with (gcc-14-aarch64-linux-gnu), as
#     Tests/vm/build.sh builds the x86 one;
#   - a Debian 13 arm64 root filesystem: debootstrap --foreign on the host, its second stage
#     run inside the VM (qemu-system-aarch64) by boot-init.sh, apt's lists fetched there too:
#     rootfs-<packages>.ext4, copied for each test so the test always starts from it;
#   - a busybox (arm64) initramfs that mounts it (virtio, ext4 are modules in Debian's kernel).
# Needs root, debootstrap, qemu-system-arm, e2fsprogs, kmod; network to deb.debian.org.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
. "$ROOT/Tests/vm/lib.sh"
HERE=$ROOT/Tests/vm/arm64
WORK=${VM_WORK:-$ROOT/.build-arm64/vm}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
mkdir -p "$WORK/dl"; cd "$WORK"
say() { echo "arm64 vm build: $*"; }

# ---- a private apt for Debian 13 arm64 (leaves the host's /etc/apt alone); lists once a day.
A=$WORK/apt
mkdir -p "$A/lists/partial" "$A/cache/archives/partial"; touch "$A/status"
cat > "$A/sources.list" <<EOF
deb [arch=arm64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $MIRROR trixie main
deb [arch=arm64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $MIRROR trixie-updates main
deb [arch=arm64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] ${MIRROR%/debian}/debian-security trixie-security main
EOF
apt_arm64=(-o Dir::Etc::SourceList="$A/sources.list" -o Dir::Etc::SourceParts=/dev/null -o Dir::Cache="$A/cache"
  -o Dir::State::Lists="$A/lists" -o Dir::State::Status="$A/status" -o APT::Architectures::=arm64
  -o APT::Architecture=arm64 -o Acquire::Check-Valid-Until=false -o Acquire::Languages=none -o Debug::NoLocking=1
  -o APT::Sandbox::User=root)
if [ -z "$(find "$A/lists" -name '*Packages*' -mtime -1 2>/dev/null | head -1)" ]; then
  apt-get "${apt_arm64[@]}" update -qq || { say "apt-get update for trixie arm64 failed (network?)"; exit 1; }
fi
download() { (cd "$WORK/dl" && apt-get "${apt_arm64[@]}" download -qq "$@"); }

# ---- the kernel: the ABI (6.12.N+deb13) moves with security updates; ask apt which is current.
KPKG=$(apt-cache "${apt_arm64[@]}" depends linux-image-arm64 | awk '/Depends: linux-image-/{print $2; exit}')
KVER=${KPKG#linux-image-}
KDEBVER=$(apt-cache "${apt_arm64[@]}" policy "$KPKG" | awk '/Candidate:/{print $2}')
KSER=$(echo "$KVER" | grep -oE '^[0-9]+\.[0-9]+')
KABI=${KVER%-arm64}                     # 6.12.N+deb13: linux-kbuild-$KABI, linux-headers-$KABI-common
[ -n "$KVER" ] && [ -n "$KDEBVER" ] || { say "apt knows no linux-image-arm64 for trixie"; exit 1; }
echo "$KVER" > kver
KROOT=$WORK/kernel-$KVER
if [ ! -f "$KROOT/boot/vmlinuz-$KVER" ]; then
  say "kernel $KPKG $KDEBVER"
  download "$KPKG=$KDEBVER"
  rm -rf "$KROOT.tmp"; dpkg -x "dl/${KPKG}_${KDEBVER}_arm64.deb" "$KROOT.tmp"
  ln -s usr/lib "$KROOT.tmp/lib"          # merged /usr: the modules are in usr/lib/modules
  mv "$KROOT.tmp" "$KROOT"; rm -f "dl/${KPKG}_${KDEBVER}_arm64.deb"
fi

# ---- gpio-sim and i2c-stub, cross-compiled in a trixie amd64 chroot (the compiler and
# kbuild of the kernel's own build; the host is Debian 12).
KB=$WORK/kbuild-trixie
in_kb() {
  unshare --mount --propagation private -- env KB="$KB" WORK="$WORK" bash -c '
    set -e; mount -t proc proc "$KB/proc"; mkdir -p "$KB/work"; mount --bind "$WORK" "$KB/work"
    exec chroot "$KB" "$@"' in-kb "$@"
}
MODS=$WORK/modules-$KVER
if [ ! -f "$MODS/gpio-sim.ko" ] || [ ! -f "$MODS/i2c-stub.ko" ]; then
  if [ ! -x "$KB/usr/bin/aarch64-linux-gnu-gcc-14" ] || [ ! -d "$KB/usr/src/linux-headers-$KVER" ]; then
    if [ ! -x "$KB/usr/bin/apt-get" ]; then
      say "debootstrap trixie amd64 (the module build's system)"
      rm -rf "$KB.tmp"
      debootstrap --variant=minbase trixie "$KB.tmp" "$MIRROR" > kbuild-debootstrap.log 2>&1 \
        || { tail -5 kbuild-debootstrap.log; exit 1; }
      mv "$KB.tmp" "$KB"
    fi
    say "linux-headers-$KVER:arm64 and gcc-14-aarch64-linux-gnu in it"
    cp /etc/resolv.conf "$KB/etc/resolv.conf"
    cat > "$KB/etc/apt/sources.list" <<EOF
deb $MIRROR trixie main
deb $MIRROR trixie-updates main
deb ${MIRROR%/debian}/debian-security trixie-security main
EOF
    # The arm64 headers package depends on the native gcc-14:arm64, not the cross compiler:
    # it is unpacked beside kbuild's amd64 tools and the cross compiler rather than installed.
    in_kb sh -c "export DEBIAN_FRONTEND=noninteractive; dpkg --add-architecture arm64 &&
      apt-get -o Acquire::Check-Valid-Until=false update -qq &&
      apt-get install -y -q --no-install-recommends linux-kbuild-$KABI linux-headers-$KABI-common \
        gcc-14-aarch64-linux-gnu make xz-utils &&
      cd /tmp && apt-get download -q linux-headers-$KVER:arm64 && dpkg-deb -x linux-headers-${KVER}_*_arm64.deb / &&
      rm -f linux-headers-*.deb && apt-get clean" \
      > kbuild-apt.log 2>&1 || { tail -5 kbuild-apt.log; say "installing the arm64 headers failed: $WORK/kbuild-apt.log"; exit 1; }
  fi
  say "gpio-sim and i2c-stub from linux-source-$KSER $KDEBVER"
  [ -f "dl/linux-source-${KSER}_${KDEBVER}_all.deb" ] || download "linux-source-$KSER=$KDEBVER"
  rm -rf "$MODS"; mkdir -p "$MODS"
  dpkg-deb --fsys-tarfile "dl/linux-source-${KSER}_${KDEBVER}_all.deb" | tar -xO "./usr/src/linux-source-$KSER.tar.xz" \
    | tar -xJ -C "$MODS" --strip-components=3 --wildcards "linux-source-$KSER/drivers/gpio/gpio-sim.c" \
        "linux-source-$KSER/drivers/gpio/gpiolib*.h" "linux-source-$KSER/kernel/irq/irq_sim.c" \
        "linux-source-$KSER/drivers/i2c/i2c-stub.c"
  mv "$MODS/gpio-sim.c" "$MODS/gpio-sim-drv.c"; mv "$MODS/irq_sim.c" "$MODS/irq-sim.c"
  # irq_to_desc is not exported to modules; generic_handle_irq does the same lookup + handler.
  sed -i 's/handle_simple_irq(irq_to_desc(irqnum));/generic_handle_irq(irqnum);/' "$MODS/irq-sim.c"
  grep -q 'generic_handle_irq(irqnum);' "$MODS/irq-sim.c" || { say "irq_sim patch did not apply"; exit 1; }
  printf 'obj-m := gpio-sim.o i2c-stub.o\ngpio-sim-y := gpio-sim-drv.o irq-sim.o\nccflags-y := -I$(src)\n' > "$MODS/Kbuild"
  in_kb make -s -C "/usr/src/linux-headers-$KVER" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- \
    M="/work/modules-$KVER" modules > "modules-$KVER.log" 2>&1 || { tail -20 "modules-$KVER.log"; exit 1; }
  in_kb aarch64-linux-gnu-strip --strip-debug "/work/modules-$KVER/gpio-sim.ko" "/work/modules-$KVER/i2c-stub.ko"
  rm -f "dl/linux-source-${KSER}_${KDEBVER}_all.deb"
fi
if [ ! -f "$KROOT/lib/modules/$KVER/extra/gpio-sim.ko" ] || [ ! -f "$KROOT/lib/modules/$KVER/extra/i2c-stub.ko" ]; then
  install -D -m644 "$MODS/gpio-sim.ko" "$KROOT/lib/modules/$KVER/extra/gpio-sim.ko"
  install -D -m644 "$MODS/i2c-stub.ko" "$KROOT/lib/modules/$KVER/extra/i2c-stub.ko"
  depmod -b "$KROOT" "$KVER"
fi

# ---- busybox for arm64, for the initramfs
BUSYBOX=$WORK/busybox-arm64
if [ ! -x "$BUSYBOX" ]; then
  download busybox-static
  rm -rf bb.tmp; dpkg -x dl/busybox-static_*_arm64.deb bb.tmp
  install -m755 bb.tmp/usr/bin/busybox "$BUSYBOX"; rm -rf bb.tmp dl/busybox-static_*_arm64.deb
fi
# What boots the root disk (kept in the initramfs) and what the test needs (copied into the root).
BOOT_MODS=(virtio_mmio virtio_pci virtio_blk crc32c_generic ext4 virtio_net)
TEST_MODS=(configfs gpio-sim i2c-stub i2c-dev snd-aloop virtio_net autofs4)
SIG=$( (cat "$HERE/boot-init.sh"; echo "$KVER ${BOOT_MODS[*]}") | md5sum | cut -c1-12)
INITRD=$WORK/initramfs-$SIG.cpio.gz
if [ ! -f "$INITRD" ]; then
  say "initramfs $(basename "$INITRD")"
  STRIP=: BUSYBOX=$BUSYBOX make_initramfs "$KROOT" "$KVER" "$INITRD" "$HERE/boot-init.sh" "" "${BOOT_MODS[@]}"
fi
ln -sf "$(basename "$INITRD")" initramfs.cpio.gz
ln -sfn "kernel-$KVER/boot/vmlinuz-$KVER" vmlinuz

# ---- the Debian 13 arm64 root filesystem. What the test needs besides the package's own
# dependencies (which apt installs from the archive in the test): systemd as init, udev,
# networkd for apt, python3, i2c-tools, alsa-utils to drive and read the devices.
TOOLS=systemd,systemd-sysv,udev,dbus,kmod,iproute2,ca-certificates,python3,i2c-tools,alsa-utils,procps,passwd
KEY=$(echo "$TOOLS $KVER" | md5sum | cut -c1-8)
BASE=$WORK/rootfs-trixie-$KEY.ext4
if [ ! -f "$BASE" ]; then
  R=$WORK/rootfs-trixie-$KEY.tmp
  if [ ! -f "$R/debootstrap/debootstrap" ]; then
    say "debootstrap --foreign trixie arm64 ($TOOLS)"
    rm -rf "$R"
    debootstrap --arch=arm64 --foreign --variant=minbase --include="$TOOLS" trixie "$R" "$MIRROR" \
      > debootstrap-arm64.log 2>&1 || { tail -20 debootstrap-arm64.log; exit 1; }
  fi
  cat > "$R/etc/apt/sources.list" <<EOF
deb $MIRROR trixie main
deb $MIRROR trixie-updates main
deb ${MIRROR%/debian}/debian-security trixie-security main
EOF
  echo "nameserver 10.0.2.3" > "$R/etc/resolv.conf"   # qemu's user network
  STRIP=: copy_module_closure "$KROOT" "$KVER" "$R" "${TEST_MODS[@]}" "${BOOT_MODS[@]}"  # stripped when built
  rm -f "$BASE.tmp"
  mkfs.ext4 -q -L root -d "$R" "$BASE.tmp" 4G
  say "debootstrap's second stage and apt-get update inside the VM (qemu-system-aarch64, TCG: about 30 minutes on a busy 2-core machine)"
  VM_TIMEOUT=${VM_STAGE2_TIMEOUT:-5400} VM_LOG=$WORK/stage2-console.log "$HERE/run.sh" "$BASE.tmp" "" "vmstage=2" || true
  grep -aq "VMSTAGE2: DONE" "$WORK/stage2-console.log" \
    || { grep -a -E "VMSTAGE2|W: |E: " "$WORK/stage2-console.log" | tail -20; say "the second stage failed: $WORK/stage2-console.log"; exit 1; }
  # The init powers off without a clean unmount (debootstrap's own mounts stay busy): replay
  # the journal now rather than in every test's copy.
  e2fsck -fy "$BASE.tmp" >/dev/null 2>&1 || [ $? -le 1 ] || { say "e2fsck found the new root filesystem damaged"; exit 1; }
  mv "$BASE.tmp" "$BASE"; rm -rf "$R"
fi
ln -sf "$(basename "$BASE")" rootfs.ext4
say "ready ($KVER, $(basename "$INITRD"), $(basename "$BASE"))"
