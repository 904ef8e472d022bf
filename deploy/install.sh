#!/usr/bin/env bash
# Installs GymTimer as a hardened systemd service on Raspberry Pi OS trixie / Debian 13
# (libgpiod 2) or Raspberry Pi OS bookworm / Debian 12 (libgpiod 1.6).
#   sudo deploy/install.sh                 build, then install or update (safe to run again)
#   sudo deploy/install.sh --binary FILE   install FILE instead of building (one built by
#                                          --build-only on another machine with the same OS;
#                                          refused, saying why, if it cannot run here), and the
#                                          gymtimer-console and gymtimer-central beside it
#                                          (`gymtimer console`, `gymtimer collect --db postgresql://…` run them)
#   deploy/install.sh --build-only         only build the self-contained release binaries
#                                          (gymtimer, gymtimer-console, gymtimer-central, side by side)
#   sudo deploy/install.sh --uninstall     remove the service and binaries (keeps config and history)
#   sudo deploy/install.sh FILE.deb        install the Debian package (scripts/build-deb.sh,
#                                          scripts/build-arm64.sh) with apt, replacing an
#                                          install made by this script (config and history kept)
# Never overwrites an existing /etc/gymtimer/config.toml.
# GYMTIMER_BUILD_DIR picks the build folder (default .build; docs/building.md builds a
# libgpiod 2 variant in .build-gpiod2 with PKG_CONFIG_PATH pointing at it).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$here")"
prefix=/usr/local
unit=/etc/systemd/system/gymtimer.service
udev=/etc/udev/rules.d/60-gymtimer.rules
# The network rule (gymtimer unit-network): a drop-in opening the service's network to its
# [fleet] broker only, rewritten by gymtimer-config.service whenever the config changes.
dropin=/etc/systemd/system/gymtimer.service.d/fleet-network.conf
watch_path=/etc/systemd/system/gymtimer-config.path
watch_service=/etc/systemd/system/gymtimer-config.service
config=/etc/gymtimer/config.toml
aptlog=/var/log/gymtimer-install-apt.log

say() { printf '  %s\n' "$*"; }
die() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }

# The Swift runtime and Foundation are linked in, so the binary keeps working when the
# toolchain is moved, upgraded or removed, and can be copied to a Pi without one.
build() {
  command -v swift >/dev/null || die "Swift is not installed: get the Swift 6 toolchain for your OS (swift.org/install), or build elsewhere with --build-only and use --binary FILE"
  # Command substitution does not inherit set -e: a failed build must stop here, not install
  # whatever an earlier build left behind.
  local dir=${GYMTIMER_BUILD_DIR:-$repo/.build} product
  # The coach's console and a chain's central store are programs of their own (the kiosk links
  # no HTTP server nor PostgreSQL client): all three are built.
  for product in gymtimer gymtimer-console gymtimer-central; do
    (cd "$repo" && swift build -c release --static-swift-stdlib --scratch-path "$dir" --product $product) >&2 \
      || die "the build of $product failed (see above)"
  done
  echo "$(cd "$repo" && realpath "$dir")/release/gymtimer"
}

# A Debian package: apt installs it (and the libraries it depends on); its postinst makes the
# user and enables the service. What this script installed without one is removed first, so
# that its unit in /etc/systemd/system does not shadow the package's.
install_package() {
  local deb arch here_arch
  deb=$(realpath -e "$1" 2>/dev/null) || die "no such package: $1"
  arch=$(dpkg-deb -f "$deb" Architecture 2>/dev/null) || die "$1 is not a Debian package"
  [ "$(dpkg-deb -f "$deb" Package)" = gymtimer ] || die "$1 is not the gymtimer package"
  here_arch=$(dpkg --print-architecture)
  [ "$arch" = "$here_arch" ] || die "$1 is for $arch, this system is $here_arch: use gymtimer_*_$here_arch.deb"
  echo "Installing GymTimer from $(basename "$deb")"
  if [ -f "$unit" ] || [ -e "$prefix/bin/gymtimer" ]; then
    systemctl disable --now gymtimer-config.path gymtimer.service >/dev/null 2>&1 || true
    rm -f "$unit" "$udev" "$watch_path" "$watch_service" "$dropin" "$prefix/bin/gymtimer" "$prefix/bin/gymtimer-console" \
      "$prefix/bin/gymtimer-central" "$prefix/share/doc/gymtimer/README.md"
    rm -rf "$prefix/share/doc/gymtimer/docs"
    systemctl daemon-reload 2>/dev/null || true
    say "removed the install made without a package (kept $config and /var/lib/gymtimer)"
  fi
  # The existing config stays (--force-confold): the package's example goes beside it as
  # config.toml.dpkg-dist when it differs.
  { apt-get update || true; } >"$aptlog" 2>&1
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -o Dpkg::Options::=--force-confold "$deb" >>"$aptlog" 2>&1; then
    tail -n 15 "$aptlog" >&2
    die "apt-get could not install $deb: see $aptlog"
  fi
  say "installed $(dpkg-query -W -f='${Package} ${Version} (${Architecture})' gymtimer)"
  /usr/bin/gymtimer check-config "$config" || die "fix $config, then: sudo systemctl restart gymtimer"
  say "service: $(systemctl is-enabled gymtimer.service 2>/dev/null || true), $(systemctl is-active gymtimer.service 2>/dev/null || true)"
  say "remove with: sudo apt remove gymtimer (keeps config and history); apt purge deletes them"
  exit 0
}

binary=""
case "${1:-}" in
  *.deb) [ "$(id -u)" -eq 0 ] || die "run as root: sudo $0 $*"; install_package "$1" ;;
  --build-only) built=$(build); say "built $built"; exit 0 ;;
  --binary) binary=${2:-}; [ -n "$binary" ] || die "--binary needs a file"
    binary=$(realpath -e "$binary" 2>/dev/null) || die "no such binary: $2" ;;
  --uninstall|"") ;;
  *) die "unknown option $1 (use FILE.deb, --binary FILE, --build-only or --uninstall)" ;;
esac

[ "$(id -u)" -eq 0 ] || die "run as root: sudo $0 $*"

if [ "${1:-}" = "--uninstall" ]; then
  echo "Removing GymTimer"
  systemctl disable --now gymtimer-config.path 2>/dev/null || true
  systemctl disable --now gymtimer.service 2>/dev/null && say "stopped and disabled the service" || true
  rm -f "$unit" "$udev" "$watch_path" "$watch_service" "$dropin" "$prefix/bin/gymtimer" "$prefix/bin/gymtimer-console" \
    "$prefix/bin/gymtimer-central" && say "removed $unit, $udev, $prefix/bin/gymtimer, $prefix/bin/gymtimer-console, $prefix/bin/gymtimer-central"
  rmdir "$(dirname "$dropin")" 2>/dev/null || true
  systemctl daemon-reload
  say "kept $config and /var/lib/gymtimer (your history); delete them by hand if you want"
  exit 0
fi

echo "Installing GymTimer"

# 1. The system: Debian 13 / Raspberry Pi OS trixie (libgpiod 2) or Debian 12 / bookworm (1.6).
. /etc/os-release
case "${VERSION_CODENAME:-}" in
  bookworm|trixie) say "system: $PRETTY_NAME" ;;
  *) say "warning: untested system $PRETTY_NAME (made for Debian 13 trixie and 12 bookworm)" ;;
esac

# 2. Packages. The same names on both releases: libgpiod-dev is libgpiod 1.6 (libgpiod2) on
# bookworm and 2.2 (libgpiod3) on trixie, libasound2-dev pulls libasound2 or libasound2t64;
# libmosquitto-dev brings libmosquitto1, the fleet's MQTT client; libnfc6 is the card reader's
# library (loaded only when [hardware] nfc names a reader);
# the -dev packages bring the right runtime libraries for a --binary install too.
packages=(libgpiod-dev gpiod libasound2-dev libsqlite3-dev libmosquitto-dev libnfc6 alsa-utils espeak-ng pkg-config)
missing=()
for p in "${packages[@]}"; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  say "installing packages: ${missing[*]} (apt's output: $aptlog)"
  if ! { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"; } >"$aptlog" 2>&1; then
    tail -n 15 "$aptlog" >&2
    die "apt-get could not install ${missing[*]}: see $aptlog (no network? another apt running?)"
  fi
  say "installed packages: ${missing[*]}"
else
  say "packages already installed"
fi
gpiod_version=$(pkg-config --modversion libgpiod)
say "libgpiod on this system: $gpiod_version ($( [ "${gpiod_version%%.*}" -ge 2 ] && echo "v2 API" || echo "v1 API"))"

# 3. Build (unless given a binary) and install it; debug info stripped, symbols kept for backtraces.
[ -n "$binary" ] || binary=$(build)
# A binary built on the other release links the other libgpiod (libgpiod.so.2 is bookworm's
# 1.6, libgpiod.so.3 trixie's 2.x): say so in one line, before touching the installed one.
if unresolved=$(ldd "$binary" 2>/dev/null | awk '/=> not found/{print $1}' | paste -sd, -) && [ -n "$unresolved" ]; then
  die "$binary cannot run on $PRETTY_NAME: it needs $unresolved, which this system does not have (built on another release: build it here, or with --build-only on a machine running $PRETTY_NAME)"
fi
"$binary" --help >/dev/null 2>&1 || die "$binary does not run here (built for another OS or CPU?)"
install -m 0755 "$binary" "$prefix/bin/gymtimer.new"
! command -v strip >/dev/null || strip --strip-debug "$prefix/bin/gymtimer.new"
mv -f "$prefix/bin/gymtimer.new" "$prefix/bin/gymtimer"
install -D -m 0644 "$repo/README.md" "$prefix/share/doc/gymtimer/README.md"
install -D -m 0644 -t "$prefix/share/doc/gymtimer/docs" "$repo"/docs/*.md   # the guides the README and messages name
say "installed $prefix/bin/gymtimer"
# The programs gymtimer runs from its own directory, built beside the binary: the coach's
# console (`gymtimer console`) and a chain's central store (`gymtimer collect|history --db
# postgresql://…`). Without one the kiosk works, and the command says what is missing.
install_sibling() {  # NAME COMMAND
  local program=$(dirname "$binary")/$1
  if [ -x "$program" ]; then
    install -m 0755 "$program" "$prefix/bin/$1.new"
    ! command -v strip >/dev/null || strip --strip-debug "$prefix/bin/$1.new"
    mv -f "$prefix/bin/$1.new" "$prefix/bin/$1"
    say "installed $prefix/bin/$1"
  else
    say "warning: no $1 beside $binary: the kiosk is installed, \`$2\` is not (copy it there and run this again)"
  fi
}
install_sibling gymtimer-console "gymtimer console"
install_sibling gymtimer-central "gymtimer collect --db postgresql://…"

# 4. The service user, in the device groups.
for group in gpio i2c spi audio dialout; do getent group "$group" >/dev/null || groupadd --system "$group"; done
if ! id gymtimer >/dev/null 2>&1; then
  useradd --system --no-create-home --home-dir /var/lib/gymtimer --shell /usr/sbin/nologin gymtimer
  say "created user gymtimer"
fi
usermod -a -G gpio,i2c,spi,audio,dialout gymtimer
# The history is readable by the gymtimer group only: let the owner who ran sudo read it.
if [ -n "${SUDO_USER:-}" ] && [ "$SUDO_USER" != root ] && id "$SUDO_USER" >/dev/null 2>&1; then
  usermod -a -G gymtimer "$SUDO_USER"
  say "added $SUDO_USER to the gymtimer group (log in again to read the history without sudo)"
fi

# 5. Device permissions: Raspberry Pi OS already gives these groups; plain Debian does not.
cat > "$udev" <<'RULES'
SUBSYSTEM=="gpio", KERNEL=="gpiochip*", GROUP="gpio", MODE="0660"
SUBSYSTEM=="i2c-dev", GROUP="i2c", MODE="0660"
SUBSYSTEM=="spidev", GROUP="spi", MODE="0660"
RULES
udevadm control --reload-rules && udevadm trigger --subsystem-match=gpio --subsystem-match=i2c-dev --subsystem-match=spidev || true
say "udev rules in $udev"

# 6. The config, never overwritten.
install -d -m 0755 /etc/gymtimer
if [ -f "$config" ]; then
  say "kept your $config"
else
  install -m 0644 "$here/config.example.toml" "$config"
  say "installed $config from the example (edit it to match your wiring)"
fi
"$prefix/bin/gymtimer" check-config "$config" || die "fix $config, then run this again"

# 7. The service; with a [fleet], its network opened to the broker only (no [fleet]: none).
install -m 0644 "$here/gymtimer.service" "$unit"
install -m 0644 "$here/gymtimer-config.path" "$watch_path"
install -m 0644 "$here/gymtimer-config.service" "$watch_service"
install -d -m 0755 "$(dirname "$dropin")"
if rule=$("$prefix/bin/gymtimer" unit-network --config "$config" --write "$dropin" 2>&1); then
  say "network: ${rule#"$dropin": }"
else
  # The kiosk still runs, alone; a fixed config (or name) is picked up by gymtimer-config.path.
  say "warning: ${rule#gymtimer: }"
fi
systemctl daemon-reload
systemctl enable gymtimer.service >/dev/null
systemctl enable --now gymtimer-config.path >/dev/null
systemctl restart gymtimer.service
say "service enabled and started"

cat <<NEXT

Done. Next:
  sudo systemctl stop gymtimer && gymtimer selftest --config $config   # check the wiring, then
  sudo systemctl start gymtimer
  journalctl -u gymtimer -f        # one line per fault, never per tick
  gymtimer history && gymtimer stats   # as a member of the gymtimer group, or with sudo
NEXT
