#!/usr/bin/env bash
# Boots the test VM built by build.sh under qemu (TCG: no /dev/kvm needed) with the host's
# root shared read-only over 9p, runs Tests/vm/guest_test.py chrooted into it, and exits 0
# iff the guest printed "VMTEST RESULT: PASS". The console goes to $VM_LOG (default
# $VM_WORK/console.log). VM_BIN picks the gymtimer binary (default .build/release/gymtimer); it
# and the guest script must be inside this checkout, which is shared a second time so that a
# clone under /tmp is not hidden by the guest's own /tmp.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd -P)
WORK=${VM_WORK:-$ROOT/.build/vm}
LOG=${VM_LOG:-$WORK/console.log}
BIN=$(realpath -e "${VM_BIN:-$ROOT/.build/release/gymtimer}") || exit 1
case "$ROOT$BIN" in *" "*) echo "vm tests: the checkout's path may not contain spaces (kernel command line): $ROOT"; exit 1 ;; esac
GUEST=${VM_GUEST:-$ROOT/Tests/vm/guest_test.py}
# This host's /dev/kvm may be a paravirtual one that cannot boot a stock kernel: TCG by default.
# A run takes about a minute; 600 s leaves room for a CI machine shared with other builds
# (seen: 17 s from start to the ready LED instead of 3 under load, and a 300 s limit hit).
ACCEL=${VM_ACCEL:--accel tcg}
timeout "${VM_TIMEOUT:-600}" qemu-system-x86_64 $ACCEL -cpu max -smp "${VM_SMP:-2}" -m 1024 -nographic -no-reboot \
  -kernel "$WORK/vmlinuz" -initrd "$WORK/initramfs.cpio.gz" \
  -virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap,id=hostroot \
  -virtfs local,path="$ROOT",mount_tag=checkout,security_model=none,readonly=on,multidevs=remap,id=checkout \
  -append "console=ttyS0 quiet panic=-1 mitigations=off vmcmd=$GUEST vmroot=$ROOT vmbin=$BIN" </dev/null >"$LOG" 2>&1
rc=$?
sed 's/\x1b[[?0-9;]*[a-zA-Z]//g; s/\x1bc//g; s/\r$//' "$LOG" | sed -n 's/.*\(vm: kernel\)/\1/; /vm: kernel/,$p'
[ $rc = 124 ] && echo "vm tests: qemu timed out after ${VM_TIMEOUT:-600} s"
grep -q "VMTEST RESULT: PASS" "$LOG"
