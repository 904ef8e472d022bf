#!/usr/bin/env bash
# Tests under Debian's stock kernel in qemu (software emulation, no KVM), with the kernel's
# simulated devices gpio-sim, i2c-stub and snd-aloop:
#   scripts/vm-test.sh kernel    the real gymtimer driven against them (Tests/vm/), twice: the
#                                release binaries for Debian 12's libgpiod 1.6
#                                (.build-release/bookworm) and for libgpiod 2.2 from Debian
#                                13's source (.build-release/trixie)
#   scripts/vm-test.sh install   deploy/install.sh on Debian 12 and on Debian 13 (side by side,
#                                two emulators) booted with
#                                systemd, checking the service it makes, across a reboot, and
#                                the other release's binary (Tests/vm/systemd/); then with a
#                                [fleet] whose broker and `gymtimer collect` run on this host
#                                (Tests/vm/systemd/fleet_host.py; VM_FLEET_OLD_UNIT=1: without
#                                the network drop-in, which must fail; VM_RELEASES=bookworm
#                                or trixie: that release only; VM_RELEASES=bookworm:
#                                Debian 12 only); and the gym's server from the packages
#                                (Debian 12: VM_DEBS, gymtimer and gymtimer-server .debs, built
#                                with scripts/build-deb.sh when not given; Debian 13: built here
#                                from its libgpiod 2.2 kiosk): the collector's and
#                                the console's units, a station's record collected; then
#                                its upgrades from the gym's signed package source served
#                                from this host (Tests/vm/systemd/upgrade-repos.sh, guest_upgrade.py)

# On a machine that cannot run them (not root, not x86-64 Debian, a tool or the kernel's headers
# missing: scripts/install-deps.sh --tests installs them, Debian's archive unreachable) it says
# "vm tests (STAGE): cannot run: why" and exits 77, which fails the test command under CI
# (scripts/lib/cannot-run.sh); it exits 1 on a real failure. The kernel, gpio-sim module,
# initramfs and Debian root filesystem are cached in .build/vm.
set -uo pipefail
cd "$(dirname "$0")/.."
stage=${1:-kernel}
case "$stage" in kernel|install) ;; *) echo "usage: $0 [kernel|install]"; exit 2 ;; esac
start=$(date +%s)
CANNOT_RUN_STAGE="vm tests ($stage)"; . scripts/lib/cannot-run.sh

[ "$(uname -m)" = x86_64 ] || cannot_run "needs an x86-64 host, this is $(uname -m)"
[ "$(id -u)" = 0 ] || cannot_run "needs root to share / read-only with the VM"
require_tools apt-get apt-cache dpkg-deb qemu-system-x86_64 busybox cpio xz gcc make depmod python3 ip mosquitto
if [ "$stage" = kernel ]; then require_tools gpiodetect i2cget aplay; else require_tools debootstrap mkfs.ext4 dpkg-shlibdeps reprepro gpg; fi
KPKG=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-/{print $2; exit}')
[ -n "$KPKG" ] || cannot_run "apt knows no linux-image-amd64 (apt-get update; scripts/install-deps.sh --tests)"
KVER=${KPKG#linux-image-}
[ -d "/usr/src/linux-headers-$KVER" ] || cannot_run "no linux-headers-$KVER to build gpio-sim against (scripts/install-deps.sh --tests installs it)"

echo "== vm tests: kernel, gpio-sim (cached in .build/vm)"
if ! Tests/vm/build.sh; then
  # A failed download is the network's fault, not the project's; a failed compile is not.
  ls .build/vm/kernel-*/boot/vmlinuz-* >/dev/null 2>&1 || cannot_run "could not download the kernel"
  echo "vm tests: FAIL (building the VM)"; exit 1
fi

# The release binaries a Pi's owner installs (both stages use them), linked from the release
# build by scripts/build-release-binaries.sh: bookworm's (libgpiod 1.6, .build-release/bookworm)
# and trixie's kiosk with libgpiod 2.2 from trixie's source (.build-release/trixie).
# With VM_RELEASE_BUILT=1 (the test command, whose release stage has just made them) the list
# in .build-release/binaries is taken as it is.
release_binaries() {
  local out rc=0
  if [ "${VM_RELEASE_BUILT:-}" = 1 ] && [ -s .build-release/binaries ]; then
    out=$(cat .build-release/binaries)
  else
    out=$(scripts/build-release-binaries.sh) || rc=$?
  fi
  if [ $rc != 0 ]; then
    echo "$out"
    [ $rc = "$CANNOT_RUN" ] && exit "$CANNOT_RUN"
    echo "vm tests: FAIL (scripts/build-release-binaries.sh)"; exit 1
  fi
  bookworm=$(sed -n 's/^bookworm //p' <<<"$out"); trixie=$(sed -n 's/^trixie //p' <<<"$out")
}

if [ "$stage" = kernel ]; then
  # The release binaries, built as install.sh builds them for a Pi (the install stage then finds
  # them built): a debug build cannot keep the alarm's sound fed under this emulator (on a
  # slower host every boot of the debug build recorded silence from the loopback; the release
  # build the same boot later recorded the whole alarm).
  echo "== vm tests: the release binaries (scripts/build-release-binaries.sh)"
  release_binaries
  rc=0
  # The same checks against each libgpiod API; the binary's own start-up line says which it uses.
  for build in "1.6 $bookworm" "2.2 $trixie"; do
    set -- $build
    # A timing check can miss on an emulator starved by other builds: one more boot of the
    # same build tells that apart from a real failure, and says so (both logs are kept).
    for attempt in 1 2; do
      echo "== vm tests: booting (qemu TCG) with $2, built against libgpiod $1"
      t0=$(date +%s)
      VM_BIN=$2 VM_LOG=.build/vm/console-libgpiod$1-$attempt.log Tests/vm/run.sh; one=$?
      if [ $one = 0 ] && ! grep -aq "GPIO on .* (libgpiod $1\." .build/vm/console-libgpiod$1-$attempt.log; then
        echo "vm tests: $2 did not say it runs on libgpiod $1"; one=1
      fi
      echo "vm tests (kernel, libgpiod $1): $([ $one = 0 ] && echo passed || echo FAILED) in $(( $(date +%s) - t0 )) s," \
        "$(grep -ac ' ok: ' .build/vm/console-libgpiod$1-$attempt.log) checks passed in the guest"
      [ $one = 0 ] && break
      [ $attempt = 1 ] && echo "vm tests (kernel, libgpiod $1): failed once, booting again to rule out an overloaded emulator"
    done
    [ $one = 0 ] || rc=1
  done
  log=".build/vm/console-libgpiod{1.6,2.2}-{1,2}.log"
else
  echo "== install test: the release binaries, built as install.sh builds them on a Pi"
  release_binaries
  # The gym's server's packages for Debian 12's guest (gymtimer and gymtimer-server, amd64):
  # VM_DEBS from the test command, which built them from these binaries; else built here.
  if [ -z "${VM_DEBS:-}" ]; then
    echo "== install test: the amd64 packages (scripts/build-deb.sh)"
    VM_DEBS=$(scripts/build-deb.sh amd64 "$bookworm" .build/deb | sed -n 's/^  built \([^ ]*\).*/\1/p' | tr '\n' ' ')
    [ "$(wc -w <<<"$VM_DEBS")" = 2 ] || { echo "vm tests: FAIL (scripts/build-deb.sh amd64 $bookworm .build/deb)"; exit 1; }
  fi
  for deb in $VM_DEBS; do [ -f "$deb" ] || { echo "vm tests: FAIL (no package $deb)"; exit 1; }; done
  # Debian 13's, from the kiosk built against the static libgpiod 2.2 (no libgpiod in Depends).
  # The server step (apt installing both packages and their Depends, minutes under TCG) runs on
  # the releases of VM_SERVER_RELEASES, Debian 13 unless told otherwise: on Debian 12 the same
  # packages are installed, upgraded and purged in chroots by the package stage
  # (Tests/package/signed-repo.sh), which keeps the test command inside CI's time.
  declare -A debs_for=()
  [[ " ${VM_SERVER_RELEASES:-trixie} " != *" bookworm "* ]] || debs_for[bookworm]="$VM_DEBS"
  if [ "${VM_RELEASES:-bookworm trixie}" != bookworm ]; then
    echo "== install test: the amd64 packages for Debian 13 (scripts/build-deb.sh, .build/deb-trixie)"
    debs_for[trixie]=$(scripts/build-deb.sh amd64 "$trixie" .build/deb-trixie | sed -n 's/^  built \([^ ]*\).*/\1/p' | tr '\n' ' ')
    [ "$(wc -w <<<"${debs_for[trixie]}")" = 2 ] || { echo "vm tests: FAIL (scripts/build-deb.sh amd64 $trixie .build/deb-trixie)"; exit 1; }
  fi
  # Each release installs its own binary, then is offered the other's: bookworm runs the
  # static-libgpiod-2 one; trixie has no libgpiod.so.2, so install.sh must refuse bookworm's.
  # VM_RELEASES=bookworm (a developer's quicker run) boots Debian 12 only, offered its own binary;
  # VM_RELEASES=trixie (the test command's, for CI's time) Debian 13 only.
  case "${VM_RELEASES:-bookworm trixie}" in
    bookworm) setups=("bookworm 12 $bookworm $bookworm works") ;;
    trixie) setups=("trixie 13 $trixie $bookworm refused") ;;
    *) setups=("bookworm 12 $bookworm $trixie works" "trixie 13 $trixie $bookworm refused") ;;
  esac
  # Each release's root filesystem first, one after the other (they share the boot initramfs),
  # with the fleet step's host side on free ports of 127.0.0.1 (10.0.2.2 in the VM): a broker,
  # `gymtimer collect` and the guest's signals; the station is named after the release.
  # (All the ports at once, so that no two are the same.)
  read -r -a free < <(python3 -c 'import socket, sys
s=[socket.socket() for _ in range(3 * int(sys.argv[1]))]
[x.bind(("127.0.0.1", 0)) for x in s]
print(*[x.getsockname()[1] for x in s])' ${#setups[@]})
  declare -A ports
  for i in "${!setups[@]}"; do
    set -- ${setups[$i]}
    echo "== install test: Debian $2 ($1) root filesystem (debootstrap, cached in .build/vm)"
    fport=${free[$((3 * i))]}; hport=${free[$((3 * i + 1))]}; uport=${free[$((3 * i + 2))]}
    ports[$1]="$fport $hport $uport"
    debs=${debs_for[$1]:-}; upgrade=
    # The booted upgrade step (three installs of minutes each under TCG) runs on the releases of
    # VM_UPGRADE_RELEASES, Debian 13 (the Pi's) unless told otherwise: the agent's code is the
    # same on both, and Debian 12's apt with the gym's signed source (newer versions taken,
    # altered, unsigned and foreign-signed ones refused) is checked in chroots by the package
    # stage (Tests/package/signed-repo.sh), which keeps the test command inside CI's time.
    if [ -n "$debs" ] && [[ " ${VM_UPGRADE_RELEASES:-trixie} " == *" $1 "* ]]; then
      # The gym's package source the installed package upgrades from (guest_upgrade.py): newer
      # versions of the same packages in signed repositories, served on uport.
      read -r gdeb sdeb <<<"$debs"
      Tests/vm/systemd/upgrade-repos.sh ".build/vm/upgrade-repo-$1" "$gdeb" "$sdeb" || { echo "install test: FAIL (upgrade-repos.sh)"; exit 1; }
      upgrade=$uport
    fi
    set -- ${setups[$i]}
    if ! VM_FLEET="$fport $hport vm-$1" VM_DEBS="$debs" VM_UPGRADE="$upgrade" Tests/vm/systemd/build.sh "$1" "$3" "$4" "$5"; then
      ls -d .build/vm/debian-"$1"-* >/dev/null 2>&1 || cannot_run "debootstrap could not download Debian $1"
      echo "install test: FAIL (building the $1 VM)"; exit 1
    fi
  done
  # Then both boot side by side: much of a boot waits (apt over the VM's network, systemd's
  # timers, the watchdog, the reboot), so two emulators share the 2 cores at little cost to
  # each, and the stage takes about the time of one release instead of two. Each release's
  # lines are printed together when both are done.
  boot_release() {
    local fport hport uport fleethost repohost= one hostrc t0
    t0=$(date +%s)
    read -r fport hport uport <<<"${ports[$1]}"
    # The gym's package source, when this release's guest upgrades from it.
    if [ -d ".build/vm/upgrade-repo-$1" ] && [[ " ${VM_UPGRADE_RELEASES:-trixie} " == *" $1 "* ]]; then
      python3 -m http.server "$uport" --bind 127.0.0.1 --directory ".build/vm/upgrade-repo-$1" > ".build/vm/upgrade-repo-$1.log" 2>&1 &
      repohost=$!
    fi
    echo "== install test: booting Debian $2 with systemd (qemu TCG), installing, rebooting"
    rm -f ".build/vm/install-console-$1-"[12].log   # an old run's lines must not answer for this one
    python3 Tests/vm/systemd/fleet_host.py "$3" ".build/vm/fleet-$1" ".build/vm/install-console-$1" \
      "$fport" "$hport" "vm-$1" > ".build/vm/fleet-host-$1.log" 2>&1 &
    fleethost=$!
    Tests/vm/systemd/run.sh "$1"; one=$?
    # The host's checks end with the guest's phase 2; if the VM stopped early, they stop too.
    for _ in $(seq 30); do kill -0 $fleethost 2>/dev/null || break; sleep 1; done
    kill $fleethost 2>/dev/null
    wait $fleethost; hostrc=$?
    [ -z "$repohost" ] || { kill $repohost 2>/dev/null; wait $repohost 2>/dev/null; }
    sed 's/^/  /' ".build/vm/fleet-host-$1.log"
    [ $hostrc = 0 ] || one=1
    echo "vm tests (install, Debian $2 $1): $([ $one = 0 ] && echo passed || echo FAILED) in $(( $(date +%s) - t0 )) s," \
      "$(( $(cat ".build/vm/install-console-$1-"[12].log 2>/dev/null | grep -ac ' ok: ') + $(grep -ac 'fleet host: ok ' ".build/vm/fleet-host-$1.log") )) checks passed in the guest and the host"
    return $one
  }
  pids=()
  for setup in "${setups[@]}"; do
    set -- $setup
    boot_release "$@" > ".build/vm/install-$1.out" 2>&1 &
    pids+=($!)
  done
  rc=0
  for i in "${!setups[@]}"; do
    set -- ${setups[$i]}
    wait "${pids[$i]}" || rc=1
    cat ".build/vm/install-$1.out"
  done
  log=".build/vm/install-console-*.log"
fi
echo "vm tests ($stage): $([ $rc = 0 ] && echo passed || echo FAILED) in $(( $(date +%s) - start )) s (console: $log)"
exit $rc
