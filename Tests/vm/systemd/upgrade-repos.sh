#!/usr/bin/env bash
# The gym's package source for the install VM's upgrade step (guest_upgrade.py), made on the host
# with Debian's tools as docs/upgrades.md has the gym owner make it: a gpg key of the gym's and
# reprepro repositories signed with it, served by vm-test.sh over HTTP (10.0.2.2 in the guest):
#   OUT/gym.asc          the gym's public key (the guest's /etc/apt/keyrings/gymtimer.asc)
#   OUT/next/            gymtimer and gymtimer-server VERSION-2 (what the station upgrades to once idle)
#   OUT/later/           VERSION-3 (the forced upgrade, mid-rest)
#   OUT/forged/          VERSION-4, signed by another key: apt must refuse it
# from the packages the test command built (VERSION-1, which the guest installs first), each
# re-versioned with dpkg-deb (the server's exact Depends on gymtimer too).
# Usage: Tests/vm/systemd/upgrade-repos.sh OUT GYMTIMER_DEB SERVER_DEB
set -euo pipefail
out=$1 deb=$(realpath -e "$2") srvdeb=$(realpath -e "$3")
for t in reprepro gpg dpkg-deb; do command -v $t >/dev/null || { echo "upgrade-repos.sh: no $t (scripts/install-deps.sh --tests)"; exit 1; }; done
rm -rf "$out"; mkdir -p "$out"
work=$(mktemp -d)
# gpg's agents end with the keys' folders.
trap 'for h in "$work/gym" "$work/stranger"; do [ ! -d "$h" ] || gpgconf --homedir "$h" --kill gpg-agent 2>/dev/null; done; rm -rf "$work"' EXIT
version=$(dpkg-deb -f "$deb" Version); upstream=${version%-*}

# The gym's key and a stranger's, without a passphrase (reprepro signs unattended).
key() {  # key HOME NAME: a signing key in gpg home HOME; prints its fingerprint
  mkdir -p -m 700 "$1"
  GNUPGHOME=$1 gpg --batch --quiet --pinentry-mode loopback --passphrase '' \
    --quick-gen-key "$2 <$2@gymtimer.invalid>" ed25519 sign never 2>/dev/null
  GNUPGHOME=$1 gpg --batch --with-colons --list-keys 2>/dev/null | awk -F: '/^fpr/{print $10; exit}'
}
gym=$(key "$work/gym" "gym-apt") stranger=$(key "$work/stranger" "stranger")
GNUPGHOME=$work/gym gpg --batch --armor --export "$gym" > "$out/gym.asc"

reversion() {  # reversion DEB NEWVERSION OUTDIR: DEB as NEWVERSION (and = NEWVERSION on gymtimer)
  local dir=$work/unpack; rm -rf "$dir"
  dpkg-deb -R "$1" "$dir"
  sed -i -e "s/^Version: .*/Version: $2/" -e "s/gymtimer (= [^)]*)/gymtimer (= $2)/" "$dir/DEBIAN/control"
  # gzip -1: xz takes a minute a package on a loaded CI machine, and these only cross loopback.
  dpkg-deb --root-owner-group -Zgzip -z1 -b "$dir" "$3/$(dpkg-deb -f "$1" Package)_$2_$(dpkg-deb -f "$1" Architecture).deb" >/dev/null
}
repo() {  # repo NAME REVISION GPGHOME FINGERPRINT
  local dir=$out/$1 v=$upstream-$2
  mkdir -p "$dir/conf" "$work/$1"
  printf 'Origin: GymTimer\nLabel: GymTimer\nCodename: gym\nArchitectures: amd64 arm64\nComponents: main\nDescription: the gym'"'"'s GymTimer packages\nSignWith: %s\n' \
    "$4" > "$dir/conf/distributions"
  reversion "$deb" "$v" "$work/$1"; reversion "$srvdeb" "$v" "$work/$1"
  GNUPGHOME=$3 reprepro -b "$dir" --silent includedeb gym "$work/$1"/*.deb
  rm -rf "$dir/conf" "$dir/db"   # what is served: dists/ and pool/ only
  echo "upgrade-repos: $1/ offers $v: $(find "$dir/pool" -name "*.deb" -printf "%f " )"
}
repo next 2 "$work/gym" "$gym"
repo later 3 "$work/gym" "$gym"
repo forged 4 "$work/stranger" "$stranger"
