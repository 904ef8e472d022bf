#!/bin/busybox sh
# /init of the install test VM's initramfs: mounts the Debian root disk (/dev/vda, ext4) and
# hands over to its systemd, as a distribution's initramfs would.
/bin/busybox --install -s /bin
export PATH=/bin:/sbin
mount -t proc proc /proc; mount -t sysfs sysfs /sys; mount -t devtmpfs devtmpfs /dev
for m in virtio_pci virtio_blk crc32c_generic ext4; do modprobe $m || echo "boot: modprobe $m failed"; done
i=0; while [ ! -b /dev/vda ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
if mount -t ext4 -o rw /dev/vda /newroot; then
  for d in dev proc sys; do mount --move /$d /newroot/$d; done
  exec switch_root /newroot /sbin/init
fi
echo "boot: cannot mount /dev/vda"; echo "VMTEST RESULT: FAIL"; poweroff -f
