#!/usr/bin/env bash
# Boots the install test VM of RELEASE built by build.sh under qemu (TCG) twice: phase 1
# installs and checks the service, then reboots; phase 2 checks it came back at boot, tries the
# other release's binary and uninstalls. Exits 0 iff both printed "INSTALLTEST PHASE n: PASS".
# Consoles go to $VM_WORK/install-console-RELEASE-n.log.  Usage: run.sh RELEASE
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
WORK=${VM_WORK:-$ROOT/.build/vm}
RELEASE=${1:-bookworm}
ACCEL=${VM_ACCEL:--accel tcg}
# The guest's ttyS1 and ttyS2 are wired to each other (two ISA UARTs on one unix socket, a
# null-modem cable): the PN532's twin answers on ttyS2 (`gymtimer simulate --pn532`) and the
# installed unit opens ttyS1 as a Pi opens its UART's reader, through its own sandbox.
LINK=$(mktemp -u /tmp/gymtimer-uart-XXXXXX.sock)
trap 'rm -f "$LINK"' EXIT
# A throwaway guest on an emulated CPU: no side-channel mitigations (each costs emulated
# cycles on every system call), and a disk that only needs to be written when qemu exits (a
# guest's reboot ends qemu cleanly, which writes it), not at every fsync of apt and journald.
for phase in 1 2; do
  LOG=$WORK/install-console-$RELEASE-$phase.log
  rm -f "$LINK"
  timeout "${VM_TIMEOUT:-1800}" qemu-system-x86_64 $ACCEL -cpu max -smp "${VM_SMP:-2}" -m 1536 -nographic -no-reboot \
    -kernel "$WORK/vmlinuz" -initrd "$WORK/boot-initramfs.cpio.gz" \
    -drive file="$WORK/disk-$RELEASE.ext4",format=raw,if=virtio,cache=unsafe \
    -serial mon:stdio -chardev socket,id=uart1,path="$LINK",server=on,wait=off -serial chardev:uart1 \
    -chardev socket,id=uart2,path="$LINK" -serial chardev:uart2 \
    -netdev user,id=net0 -device virtio-net-pci,netdev=net0 \
    -append "console=ttyS0 quiet panic=-1 mitigations=off systemd.show_status=false" </dev/null >"$LOG" 2>&1
  rc=$?
  # The test's own lines (the units write to the console through the journal), without prefixes.
  sed 's/\x1b[[?0-9;]*[a-zA-Z]//g; s/\r$//' "$LOG" | grep -a -E '\] (python3|devices\.sh)\[[0-9]+\]: ' \
    | sed -E 's/^\[ *[0-9.]+\] [a-z0-9.]+\[[0-9]+\]: //'
  [ $rc = 124 ] && echo "install vm: qemu timed out after ${VM_TIMEOUT:-1800} s in phase $phase"
  grep -aq "INSTALLTEST PHASE $phase: PASS" "$LOG" || exit 1
done
