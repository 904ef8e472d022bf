#!/bin/busybox sh
# /init of the arm64 install test VM's initramfs (busybox, arm64). Mounts the Debian root disk
# (ext4, label root) and then either
#   - with vmstage=2 on the kernel command line: runs debootstrap's second stage in it (the
#     host cannot run arm64 programs without binfmt), fetches apt's lists over qemu's user
#     network, prints "VMSTAGE2: DONE" and powers off (Tests/vm/arm64/build.sh, once);
#   - otherwise: copies the test's files from the disk labelled payload over it and hands over
#     to its systemd, as a distribution's initramfs would (Tests/vm/arm64/run.sh).
/bin/busybox --install -s /bin
export PATH=/bin:/sbin
mount -t proc proc /proc; mount -t sysfs sysfs /sys; mount -t devtmpfs devtmpfs /dev
for m in virtio_mmio virtio_pci virtio_blk crc32c_generic ext4; do modprobe $m || echo "boot: modprobe $m failed"; done
dev() { findfs LABEL=$1 2>/dev/null; }
i=0; while [ -z "$(dev root)" ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i+1)); done
mount -t ext4 -o rw "$(dev root)" /newroot || { echo "boot: cannot mount the root disk"; echo "VMTEST RESULT: FAIL"; poweroff -f; }
if grep -q vmstage=2 /proc/cmdline; then
  for d in proc sys dev; do mount --bind /$d /newroot/$d; done
  echo "VMSTAGE2: debootstrap --second-stage"
  if chroot /newroot /debootstrap/debootstrap --second-stage; then
    modprobe virtio_net
    i=0; while [ ! -e /sys/class/net/eth0 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
    ip link set eth0 up && ip addr add 10.0.2.15/24 dev eth0 && ip route add default via 10.0.2.2
    echo "VMSTAGE2: apt-get update"
    if chroot /newroot apt-get -o Acquire::Check-Valid-Until=false update; then
      chroot /newroot apt-get clean
      echo "VMSTAGE2: DONE"
    fi
  fi
  for d in proc sys dev; do umount /newroot/$d; done
  umount /newroot; sync; poweroff -f
fi
if [ -n "$(dev payload)" ]; then
  mkdir -p /payload && mount -t ext4 -o ro "$(dev payload)" /payload && cp -a /payload/root/. /newroot/ && umount /payload \
    || { echo "boot: cannot copy the test's files"; echo "VMTEST RESULT: FAIL"; poweroff -f; }
fi
for d in dev proc sys; do mount --move /$d /newroot/$d; done
exec switch_root /newroot /sbin/init
