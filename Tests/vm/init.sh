#!/bin/busybox sh
# /init of GymTimer's kernel test VM: loads the simulated devices (gpio-sim with the
# Raspberry Pi's line names, i2c-stub answering at the HT16K33's 0x70, snd-aloop), mounts the
# host's root (read-only 9p) and runs the kernel command line's vmcmd=SCRIPT chrooted into it,
# then prints "VMTEST RESULT: PASS|FAIL" and powers off.
# The guest gets fresh tmpfs on /tmp and /run (the host's root is read-only), which would hide a
# checkout under /tmp: the checkout (vmroot=DIR, its own 9p share "checkout") is mounted again
# at the same path on top. vmbin=FILE is the gymtimer binary to test (GYMTIMER_BIN).
/bin/busybox --install -s /bin
export PATH=/bin:/sbin
mount -t proc proc /proc; mount -t sysfs sysfs /sys; mount -t devtmpfs devtmpfs /dev; mount -t tmpfs tmpfs /tmp
R=0
fail() { echo "!!! FAIL: $*"; R=1; }
for m in virtio_pci 9pnet_virtio 9p; do modprobe $m || fail "modprobe $m"; done
. /simulated-devices.sh

HR=/hostroot
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144,ro hostroot $HR || fail "mount host root"
for d in proc sys dev; do mount --bind /$d $HR/$d; done
mount -t tmpfs tmpfs $HR/tmp; mount -t tmpfs tmpfs $HR/run 2>/dev/null
arg() { sed -n "s/.*[ ^]$1=\([^ ]*\).*/\1/p" /proc/cmdline; }
CMD=$(arg vmcmd); CHECKOUT=$(arg vmroot); BIN=$(arg vmbin)
if [ -n "$CHECKOUT" ]; then
  mkdir -p "$HR$CHECKOUT" 2>/dev/null   # only possible (and needed) under the fresh tmpfs
  mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144,ro checkout "$HR$CHECKOUT" || fail "mount checkout $CHECKOUT"
fi
if [ -n "$CMD" ] && [ $R = 0 ]; then
  chroot $HR /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/tmp \
    CHIP=$CHIP SIM=$SIM I2CBUS=$I2CBUS ${BIN:+GYMTIMER_BIN=$BIN} "$CMD"
  rc=$?; echo "vm: $CMD exited $rc"; [ $rc = 0 ] || fail "$CMD"
fi
if dmesg | grep -qE "WARNING:|BUG:|Call Trace"; then dmesg | grep -A20 -E "WARNING:|BUG:" | head -40; fail "kernel warning"; fi
if [ $R = 0 ]; then echo "VMTEST RESULT: PASS"; else echo "VMTEST RESULT: FAIL"; fi
sync; poweroff -f
