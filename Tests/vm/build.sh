#!/usr/bin/env bash
# Builds what the kernel test VM boots, cached under $VM_WORK (default .build/vm, gitignored):
# Debian's stock kernel (unpacked, never installed), gpio-sim compiled out of tree from
# linux-source at the same version (Debian builds without CONFIG_GPIO_SIM), and a busybox
# initramfs with the module closure. Each step is skipped when its output exists.
# Needs: apt packages busybox-static cpio xz-utils gcc make kmod linux-headers-$KVER.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/Tests/vm/lib.sh"
WORK=${VM_WORK:-$ROOT/.build/vm}
mkdir -p "$WORK"; cd "$WORK"

# The kernel ABI (6.1.0-NN) moves with security updates: ask apt which one is current.
KPKG=$(apt-cache depends linux-image-amd64 | awk '/Depends: linux-image-/{print $2; exit}')
KVER=${KPKG#linux-image-}
KDEBVER=$(apt-cache policy "$KPKG" | awk '/Candidate:/{print $2}')
KSER=$(echo "$KVER" | grep -oE '^[0-9]+\.[0-9]+')
echo "$KVER" > kver

if [ ! -f "kernel-$KVER/boot/vmlinuz-$KVER" ]; then
  echo "vm build: kernel $KPKG $KDEBVER"
  apt-get download -qq "$KPKG=$KDEBVER" 2>&1 | grep -v unsandboxed || true
  rm -rf "kernel-$KVER.tmp"; dpkg -x "${KPKG}_${KDEBVER}_amd64.deb" "kernel-$KVER.tmp"
  mv "kernel-$KVER.tmp" "kernel-$KVER"; rm -f "${KPKG}_${KDEBVER}_amd64.deb"
fi

GPIOSIM=gpiosim-$KVER
if [ ! -f "$GPIOSIM/gpio-sim.ko" ]; then
  echo "vm build: gpio-sim from linux-source-$KSER $KDEBVER"
  [ -f "linux-source-${KSER}_${KDEBVER}_all.deb" ] || { apt-get download -qq "linux-source-$KSER=$KDEBVER" 2>&1 | grep -v unsandboxed || true; }
  rm -rf "$GPIOSIM"; mkdir -p "$GPIOSIM"
  dpkg-deb --fsys-tarfile "linux-source-${KSER}_${KDEBVER}_all.deb" | tar -xO "./usr/src/linux-source-$KSER.tar.xz" \
    | tar -xJ -C "$GPIOSIM" --strip-components=3 --wildcards "linux-source-$KSER/drivers/gpio/gpio-sim.c" \
        "linux-source-$KSER/drivers/gpio/gpiolib*.h" "linux-source-$KSER/kernel/irq/irq_sim.c"
  mv "$GPIOSIM/gpio-sim.c" "$GPIOSIM/gpio-sim-drv.c"; mv "$GPIOSIM/irq_sim.c" "$GPIOSIM/irq-sim.c"
  # irq_to_desc is not exported to modules; generic_handle_irq does the same lookup + handler.
  sed -i 's/handle_simple_irq(irq_to_desc(irqnum));/generic_handle_irq(irqnum);/' "$GPIOSIM/irq-sim.c"
  grep -q 'generic_handle_irq(irqnum);' "$GPIOSIM/irq-sim.c" || { echo "vm build: irq_sim patch did not apply"; exit 1; }
  printf 'obj-m := gpio-sim.o\ngpio-sim-y := gpio-sim-drv.o irq-sim.o\nccflags-y := -I$(src)\n' > "$GPIOSIM/Kbuild"
  make -s -C "/usr/src/linux-headers-$KVER" M="$WORK/$GPIOSIM" modules
  rm -f "linux-source-${KSER}_${KDEBVER}_all.deb"
fi

KROOT=$WORK/kernel-$KVER
if [ ! -f "$KROOT/lib/modules/$KVER/extra/gpio-sim.ko" ]; then
  install -D -m644 "$GPIOSIM/gpio-sim.ko" "$KROOT/lib/modules/$KVER/extra/gpio-sim.ko"
  depmod -b "$KROOT" "$KVER"
fi

# The initramfs only boots and prepares devices; the test itself runs chrooted into the
# host's root (shared read-only over 9p), so it depends on the init scripts' contents.
SIG=$( (cat "$ROOT/Tests/vm/init.sh" "$ROOT/Tests/vm/simulated-devices.sh"; echo "$KVER") | md5sum | cut -c1-12)
INITRD=initramfs-$SIG.cpio.gz
if [ ! -f "$INITRD" ]; then
  echo "vm build: initramfs $INITRD"
  make_initramfs "$KROOT" "$KVER" "$WORK/$INITRD" "$ROOT/Tests/vm/init.sh" "$ROOT/Tests/vm/simulated-devices.sh" \
    configfs gpio-sim i2c-stub i2c-dev snd-aloop virtio_pci 9pnet_virtio 9p
fi
ln -sf "$INITRD" initramfs.cpio.gz
ln -sfn "kernel-$KVER/boot/vmlinuz-$KVER" vmlinuz
echo "vm build: ready ($KVER, $INITRD)"
