#!/usr/bin/env bash
# Boots Debian 13's arm64 kernel under qemu-system-aarch64 (software emulation: -M virt
# -cpu max) with the initramfs of build.sh, the root disk DISK and, if given, the test's files
# on the disk PAYLOAD (an ext4 labelled payload that boot-init.sh copies over the root).
# The console goes to $VM_LOG. Exits with qemu's status (124: timed out after $VM_TIMEOUT s).
# Usage: run.sh DISK [PAYLOAD] [KERNEL ARGUMENTS]
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
WORK=${VM_WORK:-$ROOT/.build-arm64/vm}
DISK=$1; PAYLOAD=${2:-}; EXTRA=${3:-}
LOG=${VM_LOG:-$WORK/console.log}
drives=(-drive file="$DISK",format=raw,if=none,id=root -device virtio-blk-pci,drive=root)
[ -n "$PAYLOAD" ] && drives+=(-drive file="$PAYLOAD",format=raw,if=none,id=payload,readonly=on -device virtio-blk-pci,drive=payload)
# The virt board's own GPIO controller (a PL061, built into Debian's kernel) would take
# gpiochip0, which is the Pi header's name in the config: it is kept from probing, so that the
# simulated chip is gpiochip0 as on a Pi. pauth-impdef: the same CPU, its pointer
# authentication emulated with a cheaper hash (several times faster under TCG).
timeout "${VM_TIMEOUT:-1800}" qemu-system-aarch64 -M virt -cpu max,pauth-impdef=on -smp "${VM_SMP:-2}" -m 2048 \
  -nographic -no-reboot -kernel "$WORK/vmlinuz" -initrd "$WORK/initramfs.cpio.gz" "${drives[@]}" \
  -netdev user,id=net0 -device virtio-net-pci,netdev=net0 \
  -append "console=ttyAMA0 quiet panic=-1 systemd.show_status=false initcall_blacklist=pl061_gpio_driver_init $EXTRA" \
  </dev/null >"$LOG" 2>&1
