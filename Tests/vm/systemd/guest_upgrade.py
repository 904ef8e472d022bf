"""The install VM's upgrade step (guest_install_test.py runs it once the gymtimer package is
installed from the test command's .deb, VERSION-1): the station is pointed at the gym's package
source the host serves (upgrade-repos.sh: signed with the gym's key, no trusted=yes) as
docs/upgrades.md tells the owner, and its upgrade agent, the packaged units, checked:

* unasked and without an [upgrade] window it only reports: status.json holds both versions;
* an upgrade asked for while a rest runs (the request the kiosk writes, which the path unit
  watches) waits, and happens once the station is idle: VERSION-2 installed, the kiosk restarted;
* forced mid-rest it installs VERSION-3 at once, and the restarted kiosk carries the rest on;
* a repository signed by another key is refused by apt, and nothing is installed."""
import json
import os
import re
import shutil

SOURCES = "/etc/apt/sources.list.d/gymtimer.sources"
KEYRING = "/etc/apt/keyrings/gymtimer.asc"
FOLDER = "/var/lib/gymtimer/upgrade"


def installed(sh):
    return sh("dpkg-query", "-W", "-f", "${Version}", "gymtimer")[1].strip()


def point_at(url):
    """The station's source file, as docs/upgrades.md writes it."""
    with open(SOURCES, "w") as f:
        f.write(f"Types: deb\nURIs: {url}\nSuites: gym\nComponents: main\nSigned-By: {KEYRING}\n")


def status():
    try:
        with open(f"{FOLDER}/status.json") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def agent_log(sh):
    return sh("journalctl", "-u", "gymtimer-upgrade.service", "-o", "cat", "--no-pager")[1]


def last_line(text):
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else ""


def run(g, sh, prop, active, key, url, version):
    """`key`: the gym's public key file; `url`: the host's repositories (next/, later/,
    forged/); `version`: the upstream version (the packages are VERSION-1…4)."""
    v = {n: f"{version}-{n}" for n in (1, 2, 3, 4)}
    g.check(installed(sh) == v[1], f"the station runs the package it was installed from: {installed(sh)}")
    timer = "gymtimer-upgrade.timer"
    g.check(sh("systemctl", "is-enabled", timer)[1].strip() == "enabled" and sh("systemctl", "is-active", timer)[1].strip() == "active"
            and sh("systemctl", "is-enabled", "gymtimer-upgrade.path")[1].strip() == "enabled",
            "the package enabled the agent's hourly timer and its watch on the kiosk's request")
    sh("systemctl", "stop", timer)   # its hourly run must not take apt's lock in the middle of this step
    os.makedirs(os.path.dirname(KEYRING), exist_ok=True)
    shutil.copy(key, KEYRING)
    point_at(f"{url}/next")
    with open(SOURCES) as f:
        g.check("trusted" not in f.read(), "the source names the gym's key (Signed-By), never trusted=yes")

    # Unasked, with no window: the agent only says what there is.
    rc, out = sh("gymtimer", "upgrade", "run", timeout=600)
    g.check(rc == 0 and last_line(out) == "not upgrading now: nobody asked for it and the config has no [upgrade] window",
            f"unasked without a window it only reports: {last_line(out)!r}")
    g.check(status() == {"installed": v[1], "latest": v[2]}, f"status.json for the kiosk: {status()}")
    g.check(installed(sh) == v[1], "nothing installed")

    # Asked for while a rest counts down (35 s: longer than the agent's download): the path unit
    # starts the agent, which downloads, then waits while the rest and then the workout run.
    pid = int(prop("MainPID"))
    g.turn(2)
    g.press(g.LINE["start"])
    g.check(g.wait_for(lambda: prop("StatusText").startswith("rest mode: resting"), 10), f"a rest runs: {prop('StatusText')!r}")
    with open(f"{FOLDER}/request", "w") as f:
        f.write('{"at":1,"id":"vm"}\n')
    # Waiting for whatever runs when its download is done: the rest, its alarm, or on a loaded
    # machine (a slow download) already the workout; each is a run that has not installed,
    # which the checks below assert.
    g.check(g.wait_for(lambda: re.search(r"waiting for the station to be idle: (a rest is counting down|the rest's alarm sounds|"
                                         r"a workout's sets are being counted)", agent_log(sh)), 120),
            f"the request started the agent (gymtimer-upgrade.path), which waits for the run: {last_line(agent_log(sh))!r}")
    g.check(installed(sh) == v[1] and int(prop("MainPID")) == pid, "not upgraded while the rest runs")
    g.press(g.LINE["dismiss"])
    g.check(g.wait_for(lambda: g.value("ready") == 1, 10), "dismiss ends the rest; the workout's sets still count")
    g.check(g.holds(lambda: installed(sh) == v[1] and int(prop("MainPID")) == pid, 20, step=1),
            "not upgraded while the workout is under way (watched for 20 s)")
    g.hold_button(g.LINE["dismiss"])   # dismiss held 2 s: the workout ends, the station is idle
    g.check(g.wait_for(lambda: installed(sh) == v[2], 300),
            f"once idle, {v[2]} is installed: {installed(sh)} ({last_line(agent_log(sh))!r})")
    # apt and dpkg end minutes after the new version is unpacked under a loaded emulator (the
    # guest has no man-db: not its triggers): the agent's last line and its status come once
    # apt has ended.
    g.check(g.wait_for(lambda: f"upgraded gymtimer {v[1]} → {v[2]}" in agent_log(sh), 420), f"the agent says so: {last_line(agent_log(sh))!r}")
    g.check(g.wait_for(lambda: active() and int(prop("MainPID")) not in (0, pid), 60), "the package restarted the kiosk")
    g.check(g.wait_for(lambda: status() == {"installed": v[2], "latest": v[2]} and not os.path.exists(f"{FOLDER}/request"), 60),
            f"status.json says {v[2]}, the request is done: {status()}")

    # Forced mid-rest: installed at once; the restarted kiosk carries the rest on. The path unit
    # starts the agent once more when the done request is removed (it only reports: "nobody
    # asked"), and its apt-get holds apt's lock for a while: this run is the test's own, so it
    # waits for the unit's to end (seen in a run: "Could not get lock /var/lib/apt/lists/lock").
    unit = "gymtimer-upgrade.service"
    g.check(g.wait_for(lambda: sh("systemctl", "is-active", unit)[1].strip() in ("inactive", "failed"), 300),
            f"the agent's own run has ended: {sh('systemctl', 'is-active', unit)[1].strip()}")
    point_at(f"{url}/later")
    g.check(g.wait_for(lambda: g.value("ready") == 1, 30), "ready again after the upgrade")
    # The longest rest the knob gives (20 detents, clamped at the config's maximum, 300 s unless
    # set): the forced upgrade must end inside it, and a loaded CI machine took 160 s for one
    # (a 155 s rest had ended before the kiosk restarted).
    g.turn(20)
    g.press(g.LINE["start"])
    g.check(g.wait_for(lambda: prop("StatusText").startswith("rest mode: resting"), 10), f"a long rest runs: {prop('StatusText')!r}")
    pid = int(prop("MainPID"))
    rc, out = sh("gymtimer", "upgrade", "run", "--force", timeout=900)
    g.check(rc == 0 and last_line(out) == f"upgraded gymtimer {v[2]} → {v[3]}", f"--force mid-rest: {last_line(out)!r}")
    g.check(g.wait_for(lambda: active() and int(prop("MainPID")) not in (0, pid), 60), "the kiosk restarted on the new package")
    g.check(g.wait_for(lambda: prop("StatusText").startswith("rest mode: resting"), 30) and g.value("rest") == 1,
            f"the rest that ran carries on after the upgrade: {prop('StatusText')!r}, rest LED {g.value('rest')}")
    g.press(g.LINE["dismiss"])
    g.check(g.wait_for(lambda: g.value("ready") == 1, 10), "and is dismissed as any rest")

    # A repository signed by another key: apt refuses it, nothing is installed.
    point_at(f"{url}/forged")
    rc, out = sh("gymtimer", "upgrade", "run", "--force", timeout=600)
    g.check(rc == 1 and re.search(r"upgrade failed: refreshing the gym's package source: .*(NO_PUBKEY|is not signed)", last_line(out)),
            f"apt's signature check refuses a repository the gym did not sign: {last_line(out)!r}")
    g.check(installed(sh) == v[3], f"still {v[3]}: {installed(sh)}")
