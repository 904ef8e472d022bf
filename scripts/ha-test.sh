#!/usr/bin/env bash
# ha-test.sh: one headless station against a REAL Home Assistant Core (issue 23, fleet.md).
#
# Home Assistant 2026.11 needs Python 3.14, which only Debian sid has: it runs from a venv in a
# sid chroot (debootstrap) that shares this machine's network, so Mosquitto on 127.0.0.1 is
# the same broker for Home Assistant and the station. Everything downloaded and built is kept
# under .build-ha/ (keyed on the pinned version): the first run takes minutes, later ones
# seconds. Each run starts Home Assistant with a fresh config, onboards it, adds its MQTT
# integration through its own REST API and checks, with bounded waits, what a gym relies on:
# the station is one device with its entities, linked to the gym's console; its Start button
# starts it, Pause and Resume pause and resume it, its notify entity shows the floor message;
# its select picks a
# mode; its countdown sensor holds the station's deadline; its event entity sees phase
# changes; Home Assistant's birth message brings the discovery back; a stopped station's
# entities are unavailable.
#
# Needs root (debootstrap, chroot, mount namespaces). Without root, a tool, or with nothing cached
# and no way to Debian's archive and PyPI, it says why on one line and exits 77 (cannot run:
# scripts/lib/cannot-run.sh), which fails the test command under CI.
# Usage: scripts/ha-test.sh [path/to/gymtimer]   (default .build/release/gymtimer)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
GYMTIMER=$(realpath -m "${1:-.build/release/gymtimer}")
HA_VERSION=2026.11.0
SUITE=sid
MIRROR=${HA_MIRROR:-http://deb.debian.org/debian}
WORK=${HA_WORK:-$ROOT/.build-ha}
KEY=$SUITE-ha$HA_VERSION
R=$WORK/rootfs-$KEY              # the chroot: Debian sid + /opt/ha (the venv)
CACHE=$WORK/cache                # .deb and wheel downloads, kept across rebuilds
RUN=$WORK/run                    # this run's config, logs and traces (replaced each run)
STATION=ha-rack
NODE=gymtimer_$STATION           # the device id in Home Assistant's discovery
EID=gymtimer_${STATION//-/_}     # the entity-id stem the discovery asks for
WAIT=${HA_WAIT:-60}              # the bound of every wait for Home Assistant or the station

say() { printf '[ha %(%H:%M:%S)T] %s\n' -1 "$*" >&2; }
CANNOT_RUN_STAGE="ha test"; . scripts/lib/cannot-run.sh
die() { say "FAILED: $*"; exit 1; }
clock() { date +%s.%N; }
T0=$(clock)
elapsed() { awk -v a="$1" -v b="$(clock)" 'BEGIN { printf "%.1f", b - a }'; }
# until: up to $1 seconds for the command to succeed (polled twice a second)
until_ok() {
  local end=$(( $(date +%s) + $1 )); shift
  until "$@" >/dev/null 2>&1; do [ "$(date +%s)" -lt "$end" ] || return 1; sleep 0.5; done
}
FAILED=0
check() { # check NAME COMMAND...: one PASS/FAIL line, the run fails at the end on any FAIL
  local name=$1; shift
  if "$@"; then say "PASS $name"; else say "FAIL $name"; FAILED=1; fi
}

[ "$(id -u)" = 0 ] || cannot_run "needs root for debootstrap and chroot"
require_tools debootstrap mosquitto curl jq unshare python3
if [ ! -f "$R/opt/ha/.ready" ]; then
  curl -sfI --max-time 10 "$MIRROR/dists/$SUITE/InRelease" >/dev/null \
    && curl -sfI --max-time 10 https://pypi.org/simple/homeassistant/ >/dev/null \
    || cannot_run "nothing cached in $WORK and no network to Debian's archive and PyPI"
fi
mkdir -p "$CACHE/apt" "$CACHE/pip" "$CACHE/debootstrap"
rm -rf "$RUN"; mkdir -p "$RUN"

# The chroot runner: a private mount namespace per call, so that no mount outlives it or
# reaches the host. HA_BINDS holds "host=chroot" directory pairs; HA_EXEC=1 execs the command
# (hass keeps the runner's pid, so a signal to it reaches hass).
mkdir -p "$WORK/bin"
cat > "$WORK/bin/inroot" <<'EOF'
#!/bin/bash
set -e
root=$1; shift
mount -t proc proc "$root/proc"
mount -t sysfs -o ro sysfs "$root/sys"
mount --rbind /dev "$root/dev"
mount -t tmpfs -o size=256m,mode=1777 tmpfs "$root/dev/shm"
for pair in ${HA_BINDS:-}; do
  mkdir -p "${pair%%=*}" "$root${pair#*=}"; mount --bind "${pair%%=*}" "$root${pair#*=}"
done
cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
env=(PATH=/opt/ha/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 TZ=UTC
     DEBIAN_FRONTEND=noninteractive PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_PROGRESS_BAR=off
     SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt)
if [ "${HA_EXEC:-0}" = 1 ]; then exec chroot "$root" /usr/bin/env -i "${env[@]}" "$@"; fi
chroot "$root" /usr/bin/env -i "${env[@]}" "$@"
EOF
chmod +x "$WORK/bin/inroot"
inroot() { unshare --mount --propagation private -- "$WORK/bin/inroot" "$R" "$@"; }
DOWNLOADS="$CACHE/apt=/var/cache/apt/archives $CACHE/pip=/root/.cache/pip"

# --- the root filesystem: Debian sid with Python 3.14 (cached) --------------------------------
build_rootfs() {
  [ -f "$R/.ready" ] && return 0
  local t; t=$(clock)
  findmnt -rn -o TARGET | grep -q "^$R/" && die "something is still mounted below $R"
  rm -rf "$R"
  say "debootstrap $SUITE (once; cached in $R)"
  debootstrap --variant=minbase --cache-dir="$CACHE/debootstrap" "$SUITE" "$R" "$MIRROR" \
    > "$RUN/debootstrap.log" 2>&1 || { tail -15 "$RUN/debootstrap.log"; die "debootstrap failed"; }
  # sid's Release has a Valid-Until a stale mirror may pass; no recommends keeps it small.
  printf 'Acquire::Check-Valid-Until "false";\nAPT::Install-Recommends "false";\n' > "$R/etc/apt/apt.conf.d/90gymtimer"
  # pymicro-vad and pyspeex-noise (default integrations) have no 3.14 wheels: a compiler builds them.
  HA_BINDS=$DOWNLOADS inroot sh -c 'apt-get update -q && apt-get install -y -q python3 python3-venv ca-certificates g++ python3-dev libturbojpeg0' \
    > "$RUN/apt.log" 2>&1 || { tail -15 "$RUN/apt.log"; die "apt-get in the chroot failed"; }
  rm -rf "$R"/var/lib/apt/lists/*
  touch "$R/.ready"
  say "rootfs built in $(elapsed "$t") s"
}

# --- the venv: homeassistant==pinned and what its default integrations and mqtt need --------
build_venv() {
  [ "$(cat "$R/opt/ha/.ready" 2>/dev/null)" = "$HA_VERSION" ] && return 0
  local t; t=$(clock)
  mkdir -p "$R/opt/gymtimer"
  # Home Assistant installs an integration's requirements when it first loads it: installed here
  # once, against its own constraints file, it installs nothing while the test runs.
  cat > "$R/opt/gymtimer/requirements.py" <<'EOF'
"""Prints the PyPI requirements of the integrations Home Assistant loads without a
configuration.yaml entry, plus those named on the command line, and their dependencies."""
import json, pathlib, sys
import homeassistant
from homeassistant import bootstrap
components = pathlib.Path(homeassistant.__file__).parent / "components"
wanted = set(sys.argv[1:])
for name in ("CORE_INTEGRATIONS", "LOGGING_AND_HTTP_DEPS_INTEGRATIONS", "FRONTEND_INTEGRATIONS",
             "RECORDER_INTEGRATIONS", "DEFAULT_INTEGRATIONS", "DEFAULT_INTEGRATIONS_SUPERVISOR"):
    wanted |= set(getattr(bootstrap, name, ()))
done, requirements = set(), set()
while wanted:
    domain = wanted.pop()
    if domain in done:
        continue
    done.add(domain)
    manifest = components / domain / "manifest.json"
    if manifest.exists():
        data = json.loads(manifest.read_text())
        requirements.update(data.get("requirements", []))
        wanted.update(data.get("dependencies", []) + data.get("after_dependencies", []))
print("\n".join(sorted(requirements)))
EOF
  rm -rf "$R/opt/ha"
  # A network behind a TLS-inspecting proxy: the CAs this machine added are trusted inside too.
  if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
    mkdir -p "$R/usr/local/share/ca-certificates"
    cp /usr/local/share/ca-certificates/*.crt "$R/usr/local/share/ca-certificates/"
    inroot update-ca-certificates > "$RUN/ca.log" 2>&1 || die "update-ca-certificates in the chroot failed"
  fi
  say "venv with homeassistant==$HA_VERSION (once; cached)"
  HA_BINDS=$DOWNLOADS inroot bash -ec "
    python3 -m venv /opt/ha
    /opt/ha/bin/pip install -q homeassistant==$HA_VERSION
    /opt/ha/bin/python /opt/gymtimer/requirements.py mqtt > /opt/gymtimer/requirements.txt
    /opt/ha/bin/pip install -q -r /opt/gymtimer/requirements.txt \
      -c /opt/ha/lib/python3*/site-packages/homeassistant/package_constraints.txt" \
    > "$RUN/pip.log" 2>&1 || { tail -20 "$RUN/pip.log"; die "installing Home Assistant failed"; }
  echo "$HA_VERSION" > "$R/opt/ha/.ready"
  say "venv built in $(elapsed "$t") s"
}

COLD=no
[ "$(cat "$R/opt/ha/.ready" 2>/dev/null)" = "$HA_VERSION" ] || COLD=yes
build_rootfs
build_venv
T_READY=$(clock)
[ "${HA_BUILD_ONLY:-0}" = 1 ] && { echo "ha test: built (cold: $COLD) in $(elapsed "$T0") s"; exit 0; }
[ -x "$GYMTIMER" ] || die "no gymtimer binary at $GYMTIMER (swift build first)"

# A tiny websocket client for the calls that have no REST form (the registries,
# http/config/promote): ws.py URL TOKEN TYPE [JSON] prints the result as JSON.
cat > "$R/opt/gymtimer/ws.py" <<'EOF'
import asyncio, json, sys
import aiohttp

async def main(url, token, kind, fields="{}"):
    async with aiohttp.ClientSession() as session, session.ws_connect(url) as ws:
        await ws.receive_json()
        await ws.send_json({"type": "auth", "access_token": token})
        if (await ws.receive_json()).get("type") != "auth_ok":
            sys.exit("websocket: not authenticated")
        await ws.send_json({"id": 1, "type": kind, **json.loads(fields)})
        while True:
            answer = await ws.receive_json()
            if answer.get("id") == 1:
                if not answer.get("success"):
                    sys.exit(json.dumps(answer))
                print(json.dumps(answer["result"]))
                return

asyncio.run(main(*sys.argv[1:]))
EOF

# --- Mosquitto, Home Assistant and one station, on 127.0.0.1 ---------------------------------
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
MQTT_PORT=$(free_port)
HA_PORT=$(free_port)
BASE=http://127.0.0.1:$HA_PORT
CONF=$RUN/config
MOSQUITTO_PID= HASS_PID= STATION_PID=
stop_pid() { # SIGTERM, up to 30 s, then SIGKILL
  local pid=$1
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 60); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.5; done
  kill -KILL "$pid" 2>/dev/null || true
}
cleanup() {
  local rc=$?
  stop_pid "$STATION_PID"; stop_pid "$HASS_PID"; stop_pid "$MOSQUITTO_PID"
  exit $rc
}
trap cleanup EXIT
trap 'say "FAILED at line $LINENO: $BASH_COMMAND"' ERR
trap 'exit 130' INT TERM

cat > "$RUN/mosquitto.conf" <<EOF
listener $MQTT_PORT 127.0.0.1
allow_anonymous true
persistence false
log_dest file $RUN/mosquitto.log
log_type all
EOF
mosquitto -c "$RUN/mosquitto.conf" > "$RUN/mosquitto.out" 2>&1 &
MOSQUITTO_PID=$!

mkdir -p "$CONF"
cat > "$CONF/configuration.yaml" <<EOF
homeassistant:
  name: GymTimer test
  unit_system: metric
  time_zone: UTC
  country: NL
  currency: EUR
  latitude: 52.37
  longitude: 4.89
  elevation: 0
http:
  server_host: 127.0.0.1
  server_port: $HA_PORT
logger:
  default: warning
  logs:
    homeassistant.bootstrap: info
    homeassistant.components.mqtt: debug
EOF
HA_EXEC=1 HA_BINDS="$CONF=$CONF" setsid unshare --mount --propagation private -- \
  "$WORK/bin/inroot" "$R" /opt/ha/bin/hass -c "$CONF" > "$RUN/hass.out" 2>&1 < /dev/null &
HASS_PID=$!
T_HASS=$(clock)

api() { # api METHOD PATH [JSON]: the body; fails on anything but 2xx
  local out code
  out=$(curl -sS --max-time 30 -X "$1" ${TOKEN:+-H "Authorization: Bearer $TOKEN"} \
        -H 'Content-Type: application/json' ${3:+-d "$3"} -w '\n%{http_code}' "$BASE$2") || return 1
  code=${out##*$'\n'}; printf '%s\n' "${out%$'\n'*}"
  [[ $code == 2* ]]
}
ws() { inroot /opt/ha/bin/python /opt/gymtimer/ws.py "ws://127.0.0.1:$HA_PORT/api/websocket" "$TOKEN" "$@"; }
state() { api GET "/api/states/$1" | jq -r .state; }

hass_up() { kill -0 "$HASS_PID" && api GET /api/onboarding | grep -q '"step"'; }
say "Home Assistant starting (pid $HASS_PID, port $HA_PORT; broker on $MQTT_PORT)"
until_ok 300 hass_up || { tail -20 "$RUN/hass.out" "$CONF/home-assistant.log" 2>/dev/null; die "Home Assistant did not answer in 300 s"; }
until_ok 300 grep -q 'Home Assistant initialized' "$CONF/home-assistant.log" || die "Home Assistant did not finish starting in 300 s"
say "Home Assistant answers after $(elapsed "$T_HASS") s"

# Onboarding: the owner account (its auth code becomes our token), then the steps a browser
# would take, but not core_config (it starts integrations that want the internet).
client="$BASE/"
code=$(api POST /api/onboarding/users "{\"client_id\":\"$client\",\"name\":\"Coach\",\"username\":\"coach\",\"password\":\"gymtimer-test-1\",\"language\":\"en\"}" | jq -r .auth_code) \
  || die "onboarding refused the owner account"
TOKEN=$(curl -sS --max-time 30 -X POST "$BASE/auth/token" -d grant_type=authorization_code -d "code=$code" -d "client_id=$client" | jq -r .access_token)
[ -n "$TOKEN" ] && [ "$TOKEN" != null ] || die "no access token"
api POST /api/onboarding/analytics '{}' >/dev/null
api POST /api/onboarding/integration "{\"client_id\":\"$client\",\"redirect_uri\":\"$BASE/?auth_callback=1\"}" >/dev/null
# 2026.11 takes configuration.yaml's http: as a trial that reverts (and restarts Home Assistant
# on every interface) after 5 minutes unless promoted.
ws http/config/promote >/dev/null || die "http/config/promote failed"

# The MQTT integration through its config flow, against our broker.
flow=$(api POST /api/config/config_entries/flow '{"handler":"mqtt","show_advanced_options":false}') || die "no MQTT config flow: $flow"
entry=$(api POST "/api/config/config_entries/flow/$(jq -r .flow_id <<<"$flow")" \
  "{\"broker\":\"127.0.0.1\",\"port\":$MQTT_PORT,\"protocol\":\"5\",\"other_settings\":{\"set_client_cert\":false,\"set_ca_cert\":\"off\",\"transport\":\"tcp\"}}") || die "MQTT config flow failed: $entry"
[ "$(jq -r .result.state <<<"$entry")" = loaded ] || die "MQTT integration not loaded: $entry"
T_CONFIGURED=$(clock)
say "onboarded, MQTT integration loaded ($(elapsed "$T_HASS") s after start)"

# The station: the debug binary, headless, its trace on stdout.
cat > "$RUN/$STATION.toml" <<EOF
[fleet]
broker = "mqtt://127.0.0.1:$MQTT_PORT"
station = "$STATION"
console_url = "http://gym-server.local:8080/"
EOF
# What the upgrade agent found (docs/upgrades.md): the gym's source offers a newer package.
mkdir -p "$RUN/$STATION/upgrade"
echo '{"installed":"0.9.0-1","latest":"0.9.0-2"}' > "$RUN/$STATION/upgrade/status.json"
start_station() {
  "$GYMTIMER" simulate --headless --config "$RUN/$STATION.toml" --data-dir "$RUN/$STATION" \
    < /dev/null >> "$RUN/$STATION.jsonl" 2>> "$RUN/$STATION.log" &
  STATION_PID=$!
}
start_station

# --- the checks ---------------------------------------------------------------------------------
ENTITIES="sensor.${EID}_state sensor.${EID}_display sensor.${EID}_remaining sensor.${EID}_ends
button.${EID}_start button.${EID}_dismiss button.${EID}_pause button.${EID}_resume button.${EID}_reset
number.${EID}_rest_seconds select.${EID}_mode notify.${EID}_message event.${EID}_event update.${EID}_update
sensor.${EID}_version sensor.${EID}_uptime binary_sensor.${EID}_clock_synchronised sensor.${EID}_clock_offset
sensor.${EID}_cpu_temp sensor.${EID}_disk_free sensor.${EID}_wifi_signal sensor.${EID}_last_fault binary_sensor.${EID}_problem"
device() { # the station's device and its entities, from Home Assistant's registries
  local devices entities
  devices=$(ws config/device_registry/list) && entities=$(ws config/entity_registry/list) || return 1
  jq -n --argjson d "$devices" --argjson e "$entities" --arg id "$NODE" \
    '[$d[] | select(any(.identifiers[]; . == ["mqtt", $id]))] as $mine
     | {devices: $mine, entities: [$e[] | select(.device_id != null and .device_id == $mine[0].id) | .entity_id] | sort}'
}
available() { local e s; for e in $ENTITIES; do s=$(state "$e") || return 1; [ "$s" != unavailable ] || return 1; done; }
all_unavailable() { local e; for e in $ENTITIES; do [ "$(state "$e")" = unavailable ] || return 1; done; }
one_device() {
  device > "$RUN/device.json" || return 1
  [ "$(jq '.devices | length' "$RUN/device.json")" = 1 ] \
    && [ "$(jq -r '.entities | join(" ")' "$RUN/device.json")" = "$(tr ' ' '\n' <<<"$ENTITIES" | grep . | sort | tr '\n' ' ' | sed 's/ $//')" ]
}
until_ok "$WAIT" one_device || true; check "one device with its $(wc -w <<<"$ENTITIES") entities (registries)" one_device \
  || true
say "device: $(jq -c '{name: .devices[0].name, sw: .devices[0].sw_version, entities}' "$RUN/device.json" 2>/dev/null)"
until_ok "$WAIT" available || true; check "entities available once the station is online" available
T_DISCOVERED=$(clock)
# The device links to the gym's console (console_url), the support page of its origin too.
console_link() { [ "$(jq -r '.devices[0].configuration_url' "$RUN/device.json")" = "http://gym-server.local:8080/" ]; }
check "the device links to the gym's console (its configuration URL)" console_link

# The station's health as diagnostic entities (the headless station's simulated machine: 45 °C,
# half its disk free, its clock synchronised, nothing flagged).
diagnostics() {
  [ "$(state "sensor.${EID}_version")" = "$("$GYMTIMER" --version)" ] && [ "$(state "sensor.${EID}_cpu_temp")" = 45 ] \
    && [ "$(state "sensor.${EID}_disk_free")" = 50 ] && [ "$(state "binary_sensor.${EID}_clock_synchronised")" = on ] \
    && [ "$(state "binary_sensor.${EID}_problem")" = off ] && [ "$(state "sensor.${EID}_last_fault")" = none ]
}
until_ok "$WAIT" diagnostics || true
check "the diagnostic entities show the station's health (version, 45 °C, 50 % free, clock synchronised, no problem)" diagnostics
# The update entity: both versions; its install action asks the station, which hands it to its
# agent (the request file); the package step is a test double here (the install VM runs the real
# one): it installs by writing the agent's new status and restarting the kiosk, as the package's
# maintainer scripts do.
versions() { api GET "/api/states/update.${EID}_update" | jq -r '"\(.state) \(.attributes.installed_version) \(.attributes.latest_version)"'; }
offered() { [ "$(versions)" = "on 0.9.0-1 0.9.0-2" ]; }
until_ok "$WAIT" offered || true; check "the update entity shows the installed 0.9.0-1 and the gym's latest 0.9.0-2" offered
api POST /api/services/update/install "{\"entity_id\":\"update.${EID}_update\"}" >/dev/null || say "Home Assistant refused: update.install"
requested() { [ -f "$RUN/$STATION/upgrade/request" ]; }
until_ok "$WAIT" requested || true; check "its install action reaches the station's upgrade agent (the request written)" requested
echo '{"installed":"0.9.0-2","latest":"0.9.0-2"}' > "$RUN/$STATION/upgrade/status.json"
rm -f "$RUN/$STATION/upgrade/request"
stop_pid "$STATION_PID"; start_station
upgraded() { [ "$(versions)" = "off 0.9.0-2 0.9.0-2" ]; }
until_ok "$WAIT" upgraded || true; check "after the upgrade the station reports 0.9.0-2 installed, up to date" upgraded
until_ok "$WAIT" available || true

# The select picks a mode (the station's state says so, and the entity shows it), and back.
select_mode() { api POST /api/services/select/select_option "{\"entity_id\":\"select.${EID}_mode\",\"option\":\"$1\"}" >/dev/null; }
mode_is() { [ "$(state "select.${EID}_mode")" = "$1" ]; }
until_ok "$WAIT" mode_is rest || true; check "the select shows the station's mode (rest)" mode_is rest
select_mode interval || say "Home Assistant refused that option"
until_ok "$WAIT" mode_is interval || true; check "selecting interval through the select entity selects it" mode_is interval
select_mode "program: EMOM 10" || say "Home Assistant refused that option"
until_ok "$WAIT" mode_is "program: EMOM 10" || true; check "selecting a program by name (program: EMOM 10) selects it" mode_is "program: EMOM 10"
select_mode rest || say "Home Assistant refused that option"
until_ok "$WAIT" mode_is rest || true; check "and back to rest" mode_is rest

# Start through the button entity: the rest LED goes on in the station's trace.
T_PRESS=$(date +%s.%N)
api POST /api/services/button/press "{\"entity_id\":\"button.${EID}_start\"}" >/dev/null || say "Home Assistant refused: $BASH_COMMAND"
# The first time the rest LED goes on after the press (picking rest in the menu lights it too).
began() { grep '"device":"led"' "$RUN/$STATION.jsonl" | jq -s --argjson t "$T_PRESS" 'map(select(.name == "rest" and .on == true and .unix >= $t)) | .[0].unix // empty'; }
rest_on() { [ -n "$(began)" ]; }
until_ok "$WAIT" rest_on || true; check "pressing the Start button entity starts the station (rest LED on)" rest_on
BEGAN=$(began); BEGAN=${BEGAN:-0}
# The retained state's deadline (the state sensor's attribute) is the end of the 90 s rest, and
# the countdown sensor (a timestamp, which Home Assistant counts down to) holds it, to the
# second it shows.
near() { python3 -c 'import sys; sys.exit(not abs(float(sys.argv[1]) - float(sys.argv[2])) <= float(sys.argv[3]))' "$@"; }
deadline() { api GET "/api/states/sensor.${EID}_state" | jq '.attributes.deadline // 0'; }
ends() { python3 -c 'import sys, datetime; print(datetime.datetime.fromisoformat(sys.argv[1]).timestamp())' "$(state "sensor.${EID}_ends")"; }
deadline_right() { near "$(deadline)" "$(awk -v b="$BEGAN" 'BEGIN { printf "%.3f", b + 90 }')" 0.02; }
ends_right() { near "$(ends)" "$(deadline)" 1; }
until_ok "$WAIT" deadline_right || true
say "trace: rest LED on at $BEGAN; retained state: deadline $(deadline); Home Assistant: ends $(state "sensor.${EID}_ends")"
check "the retained state's deadline is the rest LED's instant + 90 s" deadline_right
until_ok "$WAIT" ends_right || true; check "the countdown sensor holds that deadline (to the second Home Assistant keeps)" ends_right
event_seen() { api GET "/api/states/event.${EID}_event" | jq -e '.attributes.event_type == "phase" and .attributes.phase == "resting"' >/dev/null; }
until_ok "$WAIT" event_seen || true; check "the event entity saw the phase change to resting" event_seen
# Pause and Resume: the state sensor says so (mode and phase).
press() { api POST /api/services/button/press "{\"entity_id\":\"button.${EID}_$1\"}" >/dev/null || say "Home Assistant refused: press $1"; }
state_is() { [ "$(state "sensor.${EID}_state")" = "$1" ]; }
press pause
until_ok "$WAIT" state_is "rest paused" || true; check "the Pause button pauses the rest (rest paused)" state_is "rest paused"
press resume
until_ok "$WAIT" state_is "rest resting" || true; check "the Resume button resumes it (rest resting)" state_is "rest resting"
# The floor message through the notify entity: the display scrolls it (a frame of it in the trace,
# as the 7 segments draw it: y is lower-case).
api POST /api/services/notify/send_message "{\"entity_id\":\"notify.${EID}_message\",\"message\":\"HYdrAtE\"}" >/dev/null \
  || say "Home Assistant refused: notify.send_message"
scrolled() { grep '"device":"display"' "$RUN/$STATION.jsonl" | grep -q '"text":" Hyd"'; }
until_ok "$WAIT" scrolled || true; check "notify.send_message shows the floor message on the display (HYdrAtE scrolls)" scrolled
press reset

# Home Assistant's birth message brings the discovery back: cleared (the device goes), then the
# birth message (as Home Assistant sends it when it starts) and the device is back.
api POST /api/services/mqtt/publish "{\"topic\":\"homeassistant/device/$NODE/config\",\"payload\":\"\",\"retain\":true}" >/dev/null || say "Home Assistant refused: $BASH_COMMAND"
gone() { device > "$RUN/device-gone.json" && [ "$(jq '.devices | length' "$RUN/device-gone.json")" = 0 ]; }
until_ok "$WAIT" gone || true; check "discovery cleared: the device is gone" gone
api POST /api/services/mqtt/publish '{"topic":"homeassistant/status","payload":"online"}' >/dev/null || say "Home Assistant refused: $BASH_COMMAND"
until_ok "$WAIT" one_device || true; check "the birth message re-publishes the discovery (device and entities back)" one_device
until_ok "$WAIT" available || true; check "and available" available

# The station stopped: it says offline, every entity is unavailable.
T_STOP=$(clock)
stop_pid "$STATION_PID"; STATION_PID=
until_ok "$WAIT" all_unavailable || true; check "the station stopped (SIGTERM): its entities are unavailable" all_unavailable

# Home Assistant's log: nothing from the MQTT integration above INFO but debug lines.
grep -E '(WARNING|ERROR).*\[homeassistant\.components\.mqtt' "$CONF/home-assistant.log" > "$RUN/mqtt-warnings.txt" || true
quiet() { [ ! -s "$RUN/mqtt-warnings.txt" ]; }
check "no warning or error from Home Assistant's MQTT integration" quiet || true
[ -s "$RUN/mqtt-warnings.txt" ] && cut -c1-300 "$RUN/mqtt-warnings.txt" >&2

echo "ha test: Home Assistant $HA_VERSION, cold $COLD: $(elapsed "$T0") s in all" \
  "(ready $(awk -v a="$T0" -v b="$T_READY" 'BEGIN{printf "%.1f", b-a}') s," \
  "HA started and configured $(awk -v a="$T_HASS" -v b="$T_CONFIGURED" 'BEGIN{printf "%.1f", b-a}') s," \
  "checks $(awk -v a="$T_CONFIGURED" -v b="$(clock)" 'BEGIN{printf "%.1f", b-a}') s)"
[ "$FAILED" = 0 ] || die "see $RUN (home-assistant.log in config/, the station's trace and log)"
echo "ha test: ok"
