#!/usr/bin/env python3
"""The coach's console in a real browser (issue 26): headless Chromium driven by selenium
against `gymtimer console` (which runs gymtimer-console, built beside gymtimer), a real Mosquitto, `gymtimer collect` and two headless stations.

It enters a wrong PIN and is refused, logs in, starts a class (an AMRAP) on both stations from
the page and checks from the stations' own traces that both started on the same instant; it
sees the tiles count down, the page's actions refused without the page's token or from another
origin, and the finished AMRAP on the leaderboard. On the health view (phone size) it sees each
station's versions and upgrades them: rack-1, offered a newer version, answers done; rack-2, with
no upgrade agent, refuses and the page says why. It saves the page as docs/console.png (and
the phone, health and TV views beside it).

usage: console_test.py GYMTIMER [--screenshot PNG]
Prints "N passed, M failed"; exits non-zero on any failure.
"""
import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from gymtest import Gym, check, mqtt_publish, wait_for  # noqa: E402

STATIONS = ["rack-1", "rack-2"]
PROGRAM = "AMRAP 1"
AMRAP_SECONDS = 30
LEAD_IN_SECONDS = 3   # the program's own lead-in on the station
CLASS_LEAD = 6        # the console's lead-in: at = now + this
# Two stations given the same `at` start on the same instant of their clocks (one machine here):
# what they trace differs only by how late each process's loop woke, which on a loaded 2-core
# machine stays well under this.
SAME_INSTANT = 0.25
# A station down through a class's pause of REJOIN_PAUSE s, restarted, ends with the others within
# REJOIN_MARGIN s (the precise skew is `gymtimer bench`'s; without following the class it would
# end the whole pause early).
REJOIN_PAUSE = 4
REJOIN_MARGIN = 1.0
# rack-1's installed package and the newer one its (absent) upgrade agent found in the gym's source.
UPGRADE_FROM, UPGRADE_TO = "0.9.0-1", "0.9.0-2"

def trace(path):
    """The station's trace lines (JSON objects), as far as written."""
    lines = []
    try:
        with open(path) as f:
            for line in f:
                try:
                    lines.append(json.loads(line))
                except json.JSONDecodeError:
                    pass
    except FileNotFoundError:
        pass
    return lines


def browser_service():
    """chromedriver, its browser on a time zone where it is about noon now: the page's "repeat
    until HH:MM" means today at that time (a time already past is refused), so the test's "two
    hours from now" must not cross midnight whenever the run happens."""
    offset = (12 - time.gmtime().tm_hour + 12) % 24 - 12   # hours east of UTC, -12 … 11
    zone = "Etc/GMT" + (f"{-offset:+d}" if offset else "")  # Etc/GMT-3 is UTC+3
    return Service(shutil.which("chromedriver") or "/usr/bin/chromedriver", env={**os.environ, "TZ": zone})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("gymtimer")
    parser.add_argument("--screenshot", default="docs/console.png")
    args = parser.parse_args()
    gymtimer = os.path.abspath(args.gymtimer)
    gym = Gym(gymtimer, "console-test-")
    work, base = gym.work, gym.base
    driver = None
    try:
        gym.start_broker()
        gym.start_collector()
        for station in STATIONS:
            # The class's program is built in the console and carried to them: neither has it.
            # rack-1 has a program of its own (rack-2 the built-in ones): the page lists both.
            own = ('[[programs]]\nname = "Row 4"\nlabel = "ro 4"\nkind = "intervals"\nrounds = 4\n'
                   'work_seconds = 30\nrest_seconds = 10\n') if station == "rack-1" else ""
            if station == "rack-1":
                # rack-1's upgrade agent has checked the gym's source and found a newer package
                # (its status.json in upgrade/ beside the history); rack-2 has no agent.
                os.makedirs(os.path.join(work, station, "upgrade"))
                with open(os.path.join(work, station, "upgrade", "status.json"), "w") as f:
                    f.write(json.dumps({"installed": UPGRADE_FROM, "latest": UPGRADE_TO}) + "\n")
            gym.start_station(station, own, stdin=subprocess.PIPE, stdout=open(os.path.join(work, f"{station}.jsonl"), "w"))
        # A name someone left in a retained message: shown, never ticked for a class (it never answers).
        mqtt_publish(gym.mqtt, "gymtimer/ghost-1/status", "online", retain=True)
        check("the console serves its page", gym.start_console())
        served_by = os.path.basename(os.readlink(f"/proc/{gym.process('console').pid}/exe"))
        check("`gymtimer console` became gymtimer-console (same process)", served_by == "gymtimer-console", served_by)

        driver = gym.browser(1280, 1500, service=browser_service())
        driver.get(base + "/")

        def tiles():
            """Each tile's texts, read in one script call (the page redraws tiles as states arrive)."""
            return driver.execute_script("""
                const out = {};
                for (const t of document.querySelectorAll('#floor .tile')) {
                  const text = c => (t.querySelector(c) || {}).textContent || '';
                  out[t.dataset.station] = {online: !t.classList.contains('offline'), left: text('.left'),
                    what: text('.what'), phase: text('.phase'), counts: text('.counts'), refusal: text('.refusal'),
                    locked: !!t.querySelector('.locked'), sleep: text('.sleep')};
                }
                return out;""")

        def both_online():
            found = tiles()
            return all(s in found and found[s]["online"] for s in STATIONS)
        check("a tile per station, both online", wait_for(both_online, 60),
              f"tiles: {list(tiles())}")

        # A wrong PIN is refused, with a message, and unlocks nothing.
        gym.sign_in(driver, "0000")
        refused = wait_for(lambda: driver.find_element(By.ID, "login-error").text, 10)
        check("a wrong PIN is refused with a clear message", refused == "Wrong PIN: the console stays locked.", repr(refused))
        check("a wrong PIN shows no class controls", not driver.find_elements(By.ID, "start"))
        check("the locked page carries no token",
              driver.find_element(By.CSS_SELECTOR, 'meta[name="csrf"]').get_attribute("content") == "")

        gym.sign_in(driver)
        check("the right PIN unlocks the class controls", wait_for(lambda: driver.find_element(By.ID, "start"), 10))
        cookie = driver.get_cookie("gymtimer_console") or {}
        check("the session cookie is HttpOnly and SameSite=Strict",
              cookie.get("httpOnly") is True and cookie.get("sameSite") == "Strict", repr(cookie))

        # Actions refused without the page's token, or from another site, even with the cookie.
        def post(path, body, headers):
            request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                             headers={"Content-Type": "application/json",
                                                      "Cookie": f"gymtimer_console={cookie.get('value', '')}", **headers})
            try:
                return urllib.request.urlopen(request, timeout=5).status
            except urllib.error.HTTPError as error:
                return error.code
        token = driver.find_element(By.CSS_SELECTOR, 'meta[name="csrf"]').get_attribute("content")
        check("an action without the page's token is refused",
              post("/api/reset", {"stations": STATIONS}, {"Origin": base}) == 403)
        check("an action from another origin is refused",
              post("/api/reset", {"stations": STATIONS}, {"Origin": "http://evil.example", "X-CSRF-Token": token}) == 403)
        check("an action without the session is refused",
              post("/api/reset", {"stations": STATIONS}, {"Origin": base, "X-CSRF-Token": token, "Cookie": ""}) == 401)

        # Only the stations that answered the console are ticked: ghost-1 (a retained `online`) is not.
        def ticked():
            return driver.execute_script(
                "return Object.fromEntries(Array.from(document.querySelectorAll('#stations input')).map(i => [i.value, i.checked]))")
        check("the live stations are ticked, the retained ghost is shown but not ticked",
              wait_for(lambda: ticked() if ticked() == {"ghost-1": False, "rack-1": True, "rack-2": True} else None, 10),
              repr(ticked()))

        # The program, built in the console's builder (no station's config has it), kept in the
        # gym's library beside the collector's database; a hostile label is refused, saying why.
        driver.find_element(By.CSS_SELECTOR, "#builder summary").click()
        def build(name, label, kind, **numbers):
            for field, value in [("b-name", name), ("b-label", label)]:
                box = driver.find_element(By.ID, field)
                box.clear()
                box.send_keys(value)
            Select(driver.find_element(By.ID, "b-kind")).select_by_value(kind)
            for key, value in numbers.items():
                box = driver.find_element(By.ID, "b-" + key)
                box.clear()
                box.send_keys(str(value))
            driver.find_element(By.ID, "b-save").click()
            return wait_for(lambda: driver.find_element(By.ID, "b-result").text
                            if driver.find_element(By.ID, "b-result").text not in ("", "Sending…") else None, 10)
        said = build("Bad label", "WWWW", "amrap", time_seconds=60)
        check("the builder refuses a label the display cannot draw", said is not None and said.startswith("Not saved: \"program.label\""),
              repr(said))
        said = build(PROGRAM, "A 1", "amrap", time_seconds=AMRAP_SECONDS, lead_in_seconds=LEAD_IN_SECONDS)
        check("the builder saves the class's program", said == f"Saved {PROGRAM} in the gym's programs", repr(said))
        kept = wait_for(lambda: json.load(open(os.path.join(work, "programs.json"))), 5)
        check("the library is kept with the gym's data (programs.json beside the database)",
              kept == [{"name": PROGRAM, "label": "A 1", "kind": "amrap", "time_seconds": AMRAP_SECONDS,
                        "lead_in_seconds": LEAD_IN_SECONDS}], repr(kept))
        offered = wait_for(lambda: [o.text for o in driver.find_elements(By.CSS_SELECTOR, "#library-programs option")] or None, 10)
        check("the program list offers it (no free-text box)", offered == [PROGRAM], repr(offered))
        own = wait_for(lambda: [o.text for o in driver.find_elements(By.CSS_SELECTOR, "#station-programs option")] or None, 10)
        check("and each station's own programs, saying which stations have them",
              own == ["Row 4 (rack-1)", "Tabata (rack-2)", "EMOM 10 (rack-2)", "AMRAP 12 (rack-2)", "For Time (rack-2)"], repr(own))

        # The class: both stations (checked by default), the program, a lead-in, one click.
        Select(driver.find_element(By.ID, "program")).select_by_visible_text(PROGRAM)
        lead = driver.find_element(By.ID, "lead")
        lead.clear()
        lead.send_keys(str(CLASS_LEAD))
        clicked = time.time()
        driver.find_element(By.ID, "start").click()
        said = wait_for(lambda: driver.find_element(By.ID, "result").text if "starts" in driver.find_element(By.ID, "result").text else None, 10)
        confirmed = time.time()   # the console chose the class's instant (its now + the lead) between the click and this
        check("the page confirms the class", said == f"Class ({PROGRAM}) starts in {CLASS_LEAD} s on {', '.join(STATIONS)}", repr(said))
        # Until the program's run begins (its own lead-in placed to end at the instant), each tile
        # counts down to the class's start from the instant its station scheduled.
        def waiting():
            found = tiles()
            seconds = {s: re.fullmatch(r"0?0:0([1-6])", found[s]["left"]) for s in STATIONS}
            return found if all(found[s]["phase"] == "class starts in" and seconds[s] for s in STATIONS) else None
        check("the tiles count down to the class's start", wait_for(waiting, 4, step=0.1), repr(tiles()))

        # The tiles count down: the program's phase, and fewer seconds a moment later.
        def seconds(text):
            """A tile's time left in seconds (None: it shows no count)."""
            m = re.fullmatch(r"(\d+):(\d\d)", text)
            return int(m.group(1)) * 60 + int(m.group(2)) if m else None

        def left(station):
            return seconds(tiles()[station]["left"])

        def counting():
            found = tiles()
            # Past the program's own lead-in (its 3-2-1 is a count of its own).
            return all(found[s]["what"].endswith(PROGRAM) and left(s) and left(s) > LEAD_IN_SECONDS + 2 for s in STATIONS)
        check("both tiles show the program counting", wait_for(counting, CLASS_LEAD + 20),
              repr(tiles()))
        first = {s: left(s) for s in STATIONS}
        def counted_down():
            now = {s: left(s) for s in STATIONS}
            return now if all(first[s] and now[s] is not None and now[s] < first[s] for s in STATIONS) else None
        later = wait_for(counted_down, 5)
        check("the tiles count down in the browser", later, f"{first} then {later or {s: left(s) for s in STATIONS}}")

        # The same instant, from the stations' own traces: the work's "go" after the click (the
        # program's own lead-in is placed to end at the class's instant: one lead-in, the console's).
        def first_sound(sound, since):
            """Each station's first `sound` after the Unix time `since`, from its trace; None until all have one."""
            found = {}
            for s in STATIONS:
                heard = [line["unix"] for line in trace(os.path.join(work, f"{s}.jsonl"))
                         if line.get("device") == "audio" and line.get("sound") == sound and line.get("unix", 0) > since]
                if not heard:
                    return None
                found[s] = heard[0]
            return found
        began = wait_for(lambda: first_sound("go", clicked), 30)
        check("both stations started (their traces)", began is not None)
        if began:
            spread = max(began.values()) - min(began.values())
            check(f"both started on the same instant (within {SAME_INSTANT} s: {spread:.3f} s)", spread <= SAME_INSTANT)
            check("the work begins at the class's instant (the console's lead-in, not twice)",
                  clicked + CLASS_LEAD - 1.0 <= min(began.values()) <= confirmed + CLASS_LEAD + 1.0,
                  f"{began} vs click {clicked}, confirmed {confirmed}")

        # The members count their rounds at the wall (start adds a round in an AMRAP): two on
        # rack-1, one on rack-2, once the program's own lead-in is over: both traces have its
        # "go" (a press in the lead-in would pause the run), and each line's time counts from
        # when its station reads it.
        if began:
            for station, lines in [("rack-1", "0 click start\n1.5 click start\n"), ("rack-2", "0 click start\n")]:
                stdin = gym.process(station).stdin
                stdin.write(lines.encode())
                stdin.flush()

        # The AMRAP runs out; the collector stores both results; the leaderboard shows them.
        def board():
            rows = driver.find_elements(By.CSS_SELECTOR, f'#boards .board[data-program="{PROGRAM}"] li')
            names = sorted(r.get_attribute("data-station") for r in rows)
            return rows if names == STATIONS else None
        rows = wait_for(board, CLASS_LEAD + AMRAP_SECONDS + 40)
        check("the finished AMRAP is on today's leaderboard", rows is not None,
              repr(driver.find_element(By.ID, "boards").text))
        ranked = driver.execute_script(
            "return Array.from(document.querySelectorAll('#boards .board li')).map(li => [li.dataset.athlete, li.dataset.station, li.dataset.score])")
        check("ranked by rounds, most first (no card tapped: guests)",
              ranked == [["guest", "rack-1", "2 rounds"], ["guest", "rack-2", "1 round"]], repr(ranked))
        check("the week's chart is drawn", wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, "#chart svg rect"), 10))

        # Reset, a second class, pause and resume, from the page's buttons.
        def result():
            return driver.find_element(By.ID, "result").text

        def press(button, says):
            driver.find_element(By.ID, button).click()
            if button == "reset":  # ends without recording: a second tap confirms it
                driver.find_element(By.ID, button).click()
            return wait_for(lambda: result() if result().startswith(says) else None, 10)

        def past(instant):
            """The tiles as each station's first state after `instant` (a Unix time) shows them,
            or None: once the clock is past it, a lock from the page reaches the stations, whose
            next state (locked) is their state after the instant, a start at the instant in it
            (a station handles a due start and a command in one wake-up, then publishes). This
            waits for the state, not for the time a start would take to show. The buttons are
            unlocked again before it returns."""
            wait_for(lambda: time.time() > instant, max(0, instant - time.time()) + 2, step=0.05)
            shown = None
            if press("lock", "Buttons locked on rack-1, rack-2"):
                shown = wait_for(lambda: (lambda t: t if all(t[s]["locked"] for s in STATIONS) else None)(tiles()), 10)
            unlocked = press("unlock", "Buttons unlocked on rack-1, rack-2")
            unlocked = unlocked and wait_for(lambda: not any(tiles()[s]["locked"] for s in STATIONS), 10)
            return shown if unlocked else None

        # One tap of "End without recording" sends nothing: it asks for a second tap, and the
        # question lapses (after 5 s, console.js) with nothing sent meanwhile: a tap that sent
        # would have shown "Sending…" at once.
        before_tap = result()
        driver.find_element(By.ID, "reset").click()
        armed = driver.find_element(By.ID, "reset").text
        lapsed = wait_for(lambda: driver.find_element(By.ID, "reset").text == "End without recording", 10, step=0.1)
        check("one tap of End without recording only asks again (nothing sent)",
              armed == "Tap again: end without recording" and result() == before_tap, f"{armed!r}, {result()!r}")
        check("unconfirmed, it goes back to what it was", lapsed, repr(driver.find_element(By.ID, "reset").text))
        check("reset from the page", press("reset", "Ended without recording on rack-1, rack-2") is not None, repr(result()))
        check("the tiles leave the finished program",
              wait_for(lambda: all("finish" not in tiles()[s]["phase"].lower() for s in STATIONS), 15), repr(tiles()))

        # A program one station lacks (rack-1's own Row 4, for both): rack-2 refuses it, naming it,
        # the start is called off on rack-1, and nothing starts anywhere past the instant.
        Select(driver.find_element(By.ID, "program")).select_by_value("Row 4")
        said = press("start", "Class not started: not every station was ready")
        instant = time.time() + CLASS_LEAD   # no later than the console's now + the lead
        check("a program one station lacks starts nothing, and the page says so per station",
              said is not None and 'refused on rack-2: "start" not allowed now: no program named "Row 4"' in said
              and "called off on rack-1" in said, repr(result()))
        after = past(instant)
        check("past its instant, neither station counts", after and all(not seconds(after[s]["left"]) for s in STATIONS),
              repr(after or tiles()))
        Select(driver.find_element(By.ID, "program")).select_by_visible_text(PROGRAM)

        # A class called off in its lead-in never starts (the tiles stay as they were past its instant).
        def tick_station(name, on):
            box = driver.find_element(By.CSS_SELECTOR, f"#stations input[value='{name}']")
            if box.is_selected() != on:
                box.click()

        def phases():
            return {s: tiles()[s]["phase"] for s in STATIONS}
        before = phases()
        lead.clear()
        lead.send_keys("5")
        check("a class with a 5 s lead-in", press("start", f"Class ({PROGRAM}) starts in 5 s on rack-1, rack-2") is not None, repr(result()))
        instant = time.time() + 5
        check("called off from the page, by every station", press("call-off", "Start called off on rack-1, rack-2") is not None,
              repr(result()))
        # Past the instant it had, what must not happen is a start.
        after = past(instant)
        check("the class called off in its lead-in never started", after and {s: after[s]["phase"] for s in STATIONS} == before,
              f"{before} then {after and {s: after[s]['phase'] for s in STATIONS}}")

        # One station busy (rack-1 runs a class of its own): a class on both is refused by rack-1
        # and called off on rack-2, saying which; ticked "start on the ready ones", it starts on rack-2.
        lead.clear()
        lead.send_keys("3")
        tick_station("rack-2", False)
        check("a class on rack-1 alone", press("start", f"Class ({PROGRAM}) starts in 3 s on rack-1") is not None, repr(result()))
        check("rack-1 counts", wait_for(lambda: left("rack-1") and left("rack-1") > 10, 20), repr(tiles()))
        tick_station("rack-2", True)
        idle2 = tiles()["rack-2"]["phase"]
        said = press("start", "Class not started: not every station was ready")
        instant = time.time() + 3
        check("a class with one busy station is called off, saying which",
              said is not None and "refused on rack-1: " in said and "called off on rack-2" in said, repr(result()))
        after = past(instant)
        check("rack-2 did not start", after and after["rack-2"]["phase"] == idle2, repr(after or tiles()))
        driver.find_element(By.ID, "start-ready").click()
        check("ticked: the class starts on the ready one, and says why not on the other",
              press("start", f"Class ({PROGRAM}) starts in 3 s on rack-2; refused on rack-1: ") is not None, repr(result()))
        driver.find_element(By.ID, "start-ready").click()
        check("rack-2 counts", wait_for(lambda: left("rack-2") and left("rack-2") > 10, 20), repr(tiles()))
        check("reset both", press("reset", "Ended without recording on rack-1, rack-2") is not None, repr(result()))
        check("both idle again", wait_for(lambda: phases() == before, 15), f"{before} then {phases()}")

        check("a second class", press("start", f"Class ({PROGRAM}) starts in 3 s") is not None, repr(result()))
        check("both tiles count again", wait_for(lambda: all(left(s) and left(s) > 10 for s in STATIONS), 20), repr(tiles()))
        check("pause from the page", press("pause", "Paused rack-1, rack-2") is not None, repr(result()))
        paused = wait_for(lambda: tiles() if all("paus" in tiles()[s]["phase"].lower() for s in STATIONS) else None, 10)
        check("both tiles say paused", paused is not None, repr(tiles()))
        classes = driver.execute_script("return Array.from(document.querySelectorAll('#floor .tile')).map(t => t.className)")
        check("a paused tile looks paused (its own colour and word)", sum("paused" in c for c in classes) == len(STATIONS), repr(classes))
        if paused:
            # The page's clock run 5 s on (each tile's time is drawn from it): a paused tile keeps its time.
            ahead = driver.execute_script("""
                const real = Date.now;
                Date.now = () => real() + 5000;
                try {
                  tick();
                  return Object.fromEntries(Array.from(document.querySelectorAll('#floor .tile')).map(
                    t => [t.dataset.station, t.querySelector('.left').textContent]));
                } finally { Date.now = real; tick(); }""")
            check("a paused tile does not count", {s: ahead.get(s) for s in STATIONS} == {s: paused[s]["left"] for s in STATIONS},
                  f"{paused} then, 5 s on, {ahead}")
        # Pause again: every station answers that it is already paused; the page says so in red
        # and never "Paused" (the answers are the stations', not the console's guess).
        check("a second pause: each station's refusal, never a success line",
              press("pause", "Not done anywhere; refused on rack-1, rack-2: \"pause\" not allowed now") is not None
              and "error" in driver.find_element(By.ID, "result").get_attribute("class"), repr(result()))
        check("resume from the page", press("resume", "Resumed rack-1, rack-2") is not None, repr(result()))
        check("both tiles run again",
              wait_for(lambda: all("paus" not in tiles()[s]["phase"].lower() for s in STATIONS), 10), repr(tiles()))

        # A station killed during a class misses its pause and resume; restarted, it follows the
        # class's instants (retained for it by the console) and ends with the others, not a pause early.
        check("reset for a class with a station that goes down", press("reset", "Ended without recording on rack-1, rack-2") is not None, repr(result()))
        wait_for(lambda: all(not left(s) for s in STATIONS), 15)
        check("a third class", press("start", f"Class ({PROGRAM}) starts in 3 s on rack-1, rack-2") is not None, repr(result()))
        check("both count in it", wait_for(lambda: all(left(s) and left(s) > 15 for s in STATIONS), 20), repr(tiles()))
        # When the class ends before its pause (the page's copy of rack-1's state): the pause
        # moves it by as long as the pause lasts, which rack-1's end then measures.
        ends_before = driver.execute_script("return (tiles.find(t => t.name === 'rack-1') || {}).deadline")
        killed_at = time.time()
        gym.process("rack-2").kill()
        check("rack-2, killed, goes offline on its tile", wait_for(lambda: not tiles()["rack-2"]["online"], 15), repr(tiles()))
        check("pause with rack-2 down: done on rack-1, rack-2 offline",
              press("pause", "Paused rack-1; offline, will not get it: rack-2") is not None, repr(result()))
        # Not a wait for a state: the pause's length is the class's, the coach's to choose, and
        # what the restarted station must catch up with (measured below by rack-1's end, not
        # assumed to be this long).
        time.sleep(REJOIN_PAUSE)
        check("resume with rack-2 down", press("resume", "Resumed rack-1; offline, will not get it: rack-2") is not None, repr(result()))
        config = os.path.join(work, "rack-2.toml")
        gym.start("rack-2", [gymtimer, "simulate", "--headless", "--config", config, "--data-dir", os.path.join(work, "rack-2")],
                  stdin=subprocess.PIPE, stdout=open(os.path.join(work, "rack-2.jsonl"), "a"))

        ended = wait_for(lambda: first_sound("complete", killed_at), AMRAP_SECONDS + REJOIN_PAUSE + 30)
        check("restarted, rack-2 finishes the class", ended is not None, repr(tiles()))
        if ended:
            gap = abs(ended["rack-1"] - ended["rack-2"])
            check(f"it ends with rack-1 (within {REJOIN_MARGIN} s, not {REJOIN_PAUSE} s early: {gap:.3f} s)", gap <= REJOIN_MARGIN, repr(ended))
        with open(os.path.join(work, "rack-2.log")) as f:
            moved = [float(m.group(1)) for m in re.finditer(r"fleet: class \S+: moved ([+-][0-9.]+) s to the class's time", f.read())]
        # The pause as rack-1 lived it: its end (its trace) past the end it had before the pause.
        pause = ended["rack-1"] - ends_before if ended and ends_before else None
        check("rack-2's log says it caught up with the class by the pause it missed (rack-1's end moved as much)",
              pause is not None and pause >= REJOIN_PAUSE - REJOIN_MARGIN and any(abs(m - pause) <= REJOIN_MARGIN for m in moved),
              f"moved {moved}, the pause {pause}")

        # A message to the floor: it reaches both stations' displays (their traces), and the
        # wall buttons are locked and unlocked from the page (the tiles say so).
        message = driver.find_element(By.ID, "message")
        message.clear()
        message.send_keys("GO GO")
        said_at = time.time()
        check("a message from the page", press("say", "Showing GO GO for 10 s on rack-1, rack-2") is not None, repr(result()))

        def shown_message():
            seen = {}
            for s in STATIONS:
                texts = [line["text"] for line in trace(os.path.join(work, f"{s}.jsonl"))
                         if line.get("device") == "display" and line.get("unix", 0) >= said_at - 1]
                if "Go G" in texts:  # the decoded segments: O is drawn as o
                    seen[s] = texts
            return seen if len(seen) == len(STATIONS) else None
        check("the message scrolls on both stations' displays (their traces)", wait_for(shown_message, 15))
        check("lock from the page", press("lock", "Buttons locked on rack-1, rack-2") is not None, repr(result()))
        check("both tiles say their buttons are locked",
              wait_for(lambda: all(tiles()[s].get("locked") for s in STATIONS), 10), repr(tiles()))
        check("unlock from the page", press("unlock", "Buttons unlocked on rack-1, rack-2") is not None, repr(result()))
        check("both tiles lose the lock", wait_for(lambda: not any(tiles()[s].get("locked") for s in STATIONS), 10), repr(tiles()))

        if args.screenshot:
            os.makedirs(os.path.dirname(os.path.abspath(args.screenshot)), exist_ok=True)
            driver.save_screenshot(args.screenshot)
            print(f"screenshot: {args.screenshot}")

        # A finished class is no obstacle to the next: no Reset (the stations confirm the result as
        # a press would, its record kept). Then, while that one runs, a class is refused by every
        # station: the page says so, per station and why, in red, never "starts"; each tile says why.
        check("the class finishes on both stations (their results shown)",
              wait_for(lambda: all("finish" in tiles()[s]["phase"].lower() for s in STATIONS), AMRAP_SECONDS + 30),
              repr(tiles()))
        check("a finished tile shows its score, not 00:00",
              wait_for(lambda: all(re.fullmatch(r"\d+ rounds?", tiles()[s]["left"]) for s in STATIONS), 10), repr(tiles()))
        check("the next class without Reset", press("start", f"Class ({PROGRAM}) starts in 3 s on rack-1, rack-2") is not None,
              repr(result()))
        check("both count again", wait_for(lambda: all(left(s) and left(s) > LEAD_IN_SECONDS + 2 for s in STATIONS), 20),
              repr(tiles()))
        check("a class while they run: the page reports each station's refusal, never a start",
              press("start", "Not done anywhere; refused on rack-1, rack-2: ") is not None and "starts" not in result()
              and "error" in driver.find_element(By.ID, "result").get_attribute("class"), repr(result()))
        refused = wait_for(lambda: tiles() if all(tiles()[s]["refusal"].startswith("Refused: ") for s in STATIONS) else None, 15)
        check("each station's refusal shows on its tile", refused is not None, repr(tiles()))
        if refused:
            print(f"     ({refused['rack-1']['refusal']})")

        # A class that repeats: the page's Start repeating is confirmed with its period and end,
        # and Stop repeating ends it (the stations, busy, refuse its first start as above).
        driver.execute_script("""const t = new Date(Date.now() + 2 * 3600 * 1000);
            document.getElementById('until').value = String(t.getHours()).padStart(2, '0') + ':' + String(t.getMinutes()).padStart(2, '0');""")
        check("a repeating class from the page: its first start refused by the busy stations, said so",
              press("repeat", f"Class ({PROGRAM}) repeats every 15 min until") is not None
              and "its first start was not done anywhere; refused on rack-1, rack-2: " in result(), repr(result()))
        check("stop repeating from the page", press("stop-repeating", "Repeating classes stopped") is not None, repr(result()))
        check("nothing repeats after that", press("stop-repeating", "No class was repeating") is not None, repr(result()))
        # An end time already past is refused, never taken for tomorrow (24 hours of classes).
        driver.execute_script("""const t = new Date(Math.max(Date.now() - 120 * 1000, new Date().setHours(0, 0, 0, 0)));
            document.getElementById('until').value = String(t.getHours()).padStart(2, '0') + ':' + String(t.getMinutes()).padStart(2, '0');""")
        check("repeating until two minutes ago is refused, saying why",
              press("repeat", "nothing would repeat") is not None and "error" in driver.find_element(By.ID, "result").get_attribute("class"),
              repr(result()))
        check("and nothing repeats", press("stop-repeating", "No class was repeating") is not None, repr(result()))

        # A sleep window from the page reaches the stations, whose retained states carry it back
        # to the tiles (the tile reads it from the state alone); turned off again, so the
        # stations stay lit whatever the machine's clock says.
        driver.execute_script("document.getElementById('sleep-from').value = '22:00'; document.getElementById('sleep-until').value = '06:00';")
        check("a sleep window from the page", press("sleep", "Displays sleep 22:00–06:00 (station time) on rack-1, rack-2") is not None,
              repr(result()))
        check("both stations' states carry the window to their tiles",
              wait_for(lambda: all("22:00–06:00" in tiles()[s]["sleep"] for s in STATIONS), 10), repr(tiles()))
        check("no sleep from the page", press("sleep-off", "No sleep window on rack-1, rack-2") is not None, repr(result()))
        check("the tiles lose the window", wait_for(lambda: not any(tiles()[s]["sleep"] for s in STATIONS), 10), repr(tiles()))

        # On a phone (390 × 844): nothing wider than the screen; the class controls and the answer to
        # a tap in view without scrolling, however many tiles are above.
        driver.set_window_size(390, 844)
        driver.get(base + "/")
        wait_for(lambda: len(tiles()) >= len(STATIONS), 10)
        metrics = lambda: driver.execute_script("""
            const r = id => { const b = document.getElementById(id).getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
            return {width: document.documentElement.scrollWidth, view: [innerWidth, innerHeight], start: r('start'),
                    pause: r('pause'), result: r('result')};""")
        m = metrics()
        check("phone: the page is no wider than the screen", m["width"] <= m["view"][0], repr(m))
        check("phone: Start class is in view at the top of the page (one thumb)",
              m["start"][3] <= m["view"][1] and m["start"][1] >= m["view"][1] / 2, repr(m))
        said = press("call-off", "Not done anywhere; refused on rack-1, rack-2")
        m = metrics()
        check("phone: a tap's answer shows next to the buttons, in view",
              said is not None and 0 <= m["result"][1] and m["result"][1] < m["view"][1] and abs(m["result"][1] - m["pause"][3]) < 80,
              f"{said!r} {m}")
        if args.screenshot:
            driver.save_screenshot(os.path.join(os.path.dirname(os.path.abspath(args.screenshot)), "console-phone.png"))
        locked_page = gym.browser(1280, 1500, service=browser_service())
        try:
            locked_page.set_window_size(390, 844)
            locked_page.get(base + "/")
            lm = locked_page.execute_script("""const b = document.querySelector('#login button').getBoundingClientRect();
                return {width: document.documentElement.scrollWidth, view: innerWidth, button: b.right, text: b.width > 0 ? document.querySelector('#login button').textContent : ''};""")
            check("phone: the signed-out page fits, Sign in in view", lm["width"] <= lm["view"] and lm["button"] <= lm["view"]
                  and lm["text"] == "Sign in", repr(lm))
            # The stations' health is the coach's: signed out, /health is the sign-in page.
            locked_page.get(base + "/health")
            hidden = locked_page.execute_script(
                "return {health: !!document.querySelector('#health'), login: !!document.querySelector('#login'),"
                " text: document.body.textContent.includes('Sign in to see the stations')};")
            check("health: signed out, /health is the sign-in page, not the stations' health",
                  hidden == {"health": False, "login": True, "text": True}, repr(hidden))
        finally:
            locked_page.quit()

        # The health view on the phone: each station's figures (what its simulated probe reads), and a
        # station whose retained health is hot and unsynchronised flagged in words.
        hot = ('{"version":"1.9.0","uptime":86400,"clock":{"synchronised":false,"offset_ms":null},"cpu_temp":81.2,'
               '"disk_free_mb":300,"disk_free_percent":6.2,"wifi_dbm":-70,'
               '"devices":{"display":"ok","audio":"fault","reader":"absent"},'
               '"fault":{"at":1764300000,"text":"audio output: <gone>"},"flags":["clock","disk","hot"],"at":1764300000}')
        mqtt_publish(gym.mqtt, "gymtimer/ghost-1/health", hot, retain=True)
        def health_rows():
            driver.get(base + "/health")
            return driver.execute_script("""
                const out = {};
                for (const r of document.querySelectorAll('#health tr[data-station]'))
                  out[r.dataset.station] = {flagged: r.classList.contains('flagged'),
                    cells: Array.from(r.querySelectorAll('td')).map(c => c.textContent)};
                return out;""")
        # ghost-1's row shows before its retained health arrives ("no health published"): wait for its figures.
        rows = wait_for(lambda: (lambda r: r if all(s in r and len(r[s]["cells"]) == 10 for s in STATIONS + ["ghost-1"])
                                     else None)(health_rows()), 15)
        check("health: every station's figures (uptime, clock, CPU, disk, devices)",
              rows is not None and all(rows[s]["cells"][2:5] == ["1h 0m", "synchronised +0.0 ms", "45.0 °C"]
                                       and rows[s]["cells"][5] == "4096 MB free (50.0%)" and rows[s]["cells"][9] == "ok"
                                       and not rows[s]["flagged"] for s in STATIONS), repr(rows))
        check("health: a hot, unsynchronised, full station is flagged in words",
              rows is not None and rows["ghost-1"]["flagged"]
              and rows["ghost-1"]["cells"][9] == "CLOCK UNSYNCHRONISED, DISK 6% FREE, HOT 81 °C"
              and rows["ghost-1"]["cells"][8] == "audio output: <gone>", repr(rows and rows.get("ghost-1")))

        # The stations' software on the phone: rack-1 offers a newer version, the coach upgrades it
        # from the page (the station answers done and asks its agent), and rack-2, whose agent never
        # checked, refuses, the page saying why in red.
        def software():
            driver.get(base + "/health")
            return driver.execute_script("""
                const out = {};
                for (const r of document.querySelectorAll('#upgrades tr[data-station]'))
                  out[r.dataset.station] = {text: r.querySelector('.software').textContent, button: !!r.querySelector('button.upgrade')};
                return out;""")
        offered = f"{UPGRADE_FROM} → {UPGRADE_TO} available"
        versions = wait_for(lambda: (lambda r: r if r.get("rack-1", {}).get("text") == offered and "rack-2" in r else None)(software()), 15)
        check("upgrades: rack-1 shows its installed version and the gym's newer one, with an Upgrade button",
              versions is not None and versions["rack-1"] == {"text": offered, "button": True}, repr(software()))
        check("upgrades: rack-2 (no agent) shows its running version, the latest not known",
              versions is not None and versions["rack-2"]["text"].endswith(", latest not known") and versions["rack-2"]["button"],
              repr(versions))
        check("upgrades: an upgrade without the page's token is refused",
              post("/api/upgrade", {"stations": ["rack-1"]}, {"Origin": base}) == 403)
        def upgrade_answer(button):
            button.click()
            return wait_for(lambda: (lambda e: (e.text, e.get_attribute("class")) if e.text not in ("", "Sending…") else None)(
                driver.find_element(By.ID, "upgrade-result")), 15)
        newer = driver.find_element(By.ID, "upgrade-newer")
        um = driver.execute_script("""const b = document.getElementById('upgrade-newer').getBoundingClientRect();
            return {width: document.documentElement.scrollWidth, view: [innerWidth, innerHeight], button: [b.left, b.top, b.right, b.bottom]};""")
        check("phone: the health view fits, 'Upgrade every station with a newer version' in view",
              um["width"] <= um["view"][0] and um["button"][2] <= um["view"][0] and um["button"][3] <= um["view"][1], repr(um))
        check("upgrades: the button for every newer station names rack-1 alone",
              newer.get_attribute("data-stations") == "rack-1" and newer.text == "Upgrade every station with a newer version (1)",
              repr((newer.get_attribute("data-stations"), newer.text)))
        said = upgrade_answer(newer)
        check("upgrades: rack-1 answers done, the page says so",
              said == ("Upgrade asked for on rack-1: each upgrades once idle", ""), repr(said))
        if said:
            print(f"     ({said[0]})")
        request = os.path.join(work, "rack-1", "upgrade", "request")
        check("upgrades: rack-1 wrote its agent's request", wait_for(lambda: os.path.exists(request), 5))
        waiting = f"{UPGRADE_FROM} → {UPGRADE_TO}, upgrade waiting"
        check("upgrades: reloaded, rack-1 says its upgrade is waiting",
              wait_for(lambda: software().get("rack-1", {}).get("text") == waiting or None, 15), repr(software()))
        said = upgrade_answer(driver.find_element(By.CSS_SELECTOR, '#upgrades button.upgrade[data-station="rack-2"]'))
        check("upgrades: rack-2 refuses, the page says why, in red",
              said == ('Not done anywhere; refused on rack-2: "upgrade" not allowed now: no upgrade agent has checked '
                       "the gym's package source on this station (docs/upgrades.md)", "error"), repr(said))
        if said:
            print(f"     ({said[0]})")
        check("upgrades: rack-2 wrote no request", not os.path.exists(os.path.join(work, "rack-2", "upgrade", "request")))
        if args.screenshot:
            driver.save_screenshot(os.path.join(os.path.dirname(os.path.abspath(args.screenshot)), "console-health-phone.png"))

        # The TV by the rig (1280 × 900): the floor's clocks and the leaderboard, large, no controls;
        # equal scores share a rank.
        driver.set_window_size(1280, 900)
        driver.get(base + "/tv")
        wait_for(lambda: len(tiles()) >= len(STATIONS), 10)
        tv = wait_for(lambda: driver.execute_script("""
            const lis = Array.from(document.querySelectorAll('#boards li'));
            if (lis.length < 4) return null;
            return {controls: document.querySelectorAll('button, input, select, form').length,
                    digits: parseFloat(getComputedStyle(document.querySelector('#floor .tile .left')).fontSize),
                    ranks: lis.map(li => [li.value, li.dataset.score])};"""), 15)
        check("TV: no controls at all", tv is not None and tv["controls"] == 0, repr(tv))
        check("TV: the clocks in large type", tv is not None and tv["digits"] >= 64, repr(tv))
        if tv:
            zeros = [rank for rank, score in tv["ranks"] if score == "0 rounds"]
            check("TV: tied scores share a rank", len(zeros) >= 2 and len(set(zeros)) == 1, repr(tv["ranks"]))
        if args.screenshot:
            driver.save_screenshot(os.path.join(os.path.dirname(os.path.abspath(args.screenshot)), "console-tv.png"))

        # A page left open (its event stream never ends by itself) does not hold the console up.
        console = gym.process("console")
        console.send_signal(signal.SIGTERM)
        try:
            code = console.wait(timeout=15)
        except subprocess.TimeoutExpired:
            code = None
        check("the console stops on SIGTERM with a page open", code == 0, f"exit {code}")
    finally:
        if driver is not None:
            driver.quit()
        status = gym.finish(["console", "collect"] + STATIONS, stubborn_fails=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
