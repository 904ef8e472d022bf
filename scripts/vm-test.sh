#!/usr/bin/env bash
# Kernel-level tests: boots Debian's stock kernel under qemu (software emulation, no KVM)
# with gpio-sim, i2c-stub and snd-aloop, and runs the real .build/debug/gymtimer against
# them (Tests/vm/). Prints "vm tests: skipped (reason)" and exits 0 when this machine
# cannot run them (not root, not x86-64 Debian, apt unreachable); exits non-zero on a
# real failure. The kernel, gpio-sim module and initramfs are cached in .build/vm.
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
skip() { echo "vm tests: skipped ($*)"; exit 0; }

[ "$(uname -m)" = x86_64 ] || skip "needs an x86-64 host, this is $(uname -m)"
command -v apt-get >/dev/null || skip "needs apt (Debian)"
[ "$(id -u)" = 0 ] || skip "needs root to install packages and share / read-only with the VM"

KPKG=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-/{print $2; exit}')
KVER=${KPKG#linux-image-}
base=(qemu-system-x86 busybox-static gpiod i2c-tools alsa-utils cpio xz-utils gcc make kmod python3)
pkgs=("${base[@]}")
[ -n "$KPKG" ] && pkgs+=("linux-headers-$KVER")
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ -z "$KPKG" ] || [ ${#missing[@]} -gt 0 ]; then
  echo "vm tests: installing ${missing[*]:-kernel metadata}"
  timeout 300 apt-get update -qq >/dev/null 2>&1 || skip "apt-get update failed (no network?)"
  KPKG=$(apt-cache depends linux-image-amd64 | awk '/Depends: linux-image-/{print $2; exit}')
  [ -n "$KPKG" ] || skip "apt has no linux-image-amd64"
  KVER=${KPKG#linux-image-}
  DEBIAN_FRONTEND=noninteractive timeout 900 apt-get install -y -qq --no-install-recommends \
    "${base[@]}" "linux-headers-$KVER" >/dev/null 2>&1 || skip "apt-get install failed"
fi

[ -x .build/debug/gymtimer ] || { echo "== vm tests: building gymtimer"; swift build --product gymtimer || exit 1; }
echo "== vm tests: kernel, gpio-sim, initramfs (cached in .build/vm)"
if ! Tests/vm/build.sh; then
  # A failed download is the network's fault, not the project's; a failed compile is not.
  ls .build/vm/kernel-*/boot/vmlinuz-* >/dev/null 2>&1 || skip "could not download the kernel"
  echo "vm tests: FAIL (building the VM)"; exit 1
fi
echo "== vm tests: booting (qemu TCG)"
Tests/vm/run.sh; rc=$?
echo "vm tests: $([ $rc = 0 ] && echo passed || echo FAILED) in $(( $(date +%s) - start )) s (console: .build/vm/console.log)"
exit $rc
