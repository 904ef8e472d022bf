#!/usr/bin/env bash
# The gym's own package source (docs/upgrades.md, "The gym's package source"), its commands run
# as written: each ```sh block marked `<!-- signed-repo: GROUP -->` there is taken from the page
# itself, so the page and this test cannot drift apart.
#   Tests/package/signed-repo.sh gymtimer_<version>_amd64.deb   the server on Debian 13, then 12
#   Tests/package/signed-repo.sh --server trixie|bookworm gymtimer_<version>_amd64.deb
#   Tests/package/signed-repo.sh --prepare   only the cached roots (the background prefetch)
# Chroots: the gym's server, Debian 13 (from Tests/package/lifecycle.sh's clean root) or 12 (a
# minbase debootstrap of its own, .build-arm64/repotest-bookworm), with the `server-install`
# block run once into .build-arm64/repotest-server-<release>, and a Debian 13 station
# (`station-install`, .build-arm64/repotest-station); each run works on fresh copies. The
# `server` blocks make the key and the repository and serve it with nginx, the `publish` block
# adds a package, the `station` blocks fetch the key and refresh the gym's source alone.
# Both chroots run in a network namespace of their own (the station finds gym-server.local at
# 127.0.0.1 there), so nginx's port 80 is never the host's. systemd does not run in a chroot:
# the test starts nginx as the package's unit would, and a stand-in `systemctl` does only
# `reload nginx` (nginx -s reload).
# The package goes in at its own version, then re-versioned newer (dpkg-deb -R, Version, -b):
# the station's Candidate follows the newest. Then a third version the station must NOT see:
# its InRelease and Release altered after signing (sqv: "Message has been manipulated"), then
# without any signature (apt: "is no longer signed"), then signed by another key (sqv: "Missing key
# …"); each time the page's apt-get update fails (exit 100, --error-on=any) and the Candidate
# stays the last verified one; the same repository signed again with the gym's key is taken.
# The package is never installed here (its Depends are the install VM's business):
# apt-cache policy and apt-get download (the file apt verified) are enough.
set -euo pipefail
cd "$(dirname "$0")/../.."
top=$(pwd)
clean=$top/.build-arm64/pkgtest
fail() { echo "signed repository: FAIL ($*)"; exit 1; }
CANNOT_RUN_STAGE="signed repository"; . scripts/lib/cannot-run.sh
[ "$(id -u)" = 0 ] || cannot_run "needs root for chroot and a network namespace"
require_tools debootstrap dpkg-deb ip curl
usage="usage: $0 [--server trixie|bookworm] gymtimer_<version>_amd64.deb | --prepare"
prepare=false release=
case "${1:-}" in
  --prepare) prepare=true ;;
  --server) case "${2:-}" in trixie|bookworm) release=$2 ;; *) fail "$usage" ;; esac
            [ -n "${3:-}" ] || fail "$usage"; deb=$(realpath -e "$3" 2>/dev/null) || fail "no such package: $3" ;;
  ''|-*) fail "$usage" ;;
  *) deb=$(realpath -e "$1" 2>/dev/null) || fail "no such package: $1"   # both servers, one after the other
     "$0" --server trixie "$deb"; exec "$0" --server bookworm "$deb" ;;
esac

# The ```sh blocks of docs/upgrades.md under `<!-- signed-repo: GROUP -->`, in the page's order.
doc_blocks() {
  awk -v want="$1" '
    inside && /^```/ { inside = 0; next }
    inside { if (take) print; next }
    /^<!-- signed-repo: [a-z-]+ -->$/ { mark = $3; next }
    /^```/ { inside = 1; take = (mark == want); mark = ""; next }
    NF { mark = "" }' docs/upgrades.md
}
for group in server-install server publish station-install station; do
  [ -n "$(doc_blocks $group)" ] || fail "docs/upgrades.md has no block marked <!-- signed-repo: $group -->"
done

# A chroot's shell as root's login would have it; the block as one bash script (set -e).
PATH_IN=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
in_root() { local r=$1; shift; chroot "$r" env -i HOME=/root PATH=$PATH_IN DEBIAN_FRONTEND=noninteractive "$@"; }

# The cached roots: the clean root with the install block run in it (with Debian's archive, the
# host's network; policy-rc.d keeps the package's nginx from starting on the host's port 80).
# The block's text is kept in the root: a changed block makes the root again.
clean_root() {   # RELEASE: a clean minbase root of it, made once, in $from
  if [ "$1" = trixie ]; then
    [ -x "$clean/usr/bin/dpkg" ] || Tests/package/lifecycle.sh --prepare >/dev/null || fail "the clean root (Tests/package/lifecycle.sh --prepare)"
    from=$clean; return
  fi
  local r=$top/.build-arm64/repotest-$1
  if [ ! -x "$r/usr/bin/dpkg" ]; then
    rm -rf "$r.tmp"
    debootstrap --variant=minbase "$1" "$r.tmp" http://deb.debian.org/debian >/tmp/gymtimer-repotest-debootstrap.log 2>&1 \
      || { tail -5 /tmp/gymtimer-repotest-debootstrap.log >&2; fail "debootstrap $1"; }
    rm -rf "$r"; mv "$r.tmp" "$r"
  fi
  from=$r
}
prepared() {   # NAME GROUP RELEASE
  local name=$1 group=$2 r=$top/.build-arm64/$1 code from
  code=$(doc_blocks "$group")
  if [ -f "$r/.signed-repo-prepared" ] && [ "$(cat "$r/.signed-repo-prepared")" = "$code" ]; then return; fi
  clean_root "$3"
  echo "== signed repository: the $name root, with docs/upgrades.md's $group block run in it"
  rm -rf "$r.tmp"; cp -a "$from" "$r.tmp"
  printf '#!/bin/sh\nexit 101\n' > "$r.tmp/usr/sbin/policy-rc.d"; chmod 755 "$r.tmp/usr/sbin/policy-rc.d"
  in_root "$r.tmp" bash -ec "$code" >"$r.tmp/prepare.log" 2>&1 || { tail -15 "$r.tmp/prepare.log"; fail "docs/upgrades.md's $group block"; }
  printf '%s' "$code" > "$r.tmp/.signed-repo-prepared"
  rm -rf "$r"; mv "$r.tmp" "$r"
}
prepared repotest-station station-install trixie
if $prepare; then
  prepared repotest-server-trixie server-install trixie
  prepared repotest-server-bookworm server-install bookworm
  echo "signed repository: the servers' (Debian 13 and 12) and the station's roots are ready"; exit 0
fi
prepared "repotest-server-$release" server-install "$release"

# Fresh copies for this run, a network namespace of their own; everything undone on exit.
srv=$top/.build-arm64/repotest-server-$release.run sta=$top/.build-arm64/repotest-station.run
ns=gymtimer-repo-$$
cleanup() {
  if [ -f "$srv/run/nginx.pid" ]; then
    local pid; pid=$(cat "$srv/run/nginx.pid")
    in_ns "$srv" nginx -s stop 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  fi
  [ -d "$srv/root/.gnupg" ] && in_root "$srv" gpgconf --kill all 2>/dev/null || true
  [ -d "$srv/root/other-key" ] && in_root "$srv" env GNUPGHOME=/root/other-key gpgconf --kill all 2>/dev/null || true
  ip netns delete "$ns" 2>/dev/null || true
  rm -rf "$srv" "$sta"
}
in_ns() { local r=$1; shift; ip netns exec "$ns" chroot "$r" env -i HOME=/root PATH=$PATH_IN DEBIAN_FRONTEND=noninteractive "$@"; }
rm -rf "$srv" "$sta"
trap cleanup EXIT
cp -a "$top/.build-arm64/repotest-server-$release" "$srv"; cp -a "$top/.build-arm64/repotest-station" "$sta"
ip netns add "$ns"; ip netns exec "$ns" ip link set lo up
echo "127.0.0.1 gym-server.local" >> "$sta/etc/hosts"
cat > "$srv/usr/local/sbin/systemctl" <<'EOF'
#!/bin/sh
# The test's stand-in: no systemd runs in a chroot (Tests/package/signed-repo.sh).
[ "$*" = "reload nginx" ] || { echo "systemctl stand-in: only 'reload nginx', not '$*'" >&2; exit 1; }
exec nginx -s reload
EOF
chmod 755 "$srv/usr/local/sbin/systemctl"
log=$top/.build-arm64/signed-repo-$release.log; : > "$log"
run_block() {   # ROOT GROUP: the page's blocks of GROUP, as written, in the namespace
  local out rc=0
  out=$(in_ns "$1" bash -ec "$(doc_blocks "$2")" 2>&1) || rc=$?
  printf '== %s (%s)\n%s\n' "$2" "$(basename "$1")" "$out" >> "$log"
  [ $rc = 0 ] || { echo "$out" | tail -15; fail "docs/upgrades.md's $2 block exited $rc"; }
  printf '%s' "$out"
}
station_update() {   # the station's refresh of the gym's source alone (the page's own line)
  local line; line=$(doc_blocks station | grep '^apt-get update ')
  [ -n "$line" ] || fail "docs/upgrades.md's station block has no apt-get update line"
  in_ns "$sta" bash -c "$line" 2>&1
}
candidate() { in_ns "$sta" apt-cache policy gymtimer | awk '/Candidate:/ {print $2}'; }

# Versions: the package's own, and two newer ones made from it.
v1=$(dpkg-deb -f "$deb" Version) work=$(mktemp -d); trap 'cleanup; rm -rf "$work"' EXIT
reversion() {   # VERSION: the same package as $work/gymtimer_VERSION_amd64.deb
  rm -rf "$work/tree"; dpkg-deb -R "$deb" "$work/tree"
  sed -i "s/^Version: .*/Version: $1/" "$work/tree/DEBIAN/control"
  dpkg-deb -Zgzip -z1 -b "$work/tree" "$work/gymtimer_$1_amd64.deb" >/dev/null
}
v2=${v1%-*}-$(( ${v1##*-} + 1 )) v3=${v1%-*}-$(( ${v1##*-} + 2 ))
reversion "$v2"; reversion "$v3"

# The server, once: the key, the repository, nginx. The package's unit would have started
# nginx at install: here the test does.
in_ns "$srv" nginx || fail "nginx does not start"
out=$(run_block "$srv" server)
server_sum=$(echo "$out" | awk '$2 == "/srv/gymtimer/apt/www/gymtimer.asc" {print $1}')
[ -n "$server_sum" ] || fail "the server block printed no sha256sum of the key: $out"
for _ in $(seq 50); do   # nginx -s reload returns before the new workers serve the new site
  ip netns exec "$ns" curl -fsS -o /dev/null http://127.0.0.1/gymtimer.asc 2>/dev/null && break
  sleep 0.2
done
ip netns exec "$ns" curl -fsS http://127.0.0.1/dists/trixie/InRelease | grep -q '^-----BEGIN PGP SIGNED MESSAGE-----' || fail "nginx does not serve a signed InRelease"
echo "server (Debian $(cat "$srv/etc/debian_version")): the gym's key made (sha256 ${server_sum:0:16}…), the empty repository signed and served by nginx"

# Each change of the repository a second after the last: HTTP's Last-Modified counts seconds,
# and nginx answers "not modified" to a station whose copy has the same second.
next_second() { local t=$(date +%s); while [ "$(date +%s)" = "$t" ]; do sleep 0.1; done; }
publish() {   # VERSION DEB: copied into /srv/gymtimer/new as the page says, then its publish block
  next_second
  cp "$2" "$srv/srv/gymtimer/new/"
  out=$(run_block "$srv" publish)
  echo "$out" | grep -qx "trixie|main|amd64: gymtimer $1" || fail "reprepro list after publishing $1: $out"
}
publish "$v1" "$deb"
echo "publish $v1: reprepro lists trixie|main|amd64: gymtimer $v1"

# The station, once: the key (the same sha256 as the server's), the source, the update.
out=$(run_block "$sta" station)
echo "$out" | grep -q "^$server_sum  /etc/apt/keyrings/gymtimer.asc$" || fail "the station's key is not the server's: $out"
grep -qx 'Signed-By: /etc/apt/keyrings/gymtimer.asc' "$sta/etc/apt/sources.list.d/gymtimer.sources" || fail "no Signed-By in gymtimer.sources"
! grep -qi trusted "$sta/etc/apt/sources.list.d/gymtimer.sources" || fail "gymtimer.sources trusts without a signature"
echo "$out" | grep -q "^Get:.* http://gym-server.local trixie InRelease" || fail "the station's update did not fetch the gym's InRelease: $out"
! echo "$out" | grep -q deb.debian.org || fail "the station's update refreshed more than the gym's source: $out"
[ "$(candidate)" = "$v1" ] || fail "the station's Candidate is $(candidate), not $v1"
echo "station: key sha256 matches the server's; apt-get update of gymtimer.sources alone: $(echo "$out" | grep -m1 '^Get:.*InRelease')"
echo "station: apt-cache policy gymtimer: Candidate: $v1"

publish "$v2" "$work/gymtimer_${v2}_amd64.deb"
out=$(station_update) || fail "apt-get update after $v2 was published: $out"
[ "$(candidate)" = "$v2" ] || fail "the station's Candidate is $(candidate) after $v2 was published"
in_ns "$sta" sh -c "cd /tmp && apt-get download -q gymtimer" >>"$log" 2>&1 || fail "apt-get download gymtimer ($v2)"
[ "$(dpkg-deb -f "$sta/tmp/gymtimer_${v2}_amd64.deb" Version)" = "$v2" ] || fail "apt-get download did not fetch $v2"
echo "publish $v2, station update: Candidate: $v2; apt-get download gymtimer fetched gymtimer_${v2}_amd64.deb"

# refused WHAT PATTERN: the station's update fails with apt's error matching PATTERN and the
# Candidate stays the last version it verified.
refused() {
  local rc=0 out
  out=$(station_update) || rc=$?
  printf '== %s\n%s\n' "$1" "$out" >> "$log"
  [ $rc != 0 ] || fail "apt-get update took the $1 repository (exit 0): $out"
  echo "$out" | grep -q "$2" || fail "no signature error for the $1 repository: $out"
  [ "$(candidate)" = "$v2" ] || fail "after the $1 repository the Candidate is $(candidate), not $v2"
  echo "$1: apt-get update exit $rc; Candidate stays $v2:"; echo "$out" | grep '^[EW]:' | sed 's/^/  /'
}

# A third version the station must not take: altered after signing, then signed by another key.
publish "$v3" "$work/gymtimer_${v3}_amd64.deb"
dists=$srv/srv/gymtimer/apt/www/dists/trixie
cp "$dists/Release" "$work/Release.good"
sed -i 's/^Label: GymTimer$/Label: GymTimer, altered/' "$dists/InRelease" "$dists/Release"
grep -q '^Label: GymTimer, altered$' "$dists/InRelease" || fail "the test did not alter InRelease"
refused "altered" "^W: .*OpenPGP signature verification failed: http://gym-server.local trixie InRelease: .*Message has been manipulated"


# Unsigned: InRelease and Release.gpg gone (what `trusted=yes` would let through).
cp "$work/Release.good" "$dists/Release"; rm "$dists/InRelease" "$dists/Release.gpg"
refused "unsigned" "^E: The repository 'http://gym-server.local trixie Release' is no longer signed"

next_second
in_ns "$srv" bash -ec 'export GNUPGHOME=/root/other-key; mkdir -m 700 $GNUPGHOME
  gpg -q --batch --passphrase "" --quick-gen-key "Someone else" ed25519 sign never
  cd /srv/gymtimer/apt/www/dists/trixie; rm -f InRelease Release.gpg
  gpg -q --batch --clearsign -o InRelease Release; gpg -q --batch -abs -o Release.gpg Release' >>"$log" 2>&1 || fail "signing with another key"
refused "another key" "^W: .*OpenPGP signature verification failed: http://gym-server.local trixie InRelease: .*Missing key"


# The same repository signed by the gym's key again: taken (the refusals were the signatures').
next_second
in_ns "$srv" reprepro -b /srv/gymtimer/apt export trixie >>"$log" 2>&1 || fail "reprepro export"
out=$(station_update) || fail "apt-get update of the gym's own signature again: $out"
[ "$(candidate)" = "$v3" ] || fail "signed by the gym again, the Candidate is $(candidate), not $v3"
echo "signed by the gym's key again: Candidate: $v3"
echo "signed repository: passed (docs/upgrades.md's commands as written, the server on $release; $(basename "$deb") as $v1, $v2, $v3)"
