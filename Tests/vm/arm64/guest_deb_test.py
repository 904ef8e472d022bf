#!/usr/bin/env python3
"""Runs inside the arm64 install test VM: Debian 13 arm64 booted with systemd as PID 1 under
qemu-system-aarch64, the kernel's simulated devices already up (vmtest-devices.service, before
gymtimer.service as a Pi's own chips are). Installs the arm64 package the way the README tells a
gym owner to (`apt install ./gymtimer_<version>_arm64.deb`, its dependencies from Debian's
archive) and checks what the package promises: the service starts, a press lights the rest
LED, the watchdog holds through a whole rest, `apt remove` keeps the config and the history.
Prints "ARM64TEST PASS: <check>" or "ARM64TEST FAIL: <check>" per check, then
"ARM64 INSTALLTEST: PASS|FAIL", and powers the VM off."""
import glob
import hashlib
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))  # /root/gymtimer
sys.path.insert(0, os.path.dirname(HERE))
import guest_test as g  # noqa: E402  (the simulated lines: value, press, set_pull, wait_for)

CONFIG = "/etc/gymtimer/config.toml"
STATE = "/var/lib/gymtimer"
HISTORY = f"{STATE}/history.sqlite"
failures = 0


def check(ok, what, detail=""):
    global failures
    print(f"ARM64TEST {'PASS' if ok else 'FAIL'}: {what}" + (f" ({detail})" if detail else ""), flush=True)
    failures += 0 if ok else 1
    return ok


def sh(*args, timeout=300):
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    r = subprocess.run(list(args), capture_output=True, text=True, timeout=timeout, env=env, cwd=REPO)
    return r.returncode, r.stdout + r.stderr


def prop(name):
    return sh("systemctl", "show", "gymtimer.service", "-p", name, "--value")[1].strip()


def active():
    return prop("ActiveState") == "active" and prop("SubState") == "running"


def journal():
    return sh("journalctl", "-u", "gymtimer.service", "-o", "cat", "--no-pager")[1].splitlines()


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def span_seconds(span):
    """systemd's time span ("30s", "1min 30s") in seconds; 0 for none."""
    units = {"min": 60, "s": 1, "ms": 0.001}
    return sum(float(n) * units[u] for n, u in re.findall(r"(\d+(?:\.\d+)?)(min|ms|s)\b", span))


def tail(out, n=15):
    return "\n".join("    | " + line for line in out.strip().splitlines()[-n:])


def run():
    machine = sh("uname", "-m")[1].strip()
    check(machine == "aarch64" and g.CHIP == "gpiochip0",
          "Debian 13 arm64 under systemd, gpio-sim as gpiochip0 (the Pi header's name)",
          f"{machine}, {sh('sh', '-c', '. /etc/os-release; echo $PRETTY_NAME')[1].strip()}, "
          f"{sh('systemctl', '--version')[1].splitlines()[0]}, gpio-sim {g.CHIP}")

    # 1. apt install ./gymtimer_<version>_arm64.deb, as the README tells a gym owner.
    debs = sorted(glob.glob(f"{REPO}/gymtimer_*_arm64.deb"))
    deb = "./" + os.path.basename(debs[-1])
    rc, out = sh("apt-get", "update", timeout=900)
    if rc != 0:
        print(tail(out), flush=True)
    t0 = time.monotonic()
    rc, out = sh("apt-get", "install", "-y", deb, timeout=1800)
    print(tail(out), flush=True)
    version = sh("dpkg-query", "-W", "-f=${Version} ${Architecture} ${db:Status-Status}", "gymtimer")[1].strip()
    check(rc == 0 and version.endswith("arm64 installed"), f"apt install {deb}",
          f"exit {rc}, {version}, {time.monotonic() - t0:.0f} s with its dependencies from the archive")

    # 2. The service starts: enabled and running after READY=1, supervised by a watchdog.
    ok = g.wait_for(active, 180)
    is_active = sh("systemctl", "is-active", "gymtimer.service")[1].strip()
    enabled = sh("systemctl", "is-enabled", "gymtimer.service")[1].strip()
    running = [line for line in journal() if "running:" in line]
    check(ok and is_active == "active" and enabled == "enabled" and prop("Type") == "notify",
          "the service starts: systemctl is-active gymtimer",
          f"{is_active}, {enabled}, Type={prop('Type')}, WatchdogSec={prop('WatchdogUSec')}; {running[-1:]}")

    # 3. A simulated press (a pull to ground on GPIO17) lights the rest LED.
    ready = g.wait_for(lambda: g.value("ready") == 1, 30)
    g.press(g.LINE["start"])
    rest = g.wait_for(lambda: g.value("rest") == 1, 10)
    check(ready and rest, "a simulated start press lights the rest LED",
          f"ready LED {g.value('ready')}, rest LED {g.value('rest')}, status '{prop('StatusText')}'")

    # 4. The watchdog holds: the whole 90 s rest (three times WatchdogSec) to its alarm, the
    # same process, not restarted.
    pid, since = prop("MainPID"), time.monotonic()
    watchdog_s = span_seconds(prop("WatchdogUSec"))
    alarm = g.wait_for(lambda: g.value("alarm") == 1 or not active(), 150)
    held = time.monotonic() - since
    dog = [line for line in sh("journalctl", "-b", "--no-pager", "-o", "cat")[1].splitlines() if "Watchdog timeout" in line]
    check(alarm and active() and held > watchdog_s and prop("MainPID") == pid and prop("NRestarts") == "0" and not dog,
          f"the watchdog holds: still active after {held:.0f} s > WatchdogSec={watchdog_s:g} s, NRestarts=0",
          f"pid {pid} -> {prop('MainPID')}, NRestarts={prop('NRestarts')}, alarm LED {g.value('alarm')}, "
          f"watchdog timeouts in the journal: {len(dog)}")

    # 5. History: dismiss the alarm, end the workout (hold dismiss 2 s): the rest is recorded.
    g.press(g.LINE["dismiss"])
    g.wait_for(lambda: g.value("alarm") == 0, 10)
    g.hold_button(g.LINE["dismiss"])
    rows = lambda: [line.strip() for line in sh("gymtimer", "history")[1].splitlines() if " rest " in line]
    recorded = g.wait_for(lambda: bool(rows()), 15)
    check(recorded and os.path.exists(HISTORY), f"the rest is recorded in {HISTORY}", f"gymtimer history: {rows()[-1:]}")

    # 6. apt remove keeps the owner's config (edited, as owners do) and the history.
    with open(CONFIG, "a") as f:
        f.write("# edited by the gym owner before removing the package\n")
    config_sum, history_sum = sha256(CONFIG), sha256(HISTORY)
    rc, out = sh("apt-get", "remove", "-y", "gymtimer", timeout=600)
    print(tail("\n".join(line for line in out.splitlines() if "Reading database" not in line), 8), flush=True)
    status = sh("dpkg-query", "-W", "-f=${db:Status-Abbrev}", "gymtimer")[1].strip()
    gone = not os.path.exists("/usr/bin/gymtimer") and prop("ActiveState") == "inactive"
    kept = (os.path.exists(CONFIG) and sha256(CONFIG) == config_sum
            and os.path.exists(HISTORY) and sha256(HISTORY) == history_sum)
    lit = [n for n in ("ready", "rest", "alarm") if g.value(n) != 0]
    check(rc == 0 and status == "rc" and gone and not lit,
          "apt remove gymtimer: the service stopped, the binary removed (dpkg status rc)",
          f"exit {rc}, dpkg status '{status}', /usr/bin/gymtimer {'gone' if gone else 'still there or running'}, lit LEDs {lit}")
    check(kept, f"apt remove keeps {CONFIG} (with the owner's edit) and the history in {STATE}",
          f"{sorted(os.listdir(STATE)) if os.path.isdir(STATE) else 'no ' + STATE}")


def main():
    try:
        run()
    except Exception as e:  # a crash of the test itself is a failure, reported like one
        check(False, f"the test ran to its end (it raised {type(e).__name__}: {e})")
    if failures:
        print("--- journalctl -u gymtimer:\n" + "\n".join(journal()[-40:]), flush=True)
    print(f"ARM64 INSTALLTEST: {'PASS' if failures == 0 else f'FAIL ({failures} failures)'}", flush=True)
    os.sync()
    subprocess.run(["systemctl", "poweroff", "--no-block"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
