#!/usr/bin/env python3
"""Runs inside the install test VM: Debian 12 or 13 booted with systemd as PID 1, the kernel's
simulated devices already up (devices.sh, before gymtimer.service as a Pi's own chips are).
Installs GymTimer the way a gym owner does, with deploy/install.sh, and checks the service it
makes: Type=notify ready, watchdog-supervised, sandboxed but reaching the GPIO, I2C and sound
devices, one log line per fault, clean stop, install again keeping the config, enabled at boot,
the binary built for the other Debian release (installed and working, or refused in one line
saying why: other.expect says which), and uninstall. With fleet.env, the station also gets a
[fleet] whose broker is on the CI host (fleet_host.py drives and checks it from there): the
network drop-in, online, a start at the host's instant on the LEDs, workouts collected, no
sandbox denial, before and after the reboot; on Debian 12 the packages (debs/): the gym's server,
then upgrades from the gym's signed package source on the host (upgrade.env, guest_upgrade.py); and a sleep window through the broker darkening the
installed station while its clock is trusted (adjtimex), lit while it is not. With debs/ (Debian
12), after the uninstall, the gym's server from the packages as docs/server.md has the owner set
it up: the collector and the console run by their units, a station's record collected, the
console answering HTTP, both units scored by systemd-analyze security. Two boots, phase 1 ending
in a reboot; prints "INSTALLTEST PHASE n: PASS|FAIL"."""
import hashlib
import hmac
import os
import re
import subprocess
import sys
import ctypes
import datetime
import json
import time
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))  # /root/gymtimer, as cloned
sys.path.insert(0, os.path.dirname(HERE))
import guest_test as g  # noqa: E402  (the simulated lines, display RAM and alarm analysis)

INSTALL = f"{REPO}/deploy/install.sh"
BINARY = f"{REPO}/gymtimer"
OTHER = f"{REPO}/gymtimer-other"  # built for the other Debian release
CONFIG = "/etc/gymtimer/config.toml"
STATE = "/var/lib/gymtimer"
PHASE_FILE = "/var/lib/gymtimer-vmtest/phase"
# The fleet step: "BROKER_PORT HTTP_PORT STATION" of the host's side (fleet_host.py), absent
# when no host takes part; fleet-old-unit present: run it without the network drop-in (must fail).
FLEET_ENV = f"{REPO}/fleet.env"
OLD_UNIT = f"{REPO}/fleet-old-unit"
DROPIN = "/etc/systemd/system/gymtimer.service.d/fleet-network.conf"
# The card reader: a PN532's twin on ttyS2, wired to the ttyS1 the installed unit opens (run.sh).
READER = "pn532_uart:/dev/ttyS1"
CARD = "04A1B2C3D41234"  # its UID; the display shows its pseudonym's last four digits (card_shown)
# Another member's, after the reboot (the first may still be on the station: the same card would
# tap them out).
OTHER_CARD = "04A1B2C3D45678"


def sh(*args, timeout=300):
    r = subprocess.run(list(args), capture_output=True, text=True, timeout=timeout)
    return r.returncode, r.stdout + r.stderr


def prop(name):
    return sh("systemctl", "show", "gymtimer.service", "-p", name, "--value")[1].strip()


def active():
    return prop("ActiveState") == "active" and prop("SubState") == "running"


def journal():
    return sh("journalctl", "-u", "gymtimer.service", "-o", "cat", "--no-pager")[1].splitlines()


def install(*extra, sudo_user=None):
    print(f"guest: {INSTALL} --binary {BINARY} {' '.join(extra)}", flush=True)
    env = ["env", f"SUDO_USER={sudo_user}"] if sudo_user else []
    rc, out = sh(*env, "bash", INSTALL, "--binary", BINARY, *extra, timeout=600)
    print("\n".join("    | " + line for line in out.splitlines()), flush=True)
    g.check(rc == 0, f"install.sh exited {rc}")
    return out


def pn532_twin():
    """`gymtimer simulate --pn532 /dev/ttyS2`: the reader's chip on the other end of ttyS1's
    wire, cards put in its field from stdin."""
    twin = subprocess.Popen([BINARY, "simulate", "--pn532", "/dev/ttyS2"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    said = twin.stdout.readline().strip()
    g.check(said == "pn532: answering on /dev/ttyS2", f"the PN532's twin answers on ttyS2: {said}")
    return twin


def pseudonym(card):
    """The card's pseudonym under the key the installed station made at its first start
    (STATE/card.key): HMAC-SHA-256 of the UID's bytes, its first 12 bytes in hex."""
    with open(f"{STATE}/card.key") as f:
        key = bytes.fromhex(f.readline().strip())
    return hmac.new(key, bytes.fromhex(card), hashlib.sha256).hexdigest()[:24].upper()


def card_shown(card):
    """What the display shows for a card no name is known for: its pseudonym's last four digits."""
    tail = pseudonym(card)[-4:]
    return tail[:2] + " " + tail[2:]


def hold(twin, card=CARD):
    """A member holds their fob to the reader (until `lift`): one tap, however long it is held,
    and read even if the reader is still being opened when it arrives."""
    twin.stdin.write(f"card {card}\n")
    twin.stdin.flush()


def lift(twin):
    twin.stdin.write("away\n")
    twin.stdin.flush()


def reader_lines():
    """What the service said of its reader in this boot."""
    boot = sh("journalctl", "-b", "-u", "gymtimer.service", "-o", "cat", "--no-pager")[1].splitlines()
    return [line for line in boot if "ttyS1" in line or "libnfc" in line]


def service_user_and_groups(pid):
    with open(f"/proc/{pid}/status") as f:
        status = dict(line.split(":", 1) for line in f if ":" in line)
    uid = int(status["Uid"].split()[0])
    gids = {int(x) for x in status["Groups"].split()}
    name = lambda gid: sh("getent", "group", str(gid))[1].split(":")[0]
    return sh("getent", "passwd", str(uid))[1].split(":")[0], {name(x) for x in gids}


def exposure():
    """systemd's own score of the running unit (not the offline one of the file)."""
    _, out = sh("systemd-analyze", "security", "--no-pager", "gymtimer.service")
    m = re.search(r"Overall exposure level for gymtimer\.service: (\d+\.\d+)", out)
    return float(m.group(1)) if m else None


def fleet_env():
    if not os.path.exists(FLEET_ENV):
        print("guest: fleet step: skipped (no host broker: fleet.env)", flush=True)
        return None
    port, http_port, station = open(FLEET_ENV).read().split()
    return int(port), int(http_port), station


def host_says(http_port, name, seconds):
    """What the host's fleet_host.py tells this step (a file it serves), or None in time."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            with urllib.request.urlopen(f"http://10.0.2.2:{http_port}/{name}", timeout=5) as r:
                return r.read().decode().strip()
        except OSError:
            time.sleep(1)
    return None


def guest_status(port, station):
    """The station's status column in `gymtimer fleet status`, asked from inside the VM."""
    _, out = sh("/usr/local/bin/gymtimer", "fleet", "status", "--broker", f"mqtt://gym-server:{port}", "--wait", "1", timeout=30)
    return next((line.split()[1] for line in out.splitlines() if line.split()[:1] == [station]), None)


class Timex(ctypes.Structure):
    """struct timex of adjtimex(2), as glibc lays it out on x86-64."""
    _fields_ = [("modes", ctypes.c_uint), ("offset", ctypes.c_long), ("freq", ctypes.c_long),
                ("maxerror", ctypes.c_long), ("esterror", ctypes.c_long), ("status", ctypes.c_int),
                ("constant", ctypes.c_long), ("precision", ctypes.c_long), ("tolerance", ctypes.c_long),
                ("tv_sec", ctypes.c_long), ("tv_usec", ctypes.c_long), ("tick", ctypes.c_long),
                ("ppsfreq", ctypes.c_long), ("jitter", ctypes.c_long), ("shift", ctypes.c_int),
                ("stabil", ctypes.c_long), ("jitcnt", ctypes.c_long), ("calcnt", ctypes.c_long),
                ("errcnt", ctypes.c_long), ("stbcnt", ctypes.c_long), ("tai", ctypes.c_int),
                ("reserved", ctypes.c_int * 11)]


STA_UNSYNC, TIME_ERROR = 0x0040, 5
ADJ_MAXERROR, ADJ_ESTERROR, ADJ_STATUS = 0x0004, 0x0008, 0x0010


def adjtimex(tx):
    libc = ctypes.CDLL(None, use_errno=True)
    state = libc.adjtimex(ctypes.byref(tx))
    if state < 0:
        raise OSError(ctypes.get_errno(), "adjtimex")
    return state


def clock_synchronised():
    """What the kiosk reads (ClockReading): adjtimex with no change, STA_UNSYNC clear and not
    TIME_ERROR. Returns (synchronised, status flags)."""
    tx = Timex()
    state = adjtimex(tx)
    return state != TIME_ERROR and not tx.status & STA_UNSYNC, tx.status


def mark_synchronised():
    """As an NTP client does once it has the time: STA_UNSYNC cleared, a small maximum error
    (the kernel adds 500 µs to it a second; at 16 s it sets STA_UNSYNC again, hours from now)."""
    tx = Timex()
    adjtimex(tx)
    tx.modes = ADJ_STATUS | ADJ_MAXERROR | ADJ_ESTERROR
    tx.status &= ~STA_UNSYNC
    tx.maxerror, tx.esterror = 1000, 100
    adjtimex(tx)


def window_around_now():
    """`fleet sleep`'s --from/--until for a window holding the guest's local time now (the zone
    the service reads too, /etc/localtime): from a minute ago to two hours on, and its text."""
    now = time.localtime()
    minute = now.tm_hour * 60 + now.tm_min
    hhmm = lambda m: f"{m % 1440 // 60:02d}:{m % 60:02d}"
    return hhmm(minute - 1), hhmm(minute + 120)


def sleep_cells(port, station):
    """The station's Sleep and Asleep columns of `fleet status`, asked from inside the VM."""
    _, out = sh("/usr/local/bin/gymtimer", "fleet", "status", "--broker", f"mqtt://gym-server:{port}", "--wait", "1", timeout=30)
    return next((line.split()[-2:] for line in out.splitlines() if line.split()[:1] == [station]), None)


def fleet_sleep(port, station, *args):
    rc, out = sh("/usr/local/bin/gymtimer", "fleet", "sleep", "--broker", f"mqtt://gym-server:{port}",
                 "--stations", station, *args, timeout=30)
    g.check(rc == 0, f"gymtimer fleet sleep {' '.join(args)} (exit {rc}): {out.strip()[:200]}")


def lit():
    return g.shown(g.ram()) == "00:05" and g.value("ready") == 1


def dark():
    return all(b == 0 for b in g.ram()) and all(g.value(n) == 0 for n in ("ready", "rest", "alarm"))


def sleep_window_step(port, station):
    """11. A sleep window holding the guest's local time now, sent through the broker with
    `gymtimer fleet sleep`: the installed station (idle, nobody near it) goes dark (display RAM
    blank, LEDs off, `Asleep yes`) once its clock is trusted; while the clock is not synchronised
    it stays lit (`Asleep no`), and the check says so. An unsynchronised guest clock is marked
    synchronised here (adjtimex as root), so both are seen: the service reads it again within
    its 60 s recheck. A press in the dark only wakes the display; `--off` ends the window (so the
    reboot's checks find the station lit)."""
    start, until = window_around_now()
    window = f"{start}–{until}"
    synchronised, status = clock_synchronised()
    print(f"guest: sleep window {window} (local {time.strftime('%H:%M:%S %Z')}), the clock "
          f"{'synchronised' if synchronised else 'NOT synchronised'} (adjtimex status {status:#06x})", flush=True)
    fleet_sleep(port, station, "--from", start, "--until", until)
    if not synchronised:
        g.check(g.wait_for(lambda: sleep_cells(port, station) == [window, "no"], 30),
                f"fleet status: the window set, not asleep on an untrusted clock: {sleep_cells(port, station)}")
        g.check(g.holds(lit, 3), f"lit inside its window {window} because the guest clock is not NTP-synchronised "
                       f"(adjtimex STA_UNSYNC): display {g.shown(g.ram())!r}, ready LED {g.value('ready')}")
        mark_synchronised()
        synchronised, status = clock_synchronised()
        g.check(synchronised, f"the guest clock marked synchronised (adjtimex status {status:#06x})")
        print("FLEETTEST clock-marked-synchronised", flush=True)
    g.check(g.wait_for(dark, 90), f"dark inside its window on a trusted clock (within the 60 s recheck): "
                                  f"display RAM {g.ram()}, LEDs {[g.value(n) for n in ('ready', 'rest', 'alarm')]}")
    g.check(g.wait_for(lambda: sleep_cells(port, station) == [window, "yes"], 30),
            f"fleet status: asleep in its window: {sleep_cells(port, station)}")
    g.press(g.LINE["start"])
    g.check(g.wait_for(lambda: g.shown(g.ram()) == "00:05", 5), f"a press in the dark lights the display ({g.shown(g.ram())})")
    g.check(g.holds(lambda: g.value("rest") == 0, 1), "and only wakes it: no rest started (watched for 1 s)")
    fleet_sleep(port, station, "--off")
    g.check(g.wait_for(lambda: sleep_cells(port, station) == ["-", "-"], 30) and lit(),
            f"--off: no window, lit ({sleep_cells(port, station)}, display {g.shown(g.ram())!r})")


def finish_workout():
    """The rest running to its alarm, dismissed, then the workout ended (dismiss held 2 s)."""
    g.check(g.wait_for(lambda: g.value("alarm") == 1, 20), "alarm LED lit after the 5 s rest")
    g.press(g.LINE["dismiss"])
    g.check(g.wait_for(lambda: g.value("alarm") == 0, 5), "dismiss ends the alarm")
    g.hold_button(g.LINE["dismiss"])


def no_sandbox_denial(since, at_boot=False):
    """Nothing of the service or its network rule was refused by the sandbox since `since`
    (None: this boot). A denied address or family reads "Operation not permitted" or "Address
    family not supported"; no network at all "Network is unreachable", which at boot the station
    may say before DHCP answered: then only what follows its first connection counts."""
    window = ["-b"] if since is None else ["--since", f"@{int(since)}"]
    units = sh("journalctl", *window, "-u", "gymtimer.service", "-u", "gymtimer-config.service",
               "-o", "cat", "--no-pager")[1].splitlines()
    if at_boot:
        first = next((i for i, line in enumerate(units) if "connected to" in line), len(units))
        units = units[first:]
    kernel = [line for line in sh("journalctl", *window, "-k", "-o", "cat", "--no-pager")[1].splitlines()
              if "audit" in line and "gymtimer" in line]
    bad = [line for line in units if re.search(
        r"Permission denied|Network is unreachable|Address family not supported|Operation not permitted", line)]
    g.check(not bad and not kernel, f"no sandbox denial in the journal (units: {bad[:3]}, audit: {kernel[:3]})")


def fleet_phase1():
    """9. The station installed with a [fleet] whose broker is on the CI host: the drop-in opens
    the service's network to it, and the host drives it (fleet_host.py)."""
    env = fleet_env()
    if not env:
        return
    port, http_port, station = env
    since = time.time()
    with open("/etc/hosts", "a") as f:
        f.write("10.0.2.2 gym-server\n")  # a broker by name, as mqtt://gym-server.local would be
    g.config(CONFIG, STATE, audio=True, nfc=READER)
    with open(CONFIG, "a") as f:
        f.write(f'[fleet]\nbroker = "mqtt://gym-server:{port}"\nstation = "{station}"\nhome_assistant = false\n')
    out = install()
    g.check("network: " in out and "mqtt://gym-server" in out and "10.0.2.2" in out,
            "install.sh wrote the network rule for the broker")
    rule = open(DROPIN).read() if os.path.exists(DROPIN) else ""
    allow = [line for line in rule.splitlines() if line.startswith("IPAddressAllow=") and line != "IPAddressAllow="]
    g.check(allow == ["IPAddressAllow=localhost 10.0.2.2 10.0.2.3"],
            f"the drop-in allows the broker, localhost and the name server only: {allow}")
    # The config watch (gymtimer-config.path) saw the edits above: its rewrite and restart of the
    # kiosk run behind install.sh's, and must be over before the host drives the station.
    g.check(g.wait_for(lambda: sh("systemctl", "is-active", "gymtimer-config.service")[1].strip() != "activating"
                       and "gymtimer" not in sh("systemctl", "list-jobs", "--no-legend")[1], 90),
            "the config watch rewrote the drop-in and restarted the kiosk (no job left)")
    if os.path.exists(OLD_UNIT):
        sh("systemctl", "stop", "gymtimer-config.path")  # it would write the drop-in again
        os.remove(DROPIN)
        sh("systemctl", "daemon-reload")
        sh("systemctl", "restart", "gymtimer.service")
        print("guest: fleet step on the OLD unit: the network drop-in removed (this run must fail)", flush=True)
    g.check(g.wait_for(active, 60), f"the service with a [fleet] is running ({prop('ActiveState')})")
    score = exposure()
    g.check(score is not None and score <= 2.0, f"systemd-analyze security gymtimer.service with the drop-in: {score} (≤ 2.0)")
    g.check(g.wait_for(lambda: g.value("ready") == 1, 15), "ready LED lit")
    online = g.check(g.wait_for(lambda: guest_status(port, station) == "online", 90),
                     f"fleet status in the VM: {station} {guest_status(port, station)}")
    print("FLEETTEST installed", flush=True)
    if not online:  # nothing further can pass: say what the journal holds, and end the step
        no_sandbox_denial(since)
        return
    # The host's `fleet start --in 3` must light the rest LED at the instant it names, on this
    # clock (the station's): a start on receipt would be about 3 s early.
    lit = None
    end = time.monotonic() + 90
    while time.monotonic() < end and g.value("rest") != 1:
        time.sleep(0.02)
    if g.value("rest") == 1:
        lit = time.time()
    at = host_says(http_port, "start-at", 30)
    try:
        late = lit - float(at)
    except (TypeError, ValueError):
        late = None
    g.check(late is not None and -0.3 <= late <= 1.5,
            f"fleet start --in 3 from the host lit the rest LED at its instant ({at}): {late if late is None else round(late, 3)} s late")
    finish_workout()
    print("FLEETTEST workout-done 1", flush=True)
    g.check(host_says(http_port, "phase1-done", 300) is not None, "the host saw the workout once and the station back after its broker's restart")
    g.check(guest_status(port, station) == "online", "online after the broker's restart, seen from the VM too")
    sleep_window_step(port, station)
    no_sandbox_denial(since)


def fleet_phase2():
    """10. After the reboot: online again, and a workout reaches the host once, nothing lost."""
    env = fleet_env()
    if not env:
        return
    port, http_port, station = env
    print("FLEETTEST up", flush=True)
    g.check(g.wait_for(lambda: guest_status(port, station) == "online", 120),
            f"after the reboot the station is online again: {guest_status(port, station)}")
    g.check(g.wait_for(lambda: g.value("ready") == 1, 15), "ready LED lit")
    g.press(g.LINE["start"])
    g.check(g.wait_for(lambda: g.value("rest") == 1, 5), "start press -> rest LED lit")
    finish_workout()
    print("FLEETTEST workout-done 2", flush=True)
    g.check(host_says(http_port, "phase2-done", 300) is not None, "the host holds both workouts, each once")
    print("FLEETTEST done", flush=True)
    no_sandbox_denial(None, at_boot=True)


def phase1():
    # 1. Install from the example config, as a first-time owner does with sudo.
    sh("useradd", "--create-home", "owner")
    out = install(sudo_user="owner")
    g.check("added owner to the gymtimer group" in out, "the owner who ran sudo may read the history")
    g.check(f"installed {CONFIG} from the example" in out, "the example config was installed")
    g.check("service enabled and started" in out, "install.sh enabled and started the service")
    g.check("installed packages: " in out and len(out.splitlines()) <= 30,
            f"install.sh installed its packages and said what it did in {len(out.splitlines())} lines (apt's output in its log)")
    g.check(g.wait_for(active, 60), f"gymtimer.service is active (running) after READY=1 ({prop('ActiveState')})")
    g.check(prop("Type") == "notify" and prop("WatchdogUSec") == "30s",
            f"Type=notify with a 30 s watchdog ({prop('Type')}, {prop('WatchdogUSec')})")
    release = sh("sh", "-c", ". /etc/os-release; echo $VERSION_CODENAME")[1].strip()
    api = {"bookworm": "1.6", "trixie": "2."}.get(release, "?")
    running = [line for line in journal() if "running:" in line]
    g.check(bool(running) and f"(libgpiod {api}" in running[-1],
            f"the kiosk on {release} drives GPIO through its libgpiod ({api}*): {running[-1:]}")
    status = prop("StatusText")
    g.check(status.startswith("rest mode: idle, 90 s"), f"STATUS= from the kiosk: '{status}'")
    pid = int(prop("MainPID"))
    user, groups = service_user_and_groups(pid)
    g.check(user == "gymtimer" and {"gpio", "i2c", "spi", "audio"} <= groups,
            f"runs as gymtimer with its device groups (user {user}, groups {sorted(groups)})")
    score = exposure()
    g.check(score is not None and score <= 2.0, f"systemd-analyze security gymtimer.service: {score} (≤ 2.0)")

    # 2. The sandboxed service drives the GPIO lines: LEDs out, a press in.
    g.check(g.wait_for(lambda: g.value("ready") == 1, 10), "ready LED lit by the service")
    before = len(journal())
    g.press(g.LINE["start"])
    g.check(g.wait_for(lambda: g.value("rest") == 1, 5), "start press (pull on GPIO17) -> rest LED lit")
    g.check(g.wait_for(lambda: prop("StatusText").startswith("rest mode: resting"), 5),
            f"STATUS= follows the kiosk: '{prop('StatusText')}'")
    g.check(g.holds(lambda: len(journal()[before:]) <= 2, 5, step=0.5),
            f"the journal does not grow per tick: {journal()[before:]} in 5 s of countdown")
    g.press(g.LINE["dismiss"])
    g.check(g.wait_for(lambda: g.value("ready") == 1, 5), "dismiss -> ready again")

    # 3. The owner edits the config (HT16K33 on I2C, sound on the loopback card, a PN532 on the
    # UART) and installs again.
    twin = pn532_twin()
    g.config(CONFIG, STATE, audio=True, nfc=READER)
    with open(CONFIG) as f:
        mine = f.read()
    old_pid = pid
    out = install()
    g.check(f"kept your {CONFIG}" in out and open(CONFIG).read() == mine, "install again keeps the owner's config")
    g.check(g.wait_for(lambda: active() and int(prop("MainPID")) != old_pid, 60), "install again restarts the service")
    g.check(g.wait_for(lambda: g.shown(g.ram()) == "00:05", 15),
            f"the HT16K33 on i2c-stub shows the configured 00:05 ({g.shown(g.ram())})")

    # 3b. A member taps in at the reader the sandboxed unit reads through libnfc (ttyS1, group
    # dialout, DeviceAllow=char-ttyS): the display shows their card for a moment, and the rest
    # below is theirs.
    hold(twin)
    g.check(g.wait_for(lambda: g.shown(g.ram()).replace(":", " ") == card_shown(CARD), 30),
            f"a tap at the PN532 shows the last digits of the card's pseudonym under the key the station made,"
            f" {card_shown(CARD)} ({g.shown(g.ram())}; reader: {reader_lines()})")
    lift(twin)
    g.check(g.wait_for(lambda: g.shown(g.ram()) == "00:05", 10), f"then the timer again ({g.shown(g.ram())})")
    g.check(not reader_lines(), f"the reader works without a line in the journal: {reader_lines()}")

    # 4. A rest to its alarm, heard through ALSA from inside the sandbox.
    wav = "/tmp/alarm.wav"
    rec = subprocess.Popen(["arecord", "-q", "-D", "hw:Loopback,1,0", "-f", "S16_LE", "-r", "48000", "-c", "1",
                            "-d", "12", wav], stderr=subprocess.PIPE, text=True)
    time.sleep(0.5)
    g.press(g.LINE["start"])
    g.check(g.wait_for(lambda: g.value("alarm") == 1, 15), "alarm LED lit after the 5 s rest")
    g.check(g.holds(lambda: g.value("alarm") == 1, 2.5), "the alarm sounds on while it is recorded (2.5 s)")
    g.press(g.LINE["dismiss"])
    g.check(g.wait_for(lambda: g.value("alarm") == 0, 5), "dismiss ends the alarm")
    _, err = rec.communicate(timeout=30)
    g.check(rec.returncode == 0, f"arecord captured from the loopback ({err.strip()})")
    g.check_alarm_recording(wav, "service: ")
    # End the workout (hold dismiss 2 s): the rest is recorded in the history.
    g.hold_button(g.LINE["dismiss"])
    owners = lambda: sh("setpriv", "--reuid=owner", "--regid=owner", "--init-groups", "gymtimer", "history")
    g.wait_for(lambda: "rest" in owners()[1].lower(), 15, step=0.5)
    rc, out = owners()
    g.check(rc == 0 and "rest" in out.lower(), f"the owner reads the history as a gymtimer group member: {out.strip()[:200]}")
    rc, out = sh("setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "gymtimer", "history")
    g.check(rc == 2 and "permission denied" in out and "gymtimer group" in out.replace("its group", "gymtimer group"),
            f"anyone else is told why and what to do: {out.strip()}")
    rc, out = sh("gymtimer", "history", "--athlete", pseudonym(CARD))
    g.check(rc == 0 and "rest" in out.lower(), f"the rest is the athlete's who tapped in, by the card's pseudonym: {out.strip()[:300]}")
    rc, out = sh("grep", "-rlaF", CARD, STATE)
    g.check(rc == 1 and not out.strip(), f"no file of the station's holds the card's UID: {out.strip()}")
    rc, out = sh("gymtimer", "history", "--athlete", "0102030405060708")
    g.check(rc == 0 and "rest" not in out.lower(), f"and nobody else's: {out.strip()[:300]}")
    st = os.stat(STATE)
    g.check(st.st_mode & 0o777 == 0o750 and sh("stat", "-c", "%U", STATE)[1].strip() == "gymtimer",
            f"{STATE} belongs to gymtimer, mode {oct(st.st_mode & 0o777)}")
    g.check(os.path.exists(f"{STATE}/history.sqlite") and os.path.exists(f"{STATE}/state.journal"),
            f"history and running state are kept in {STATE}: {sorted(os.listdir(STATE))}")

    # 5. A hung event loop: systemd's watchdog kills and restarts it.
    pid, restarts = int(prop("MainPID")), int(prop("NRestarts"))
    os.kill(pid, 19)  # SIGSTOP: the loop stops pinging
    print(f"guest: stopped the event loop (pid {pid}); waiting for the 30 s watchdog", flush=True)
    g.check(g.wait_for(lambda: active() and int(prop("MainPID")) not in (0, pid), 90),
            f"the watchdog restarted the service (pid {pid} -> {prop('MainPID')})")
    g.check(int(prop("NRestarts")) == restarts + 1, f"one restart counted ({restarts} -> {prop('NRestarts')})")
    log = "\n".join(sh("journalctl", "-b", "--no-pager", "-o", "cat")[1].splitlines())
    g.check("Watchdog timeout" in log, "the journal says it was the watchdog")
    g.check(g.wait_for(lambda: g.value("ready") == 1, 15), "ready LED lit again after the restart")

    # 6. A clean stop: display blank, LEDs off, success.
    rc, out = sh("systemctl", "stop", "gymtimer.service")
    g.check(rc == 0 and prop("ActiveState") == "inactive" and prop("Result") == "success",
            f"systemctl stop: {prop('ActiveState')}, result {prop('Result')} {out.strip()}")
    lit = [n for n in ("ready", "rest", "alarm", "low", "high", "buzzer") if g.value(n) != 0]
    g.check(not lit and all(b == 0 for b in g.ram()), f"stopped: LEDs and buzzer off, display blank (lit: {lit})")
    speech = sorted(f for f in os.listdir("/var/cache/gymtimer") if f.startswith("speech-"))
    g.check(len(speech) > 0, f"espeak-ng rendered the spoken cues inside the sandbox: {speech}")
    lines = journal()
    print("--- journalctl -u gymtimer:")
    print("\n".join(lines), flush=True)
    # The watchdog's own kill is expected; nothing else may time out, be killed or complain.
    # One line is the Swift runtime's, not ours, and changes nothing: libdispatch renices a new
    # worker thread to imitate a quality-of-service class, which an unprivileged service may
    # not do (EACCES, errno 13; the stop it came with was clean). Only that exact line is let
    # through: errno 1 (the seccomp filter) or any other complaint still fails.
    dispatch_renice = re.compile(r"Failed to set thread priority for worker thread: pqc=0x[0-9a-f]+ errno=13")
    bad = [line for line in lines if re.search(r"timed out|SIGKILL|Failed with result '(?!watchdog)|Could not|Failed to", line)
           and not dispatch_renice.fullmatch(line.strip())]
    g.check(not bad, f"no stop timeouts, kills or runtime complaints in the journal: {bad}")
    fleet_phase1()
    twin.stdin.close()
    twin.wait(timeout=30)


def phase2():
    # 7. After a reboot the enabled service is up by itself, then uninstall keeps config and history.
    g.check(g.wait_for(active, 90), f"after reboot the enabled service is running ({prop('ActiveState')})")
    g.check(g.wait_for(lambda: g.shown(g.ram()) == "00:05", 15), f"display shows 00:05 ({g.shown(g.ram())})")
    g.check(g.wait_for(lambda: g.value("ready") == 1, 10), "ready LED lit")
    boot = sh("journalctl", "-b", "-u", "gymtimer.service", "-o", "cat", "--no-pager")[1].splitlines()
    failed = [line for line in boot if re.search(r"Failed|denied|Permission", line)]
    g.check(not failed, f"it started first time at boot: the udev rules and device order held {failed}")
    # 7b. The reader silent at boot (its twin not started): one fault line, no libnfc chatter
    # while it is retried every 5 s, the timer working; then it answers, and a tap shows.
    g.check(g.wait_for(lambda: len(reader_lines()) >= 1, 30), f"the silent reader is a logged fault: {reader_lines()}")
    g.check(g.holds(lambda: len(reader_lines()) == 1, 12, step=1), f"one line while it is retried for 12 s: {reader_lines()}")
    lines = reader_lines()
    g.check(len(lines) == 1 and lines[0].startswith("fault: ") and READER in lines[0],
            f"one line while it is retried, none of libnfc's: {lines}")
    twin = pn532_twin()
    g.check(g.wait_for(lambda: any(line.startswith("recovered: ") for line in reader_lines()), 30),
            f"the reader answering again is said once: {reader_lines()}")
    hold(twin, OTHER_CARD)
    g.check(g.wait_for(lambda: g.shown(g.ram()).replace(":", " ") == card_shown(OTHER_CARD), 30),
            f"a tap after the reader came back shows {card_shown(OTHER_CARD)} ({g.shown(g.ram())})")
    lift(twin)
    twin.stdin.close()
    twin.wait(timeout=30)
    fleet_phase2()
    other_release_binary()
    rc, out = sh("bash", INSTALL, "--uninstall")
    print("\n".join("    | " + line for line in out.splitlines()), flush=True)
    g.check(rc == 0, f"install.sh --uninstall exited {rc}")
    g.check(prop("LoadState") == "not-found" and not os.path.exists("/usr/local/bin/gymtimer"),
            f"service and binary removed ({prop('LoadState')})")
    g.check(os.path.exists(CONFIG) and os.path.exists(f"{STATE}/history.sqlite"), "config and history kept")
    lit = [n for n in ("ready", "rest", "alarm") if g.value(n) != 0]
    g.check(not lit, f"uninstall stopped the kiosk: LEDs off (lit: {lit})")
    server_packages()
    package_upgrades()


# The upgrade step (guest_upgrade.py): the host's package source's port, and the gym's key.
UPGRADE_ENV = f"{REPO}/upgrade.env"


def package_upgrades():
    """13. The packaged station upgrades from the gym's signed package source on the host."""
    if not os.path.exists(UPGRADE_ENV):
        print("guest: upgrade step: not on this release (scripts/vm-test.sh's VM_UPGRADE_RELEASES)", flush=True)
        return
    import guest_upgrade
    port = open(UPGRADE_ENV).read().strip()
    version = sh("dpkg-query", "-W", "-f", "${Version}", "gymtimer")[1].strip().rsplit("-", 1)[0]
    guest_upgrade.run(g, sh, prop, active, f"{REPO}/upgrade-key.asc", f"http://10.0.2.2:{port}", version)


# The server step: the gym's server from the packages on this guest (debs/: each release's own build).
DEBS = f"{REPO}/debs"
STATION = "rack-1"  # the station's name and broker account (the package's ACL: %u is the station)
COLLECT_DB = "/var/lib/gymtimer-collect/history.sqlite"
SERVER_UNITS = ("gymtimer-collect.service", "gymtimer-console.service")


def unit_prop(unit, name):
    return sh("systemctl", "show", unit, "-p", name, "--value")[1].strip()


def unit_running(unit):
    return unit_prop(unit, "ActiveState") == "active" and unit_prop(unit, "SubState") == "running"


def doc_command(command):
    """A command of docs/server.md as the owner types it (sudo left out: this is root; the guest
    has no sudo)."""
    print(f"guest: $ {command}", flush=True)
    rc, out = sh("sh", "-c", command, timeout=900)
    g.check(rc == 0, f"`{command}` (exit {rc}){': ' + out.strip()[-300:] if rc else ''}")
    return out


def collected():
    """The collector's history as the doc reads it, as the collector's user: the JSON rows."""
    rc, out = sh("runuser", "-u", "gymtimer-collect", "--", "gymtimer", "history", "--db", COLLECT_DB, "--json")
    try:
        return json.loads(out) if rc == 0 else []
    except ValueError:
        return []


def server_packages():
    """12. The gym's server installed from the packages as docs/server.md has the owner do it, on
    the station's guest after install.sh's uninstall (its config put aside: a fresh station from
    the package): Mosquitto, then gymtimer and gymtimer-server with apt (their Depends from
    Debian's archive); both server units waiting for their settings; the broker's accounts; the
    collector started by its unit as its own user with its own data directory; the packaged
    kiosk with a [fleet] on this broker finishing a rest, whose record reaches the collector's
    history; the console answering HTTP on its address; systemd's own exposure score of both
    running units at 2.0 or lower."""
    release = sh("sh", "-c", ". /etc/os-release; echo $VERSION_CODENAME")[1].strip()
    if not os.path.isdir(DEBS):
        print(f"guest: server step: not on {release} (scripts/vm-test.sh's VM_SERVER_RELEASES)", flush=True)
        return
    debs = sorted(os.listdir(DEBS))
    kiosk = next((d for d in debs if d.startswith("gymtimer_")), None)
    server = next((d for d in debs if d.startswith("gymtimer-server_")), None)
    if not g.check(kiosk and server, f"both packages given: {debs}"):
        return
    os.replace(CONFIG, CONFIG + ".install-sh")
    apt = "DEBIAN_FRONTEND=noninteractive apt-get install -y -q"
    doc_command(f"{apt} mosquitto >/tmp/apt-mosquitto.log 2>&1 || {{ tail -20 /tmp/apt-mosquitto.log; exit 1; }}")
    out = doc_command(f"cd {DEBS} && {apt} ./{kiosk} ./{server} 2>&1")
    print("\n".join("    | " + line for line in out.splitlines()[-8:]), flush=True)
    installed = sh("dpkg-query", "-W", "-f", "${Package} ${Version} ${Status}\\n", "gymtimer", "gymtimer-server")[1].strip()
    g.check(installed.count("install ok installed") == 2, f"apt installed both: {', '.join(installed.splitlines())}")
    for unit in SERVER_UNITS:
        g.check(sh("systemctl", "is-enabled", unit)[1].strip() == "enabled" and unit_prop(unit, "ActiveState") == "inactive"
                and unit_prop(unit, "ConditionResult") == "no" and unit_prop(unit, "ConditionTimestamp") != "",
                f"{unit} enabled, not started: its settings are not written ({unit_prop(unit, 'ActiveState')}, "
                f"condition {unit_prop(unit, 'ConditionResult')})")
    # The broker's accounts (docs/server.md: mosquitto_passwd prompts; -b gives the password).
    for name in ("coach", "collector", STATION):
        doc_command(f"mosquitto_passwd -b /etc/mosquitto/gymtimer.passwd {name} 'the {name} password'")
    perms = sh("stat", "-c", "%G %a", "/etc/mosquitto/gymtimer.passwd")[1].strip()
    g.check(perms == "mosquitto 640", f"the broker's accounts stay Mosquitto's to read: {perms}")
    doc_command("systemctl restart mosquitto")

    # The collector, as the doc sets it up.
    doc_command("cp /usr/share/doc/gymtimer-server/examples/collect.env /etc/gymtimer/")
    doc_command("echo 'the collector password' | install -m 0640 -g gymtimer-collect /dev/stdin /etc/gymtimer/collector.pass")
    doc_command("systemctl start gymtimer-collect")
    unit = "gymtimer-collect.service"
    g.check(g.wait_for(lambda: unit_running(unit), 60), f"{unit} running ({unit_prop(unit, 'ActiveState')})")
    log = lambda u: sh("journalctl", "-u", u, "-o", "cat", "--no-pager")[1]
    subscribed = lambda: [line for line in log(unit).splitlines() if line.startswith("collect: subscribed to gymtimer/+/workout")]
    g.check(g.wait_for(subscribed, 60), f"the collector is subscribed on the broker with its account: "
                                        f"{subscribed() or log(unit).strip()[-300:]}")
    pid = int(unit_prop(unit, "MainPID") or 0)
    user, _ = service_user_and_groups(pid) if pid else (None, None)
    data = sh("stat", "-c", "%U %a", "/var/lib/gymtimer-collect")[1].strip()
    g.check(user == "gymtimer-collect" and data == "gymtimer-collect 750",
            f"it runs as gymtimer-collect with its own data directory (user {user}, /var/lib/gymtimer-collect {data})")

    # The station: the packaged kiosk (its unit started by apt), given a [fleet] on this broker;
    # online as the coach sees it (`gymtimer fleet status` on the coach's account).
    with open("/root/coach.pass", "w") as f:
        f.write("the coach password\n")

    def station_status():
        _, out = sh("gymtimer", "fleet", "status", "--broker", "mqtt://127.0.0.1:1883", "--username", "coach",
                    "--password-file", "/root/coach.pass", "--wait", "1", timeout=30)
        return next((line.split()[1] for line in out.splitlines() if line.split()[:1] == [STATION]), out.strip()[-200:])
    old_pid = prop("MainPID")
    with open("/etc/hosts", "a") as f:
        f.write("127.0.0.1 gym-server.local\n")
    doc_command(f"echo 'the {STATION} password' | install -m 0640 -g gymtimer /dev/stdin /etc/gymtimer/mqtt.pass")
    since = time.time()
    g.config(CONFIG, STATE, audio=True)
    with open(CONFIG, "a") as f:
        f.write(f'[fleet]\nbroker = "mqtt://gym-server.local:1883"\nstation = "{STATION}"\nusername = "{STATION}"\n'
                f'password_file = "/etc/gymtimer/mqtt.pass"\nhome_assistant = false\n')
    # The config's watch (gymtimer-config.path) rewrites the kiosk's network rule and restarts it.
    g.check(g.wait_for(lambda: active() and prop("MainPID") not in ("0", old_pid), 90),
            f"the packaged kiosk restarted by its config's watch (pid {old_pid} -> {prop('MainPID')})")
    g.check(g.wait_for(lambda: station_status() == "online", 60),
            f"{STATION} online on the server's broker with its account: {station_status()}")
    g.check(g.wait_for(lambda: active() and g.value("ready") == 1, 30), "ready LED lit by the packaged kiosk")
    g.press(g.LINE["start"])
    g.check(g.wait_for(lambda: g.value("rest") == 1, 5), "start press -> rest LED lit")
    finish_workout()
    def fresh():  # the station's records finished in this step (not any it kept from before)
        def at(w):
            try:
                return datetime.datetime.fromisoformat(w.get("completed_at", "").replace("Z", "+00:00")).timestamp()
            except ValueError:
                return 0
        return [w for w in collected() if w.get("station") == STATION and at(w) >= since - 5]
    g.check(g.wait_for(lambda: fresh(), 60),
            f"the station's record reached the collector's history ({COLLECT_DB}): {len(collected())} rows")
    rows = fresh()
    g.check(len(rows) == 1 and rows[0].get("kind") == "rest",
            f"the collector holds the rest just finished at {STATION}, once: "
            f"{[(w.get('station'), w.get('kind'), w.get('completed_at')) for w in rows]}")
    table = doc_command(f"runuser -u gymtimer-collect -- gymtimer history --db {COLLECT_DB}")
    print("\n".join("    | " + line for line in table.splitlines()), flush=True)

    # The console, on this guest's address on the gym's network.
    address = sh("sh", "-c", "ip -4 -o addr show scope global | awk '{print $4}' | cut -d/ -f1 | head -1")[1].strip()
    doc_command("cp /usr/share/doc/gymtimer-server/examples/console.env /etc/gymtimer/")
    doc_command(f"sed -i 's/^GYMTIMER_LISTEN=.*/GYMTIMER_LISTEN={address}:8080/' /etc/gymtimer/console.env")
    doc_command("echo 'the coach password' | install -m 0640 -g gymtimer-console /dev/stdin /etc/gymtimer/coach.pass")
    doc_command("echo 4321 | install -m 0640 -g gymtimer-console /dev/stdin /etc/gymtimer/console.pin")
    doc_command("systemctl start gymtimer-console")
    unit = "gymtimer-console.service"
    g.check(g.wait_for(lambda: unit_running(unit), 60), f"{unit} running ({unit_prop(unit, 'ActiveState')})")
    pid = int(unit_prop(unit, "MainPID") or 0)
    user, _ = service_user_and_groups(pid) if pid else (None, None)
    g.check(user == "gymtimer-console", f"it runs as gymtimer-console (user {user})")

    def get(path):
        try:
            with urllib.request.urlopen(f"http://{address}:8080{path}", timeout=10) as r:
                return r.status, r.read().decode(errors="replace")
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode(errors="replace")
        except OSError as e:
            return None, str(e)
    g.check(g.wait_for(lambda: get("/")[0] == 200, 60), f"the console answers on {address}:8080: {get('/')[0]}")
    status, page = get("/")
    g.check(status == 200 and 'id="login"' in page and "Coach's PIN" in page,
            f"GET / is the console's page, locked by the PIN (HTTP {status}, {len(page)} bytes)")
    status, page = get("/health")
    g.check(status == 401 and 'id="login"' in page and "Sign in to see the stations" in page,
            f"GET /health signed out is refused with the sign-in page (HTTP {status})")

    # systemd's own score of both running units.
    rc, out = sh("systemd-analyze", "security", "--no-pager", *SERVER_UNITS)
    print("--- systemd-analyze security " + " ".join(SERVER_UNITS), flush=True)
    print("\n".join("    | " + line for line in out.splitlines()), flush=True)
    for unit in SERVER_UNITS:
        m = re.search(rf"Overall exposure level for {re.escape(unit)}: (\d+\.\d+)", out)
        score = float(m.group(1)) if m else None
        g.check(score is not None and score <= 2.0, f"systemd-analyze security {unit}: {score} (≤ 2.0)")
    denied = [line for u in SERVER_UNITS for line in log(u).splitlines()
              if re.search(r"Permission denied|Operation not permitted|Address family not supported|Network is unreachable", line)]
    g.check(not denied, f"no sandbox denial in the server units' journals: {denied[:3]}")


def other_release_binary():
    """8. install.sh --binary with the binary built for the other Debian release: it either
    works (a kiosk running on it) or is refused in one line saying why, leaving the installed
    kiosk running."""
    expect = open(f"{REPO}/other.expect").read().strip()
    pid = int(prop("MainPID"))
    print(f"guest: {INSTALL} --binary {OTHER} (built for the other release; expected: {expect})", flush=True)
    rc, out = sh("bash", INSTALL, "--binary", OTHER, timeout=600)
    print("\n".join("    | " + line for line in out.splitlines()), flush=True)
    if expect == "works":
        g.check(rc == 0, f"the other release's binary installs here (exit {rc})")
        g.check(g.wait_for(lambda: active() and int(prop("MainPID")) not in (0, pid), 60),
                "the service restarted on it")
        g.check(g.wait_for(lambda: g.value("ready") == 1, 15), "ready LED lit by it")
        running = [line for line in journal() if "running:" in line]
        print(f"guest: {running[-1:]}", flush=True)
    else:
        last = out.strip().splitlines()[-1] if out.strip() else ""
        g.check(rc != 0 and "cannot run on" in last and "libgpiod.so" in last and "not have" in last,
                f"refused in one line saying why (exit {rc}): {last}")
        g.check(active() and int(prop("MainPID")) == pid and g.value("ready") == 1,
                "the installed kiosk keeps running")


def main():
    phase = open(PHASE_FILE).read().strip() if os.path.exists(PHASE_FILE) else "1"
    print(f"guest: install test phase {phase} on {sh('sh', '-c', '. /etc/os-release; echo $PRETTY_NAME')[1].strip()},"
          f" {sh('systemctl', '--version')[1].splitlines()[0]}", flush=True)
    try:
        phase1() if phase == "1" else phase2()
    except Exception as e:  # a crash of the test itself is a failure, reported like one
        g.check(False, f"the test raised {type(e).__name__}: {e}")
    result = "PASS" if g.failures == 0 else f"FAIL ({g.failures} failures)"
    print(f"INSTALLTEST PHASE {phase}: {result}", flush=True)
    os.makedirs(os.path.dirname(PHASE_FILE), exist_ok=True)
    with open(PHASE_FILE, "w") as f:
        f.write("2" if phase == "1" else "done")
    os.sync()
    # qemu runs with -no-reboot: a reboot ends this boot, and the host starts the next one.
    subprocess.run(["systemctl", "reboot" if phase == "1" and g.failures == 0 else "poweroff", "--no-block"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
