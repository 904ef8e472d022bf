#!/usr/bin/env python3
"""The CI host's side of the install test's fleet step (scripts/vm-test.sh runs it around
Tests/vm/systemd/run.sh): a Mosquitto broker and `gymtimer collect` with its database here, the
station installed with a [fleet] in the VM (which reaches this host at 10.0.2.2 over qemu's user
network: its connections to 10.0.2.2:PORT arrive at 127.0.0.1:PORT). The host drives the station
with the real tools and checks what reaches it:
  1. the installed service comes online (its retained status on the broker, `fleet status`);
  2. `gymtimer fleet start --in 3` (the guest checks its LED lit at the instant);
  3. the workout finished in the VM is in the collect database exactly once (rows counted);
  4. the broker restarted -> the station is online again (re-published, nothing retained);
  5. after the VM's reboot (phase 2) -> online again, and its second workout makes exactly two rows.
Guest -> host: "FLEETTEST <step>" lines on the VM's console (the log run.sh writes);
host -> guest: files served over HTTP on 127.0.0.1:HTTP_PORT (10.0.2.2:HTTP_PORT in the VM).
vm-test.sh removes an earlier run's console logs before it starts this and run.sh, so that an
old run's lines cannot answer for this one.
Prints "fleet host: ok|FAIL ..." per check and "FLEETHOST: PASS|FAIL"; exit status 0 iff PASS.
Usage: fleet_host.py GYMTIMER WORKDIR CONSOLE_LOG_PREFIX BROKER_PORT HTTP_PORT STATION"""
import http.server
import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "support"))
from gymtest import holds, wait_for  # noqa: E402

BIN, WORK, LOG_PREFIX = sys.argv[1], sys.argv[2], sys.argv[3]
PORT, HTTP_PORT, STATION = int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
BROKER = f"mqtt://127.0.0.1:{PORT}"
DB = f"{WORK}/collect.sqlite"
SIGNALS = f"{WORK}/signals"
failures = 0


class Stopped(Exception):
    """SIGTERM from vm-test.sh: the VM has ended before these checks did."""


def say(text):
    print(f"fleet host: {text}", flush=True)


def check(ok, text):
    global failures
    say(("ok   " if ok else "FAIL ") + text)
    failures += 0 if ok else 1
    return ok


def broker():
    os.makedirs(WORK, exist_ok=True)
    conf = f"{WORK}/mosquitto.conf"
    with open(conf, "w") as f:
        f.write(f"listener {PORT} 127.0.0.1\nallow_anonymous true\npersistence false\n")
    proc = subprocess.Popen(["mosquitto", "-c", conf], stdout=subprocess.DEVNULL,
                            stderr=open(f"{WORK}/mosquitto.log", "a"))
    wait_for(lambda: subprocess.run(["ss", "-ltnH", f"sport = :{PORT}"], capture_output=True, text=True).stdout.strip(), 10, 0.1)
    return proc


def status():
    """The station's row of `fleet status`: its status column (online, offline, ?), or None."""
    out = subprocess.run([BIN, "fleet", "status", "--broker", BROKER, "--wait", "1"],
                         capture_output=True, text=True, timeout=30).stdout
    for line in out.splitlines():
        words = line.split()
        if words and words[0] == STATION:
            return words[1]
    return None


def rows():
    if not os.path.exists(DB):
        return 0
    try:
        with sqlite3.connect(f"file:{DB}?mode=ro", uri=True, timeout=5) as db:
            return db.execute("SELECT count(*) FROM workouts").fetchone()[0]
    except sqlite3.Error:
        return -1


def console_has(phase, line):
    try:
        with open(f"{LOG_PREFIX}-{phase}.log", "rb") as f:
            return f"FLEETTEST {line}".encode() in f.read()
    except OSError:
        return False


def signal_guest(name, text="ok"):
    with open(f"{SIGNALS}/{name}.tmp", "w") as f:
        f.write(text)
    os.replace(f"{SIGNALS}/{name}.tmp", f"{SIGNALS}/{name}")
    say(f"told the guest: {name} = {text}")


def serve_signals():
    os.makedirs(SIGNALS, exist_ok=True)
    for name in os.listdir(SIGNALS):
        os.remove(f"{SIGNALS}/{name}")

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=SIGNALS, **kwargs)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", HTTP_PORT), Quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()


def workout_arrives(phase, expected):
    if not check(wait_for(lambda: console_has(phase, f"workout-done {expected}"), 300),
                 f"the guest finished workout {expected}"):
        return
    check(wait_for(lambda: rows() >= expected, 60), f"workout {expected} reached the collect database ({rows()} rows)")
    # A duplicate would come right behind it: watched for 3 s.
    check(holds(lambda: rows() == expected, 3), f"the collect database holds exactly {expected} workout(s): {rows()}")


def main():
    os.makedirs(WORK, exist_ok=True)
    for name in ("collect.sqlite", "collect.sqlite-wal", "collect.sqlite-shm"):  # this run's rows only
        if os.path.exists(f"{WORK}/{name}"):
            os.remove(f"{WORK}/{name}")
    def stop(*_):
        raise Stopped()

    signal.signal(signal.SIGTERM, stop)
    serve_signals()
    mosquitto = broker()
    collect = subprocess.Popen([BIN, "collect", "--broker", BROKER, "--db", DB],
                               stdout=open(f"{WORK}/collect.log", "w"), stderr=subprocess.STDOUT)
    say(f"broker {BROKER} (10.0.2.2:{PORT} in the VM), collect into {DB}, signals on :{HTTP_PORT}")
    try:
        # Phase 1: the installed service with a [fleet].
        if check(wait_for(lambda: console_has(1, "installed"), 900), "the guest installed a station with a [fleet]"):
            check(wait_for(lambda: status() == "online", 90), f"the installed service is online on the broker ({status()})")
            out = subprocess.run([BIN, "fleet", "start", "--in", "3", "--broker", BROKER, "--stations", STATION],
                                 capture_output=True, text=True, timeout=30)
            m = re.search(r"start at (\d+\.\d+)", out.stdout)
            check(out.returncode == 0 and m is not None, f"gymtimer fleet start --in 3: {out.stdout.strip()} {out.stderr.strip()}")
            signal_guest("start-at", m.group(1) if m else "none")
            workout_arrives(1, 1)
            mosquitto.terminate()
            mosquitto.wait(10)
            say("broker stopped; starting it again (nothing retained: persistence false)")
            mosquitto = broker()
            check(wait_for(lambda: status() == "online", 120, 1), f"the broker restarted: the station reconnected and is online ({status()})")
            signal_guest("phase1-done")
        # Phase 2: after the VM's reboot. Its clean stop says goodbye (retained offline) first, so
        # the online seen after it is the rebooted service's.
        check(wait_for(lambda: status() == "offline" or console_has(2, "up"), 600, 1) and status() != "online",
              "the VM's reboot took the station offline (its goodbye)")
        if check(wait_for(lambda: console_has(2, "up"), 900), "the VM rebooted and its test runs again"):
            check(wait_for(lambda: status() == "online", 120, 1), f"after the reboot the service is online again ({status()})")
            workout_arrives(2, 2)
            signal_guest("phase2-done")
            # Served until the guest has read it: this process's end takes the server with it.
            check(wait_for(lambda: console_has(2, "done"), 120), "the guest read the host's last word")
    except Stopped:
        check(False, "the VM ended before the host's checks did")
    finally:
        for proc in (collect, mosquitto):
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
    print(f"FLEETHOST: {'PASS' if failures == 0 else f'FAIL ({failures} failures)'}", flush=True)
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
