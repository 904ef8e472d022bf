#!/usr/bin/env bash
# Tests under Debian's stock kernel in qemu (software emulation, no KVM), with the kernel's
# simulated devices gpio-sim, i2c-stub and snd-aloop:
#   scripts/vm-test.sh kernel    the real .build/debug/gymtimer driven against them (Tests/vm/)
#   scripts/vm-test.sh install   deploy/install.sh on Debian 12 booted with systemd, checking
#                                the service it makes, across a reboot (Tests/vm/systemd/)
# Prints "vm tests: skipped (reason)" and exits 0 when this machine cannot run them (not root,
# not x86-64 Debian, apt unreachable); exits non-zero on a real failure. The kernel, gpio-sim
# module, initramfs and Debian root filesystem are cached in .build/vm.
set -uo pipefail
cd "$(dirname "$0")/.."
stage=${1:-kernel}
case "$stage" in kernel|install) ;; *) echo "usage: $0 [kernel|install]"; exit 2 ;; esac
start=$(date +%s)
skip() { echo "vm tests ($stage): skipped ($*)"; exit 0; }

[ "$(uname -m)" = x86_64 ] || skip "needs an x86-64 host, this is $(uname -m)"
command -v apt-get >/dev/null || skip "needs apt (Debian)"
[ "$(id -u)" = 0 ] || skip "needs root to install packages and share / read-only with the VM"

KPKG=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-/{print $2; exit}')
KVER=${KPKG#linux-image-}
base=(qemu-system-x86 busybox-static gpiod i2c-tools alsa-utils cpio xz-utils gcc make kmod python3 debootstrap e2fsprogs)
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

echo "== vm tests: kernel, gpio-sim (cached in .build/vm)"
if ! Tests/vm/build.sh; then
  # A failed download is the network's fault, not the project's; a failed compile is not.
  ls .build/vm/kernel-*/boot/vmlinuz-* >/dev/null 2>&1 || skip "could not download the kernel"
  echo "vm tests: FAIL (building the VM)"; exit 1
fi

if [ "$stage" = kernel ]; then
  [ -x .build/debug/gymtimer ] || { echo "== vm tests: building gymtimer"; swift build --product gymtimer || exit 1; }
  echo "== vm tests: booting (qemu TCG)"
  Tests/vm/run.sh; rc=$?
  log=.build/vm/console.log
else
  echo "== install test: the release binary, built as install.sh builds it on a Pi"
  binary=$(deploy/install.sh --build-only | sed -n 's/^  built //p')
  [ -x "$binary" ] || { echo "install test: FAIL (deploy/install.sh --build-only)"; exit 1; }
  echo "== install test: Debian 12 root filesystem (debootstrap, cached in .build/vm)"
  if ! Tests/vm/systemd/build.sh "$binary"; then
    ls -d .build/vm/debian-bookworm-* >/dev/null 2>&1 || skip "debootstrap could not download Debian"
    echo "install test: FAIL (building the VM)"; exit 1
  fi
  echo "== install test: booting Debian with systemd (qemu TCG), installing, rebooting"
  Tests/vm/systemd/run.sh; rc=$?
  log=".build/vm/install-console-*.log"
fi
echo "vm tests ($stage): $([ $rc = 0 ] && echo passed || echo FAILED) in $(( $(date +%s) - start )) s (console: $log)"
exit $rc
