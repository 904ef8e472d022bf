#!/usr/bin/env python3
"""The coach's console serves athletes (issue 33), in a real browser at a phone's size: headless
Chromium driven by selenium against `gymtimer console`, a real Mosquitto, `gymtimer collect` whose
database the test fills with athletes' records (published as stations publish them) and roster
(`gymtimer athletes add`), and two headless stations.

A new card seen in a record is named from the page; the class list puts athletes on the stations
(their retained states then carry the card, which their tiles show by name) and takes one off
("nobody"); the leaderboard names each athlete with their station, Rx or Scaled, equal scores
sharing a rank; an athlete's page shows their records, streak and points; roster edits without the
coach's session, token or origin are refused.

usage: athletes_test.py GYMTIMER [--screenshot PNG]
Prints "N passed, M failed"; exits non-zero on any failure.
"""
import argparse
import datetime
import json
import os
import subprocess
import sys
import urllib.error
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from gymtest import Gym, check, mqtt_publish, pseudonym, wait_for  # noqa: E402

STATIONS = ["rack-1", "rack-2"]
# The members' cards as everything past a station knows them: their pseudonyms under the gym's key.
ANNA, BEN, NEW = (pseudonym(uid) for uid in ("04A1B2C3", "04B0B0B0", "0DDC0FFE"))
GUEST_STATION = "rack-4"
PROGRAM = "AMRAP 12"


def record(station, number, score, card):
    """A finished program's record as a station publishes it on P/{station}/workout."""
    now = datetime.datetime.now(datetime.timezone.utc)
    local = datetime.datetime.now().date().isoformat()
    fields = {"calories": 0, "completed_at": now.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z", "duration_ms": 720000,
              "exercises": [], "id": f"program@{number}", "kind": "program", "local_day": local, "preset": PROGRAM,
              "score": score, "sets": 0}
    if card:
        fields["athlete"] = card
    return json.dumps(fields)


def ask(card):
    """A station's word that `card` is on it, as of the record's start (`record`'s 12 minutes ago):
    what it sends on P/{station}/card-ask before each record of an athlete."""
    started = datetime.datetime.now(datetime.timezone.utc).timestamp() - 720
    return json.dumps({"at": int(started) - 1, "card": card})


def latest_events(base, cookie=None, wanted=("floor", "scores"), seconds=10):
    """The first frame of each of `wanted` on the page's stream (/events), read as a page not
    signed in (no cookie) or as the coach: {event: data}."""
    headers = {"Cookie": f"gymtimer_console={cookie}"} if cookie else {}
    found = {}
    with urllib.request.urlopen(urllib.request.Request(base + "/events", headers=headers), timeout=seconds) as stream:
        event = None
        while not all(name in found for name in wanted):
            line = stream.readline().decode()
            if not line:
                break
            if line.startswith("event: "):
                event = line[7:].strip()
            elif line.startswith("data: ") and event and event not in found:
                found[event] = line[6:].strip()
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("gymtimer")
    parser.add_argument("--screenshot", help="save the phone's page, scrolled to the athletes, here")
    args = parser.parse_args()
    gymtimer = os.path.abspath(args.gymtimer)
    gym = Gym(gymtimer, "console-athletes-")
    db, base = gym.db, gym.base
    driver = None
    try:
        gym.start_broker()
        gym.start_collector()
        check("the collector makes its database", wait_for(lambda: os.path.exists(db), 20))
        for name, card in [("Anna Berg", ANNA), ("Ben Ohl", BEN)]:
            added = subprocess.run([gymtimer, "athletes", "--db", db, "add", name, "--card", card], capture_output=True, text=True)
            check(f"the roster has {name} (gymtimer athletes add)", added.returncode == 0, added.stderr)
        # Today's AMRAP: Anna and Ben tie, a card nobody named, a guest.
        for station, number, score, card in [("rack-1", 1, "8 rounds", ANNA), ("rack-2", 1, "8 rounds", BEN),
                                             ("rack-3", 1, "5 rounds", NEW), (GUEST_STATION, 1, "4 rounds", None)]:
            if card:
                mqtt_publish(gym.mqtt, f"gymtimer/{station}/card-ask", ask(card))
            mqtt_publish(gym.mqtt, f"gymtimer/{station}/workout", record(station, number, score, card))
        for station in STATIONS:
            gym.start_station(station)
        check("the console serves its page", gym.start_console())

        driver = gym.browser(390, 844)
        driver.set_window_size(390, 844)
        driver.get(base + "/")
        check("signed out: no athletes' controls", not driver.find_elements(By.ID, "athletes"))
        gym.sign_in(driver)
        check("signed in: the athletes' section", wait_for(lambda: driver.find_element(By.ID, "athletes"), 10))
        cookie = (driver.get_cookie("gymtimer_console") or {}).get("value", "")
        token = driver.find_element(By.CSS_SELECTOR, 'meta[name="csrf"]').get_attribute("content")

        def post(path, body, headers):
            request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                             headers={"Content-Type": "application/json", **headers})
            try:
                with urllib.request.urlopen(request, timeout=10) as response:
                    return response.status, json.load(response).get("message")
            except urllib.error.HTTPError as error:
                return error.code, json.load(error).get("message")
        naming = {"card": NEW, "name": "Mallory", "short": "AAAA"}
        status, said = post("/api/roster-name", naming, {"Origin": base, "X-CSRF-Token": token})
        check("a roster edit without the coach's session is refused (401, saying why)",
              status == 401 and said == "not logged in: enter the PIN first", f"{status} {said!r}")
        status, said = post("/api/roster-name", naming, {"Origin": base, "Cookie": f"gymtimer_console={cookie}"})
        check("a roster edit without the page's token is refused (403)", status == 403 and "token" in said, f"{status} {said!r}")
        status, said = post("/api/roster-name", naming,
                            {"Origin": "http://evil.example", "X-CSRF-Token": token, "Cookie": f"gymtimer_console={cookie}"})
        check("a roster edit from another origin is refused (403)", status == 403, f"{status} {said!r}")
        status, said = post("/api/division", {"id": "rack-1/program@1", "division": "scaled"}, {"Origin": base, "X-CSRF-Token": token})
        check("an Rx/Scaled change without the session is refused (401)", status == 401, f"{status} {said!r}")
        request = urllib.request.Request(base + "/api/roster")
        try:
            urllib.request.urlopen(request, timeout=5)
            roster_status = 200
        except urllib.error.HTTPError as error:
            roster_status = error.code
        check("the roster (cards) is not served without the session", roster_status == 401, str(roster_status))

        # The leaderboard by athlete: the new card by its tail, the guest, ties sharing a rank.
        def board():
            return driver.execute_script("""
                return Array.from(document.querySelectorAll('#boards .board li')).map(li =>
                  [li.dataset.rank, li.dataset.athlete, li.dataset.station, li.dataset.division, li.dataset.score]);""")
        expected = [["1", "Anna Berg", "rack-1", "rx", "8 rounds"], ["1", "Ben Ohl", "rack-2", "rx", "8 rounds"],
                    ["3", f"new card {NEW[-4:]}", "rack-3", "rx", "5 rounds"], ["4", "guest", GUEST_STATION, "rx", "4 rounds"]]
        shown = wait_for(lambda: board() if board() == expected else None, 20)
        check("the leaderboard names each athlete with their station, Rx, equal scores sharing a rank", shown is not None, repr(board()))
        texts = driver.execute_script("return Array.from(document.querySelectorAll('#boards .board li')).map(li => li.textContent)")
        check("each line reads as the wall says it", bool(texts) and texts[0].startswith("Anna Berg · rack-1 — 8 rounds Rx"), repr(texts))

        # A new card, named from the page.
        new_card = f'#new-cards li[data-card="{NEW}"]'
        check("the card nobody named is offered", wait_for(lambda: driver.find_element(By.CSS_SELECTOR, new_card), 15),
              driver.find_element(By.ID, "new-cards").text)
        item = driver.find_element(By.CSS_SELECTOR, new_card)
        item.find_element(By.CSS_SELECTOR, "input.name").send_keys("Cara Dune")
        item.find_element(By.CSS_SELECTOR, "input.short").send_keys("CArA")
        item.find_element(By.TAG_NAME, "button").click()
        said = wait_for(lambda: driver.find_element(By.ID, "nc-result").text if "Card" in driver.find_element(By.ID, "nc-result").text else None, 10)
        check("the page names the card", said == f"Card {NEW} is Cara Dune (CArA on the wall)", repr(said))
        check("it leaves the new cards", wait_for(lambda: not driver.find_elements(By.CSS_SELECTOR, new_card), 10))
        listed = subprocess.run([gymtimer, "athletes", "--db", db, "list"], capture_output=True, text=True).stdout
        check("the roster in the collector's database has her", "Cara Dune" in listed and NEW in listed, listed)
        check("the leaderboard names her", wait_for(lambda: board()[2][1] == "Cara Dune", 15), repr(board()))
        # A short name the wall cannot draw is refused, saying why.
        status, said = post("/api/roster-rename", {"id": 3, "short": "WWWW"},
                            {"Origin": base, "X-CSRF-Token": token, "Cookie": f"gymtimer_console={cookie}"})
        check("a short name a digit cannot draw is refused", status == 409 and said.startswith("Not renamed: bad short name"), f"{status} {said!r}")

        # The class list: Anna on rack-1, Ben on rack-2; the stations answer; their states carry the card.
        def tiles():
            return driver.execute_script("""
                const out = {};
                for (const t of document.querySelectorAll('#floor .tile'))
                  out[t.dataset.station] = {online: !t.classList.contains('offline'), athlete: (t.querySelector('.athlete') || {}).textContent || ''};
                return out;""")
        check("both stations on the floor", wait_for(lambda: all(tiles().get(s, {}).get("online") for s in STATIONS), 60), repr(tiles()))
        check("a class line per station",
              wait_for(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#class-lines select.who")) == 2, 10))

        def put(assignments, says, divisions=None):
            for station, who in assignments.items():
                Select(driver.find_element(By.CSS_SELECTOR, f'#class-lines select.who[data-station="{station}"]')).select_by_visible_text(who)
            for station, division in (divisions or {}).items():
                Select(driver.find_element(By.CSS_SELECTOR, f'#class-lines select.division[data-station="{station}"]')).select_by_visible_text(division)
            driver.find_element(By.ID, "put").click()
            return wait_for(lambda: driver.find_element(By.ID, "cl-result").text
                            if driver.find_element(By.ID, "cl-result").text.startswith(says) else None, 10)
        said = put({"rack-1": "Anna Berg", "rack-2": "Ben Ohl"}, "On the stations", {"rack-2": "Scaled"})
        check("the class list puts Anna and Ben (Scaled) on the stations, each answering",
              said == "On the stations: Anna Berg on rack-1, Ben Ohl on rack-2 (Scaled)", repr(driver.find_element(By.ID, "cl-result").text))
        Select(driver.find_element(By.CSS_SELECTOR, '#class-lines select.division[data-station="rack-2"]')).select_by_index(0)
        check("their retained states carry the athletes (the tiles name them)",
              wait_for(lambda: tiles()["rack-1"]["athlete"] == "Anna Berg" and tiles()["rack-2"]["athlete"] == "Ben Ohl", 10),
              repr(tiles()))
        # A page not signed in (the TV, a member's phone) gets display names only: no card, no
        # full name, no roster id, while the coach's stream has them.
        coach_sees, guest_sees = latest_events(base, cookie), latest_events(base)
        check("the coach's stream carries the cards on the stations and full names",
              ANNA in coach_sees.get("floor", "") and "Anna Berg" in coach_sees.get("scores", ""), repr(coach_sees)[:300])
        guest_board = [e["athlete"] for b in json.loads(guest_sees.get("scores", "{}")).get("boards", []) for e in b["entries"]]
        check("a signed-out stream names athletes by display name only (Anna B.), a new card as a guest",
              guest_board == ["Anna B.", "Ben O.", "Cara D.", "guest"], repr(guest_board))
        leaked = [t for t in (ANNA, BEN, NEW, NEW[-4:], "Berg", "Ohl", "Dune", "athleteID") if t in json.dumps(guest_sees)]
        check("and no card, surname or roster id at all", not leaked, repr(leaked))
        # The owner's choice per athlete, from the roster's row: Ben would rather be nobody in
        # particular on the TV; Cara shows her short name. The signed-out board follows.
        def shown_as(athlete_id, value, says):
            driver.execute_script("document.getElementById('roster').open = true")
            def choose():
                try:  # the roster redraws when it reloads: find the row afresh each try
                    row = driver.find_element(By.CSS_SELECTOR, f'#roster-list li[data-id="{athlete_id}"]')
                    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", row)
                    Select(row.find_element(By.CSS_SELECTOR, "select.shown")).select_by_value(value)
                    row.find_element(By.TAG_NAME, "button").click()
                    return True
                except Exception:
                    return False
            # A redraw between the choice and the click sends the row as it was (refused: nothing
            # to change); the coach would choose again, and so does the test.
            for _ in range(3):
                wait_for(choose, 10)
                said = wait_for(lambda: driver.find_element(By.ID, "r-result").text
                                if driver.find_element(By.ID, "r-result").text == says else None, 5)
                if said:
                    return said
            return None
        said = shown_as(2, "guest", "Signed out, Ben Ohl is shown as guest")
        check("the roster's row shows Ben as a guest signed out", said is not None,
              repr(driver.find_element(By.ID, "r-result").text))
        said = shown_as(3, "short", "Signed out, Cara Dune is shown as CArA")
        check("and Cara by her short name", said is not None, repr(driver.find_element(By.ID, "r-result").text))
        def guests_board():
            events = latest_events(base, wanted=("scores",))
            return [e["athlete"] for b in json.loads(events.get("scores", "{}")).get("boards", []) for e in b["entries"]]
        check("the signed-out board names Ben guest and Cara CArA",
              wait_for(lambda: guests_board() == ["Anna B.", "guest", "CArA", "guest"], 15), repr(guests_board()))
        check("the select keeps each choice after the reload",
              wait_for(lambda: driver.execute_script(
                  "return Array.from(document.querySelectorAll('#roster-list select.shown')).map(s => s.value)") == ["initial", "guest", "short"], 10),
              repr(driver.execute_script("return Array.from(document.querySelectorAll('#roster-list select.shown')).map(s => s.value)")))
        said = put({"rack-1": "Ben Ohl", "rack-2": "Ben Ohl"}, "Ben Ohl is on")
        check("one athlete is on one station at a time", said == "Ben Ohl is on rack-1 and rack-2: one station each",
              repr(driver.find_element(By.ID, "cl-result").text))
        said = put({"rack-1": "(leave as is)", "rack-2": "nobody"}, "On the stations")
        check("nobody on rack-2", said == "On the stations: nobody on rack-2", repr(driver.find_element(By.ID, "cl-result").text))
        check("rack-2's state no longer names anyone; rack-1 keeps Anna",
              wait_for(lambda: tiles()["rack-2"]["athlete"] == "" and tiles()["rack-1"]["athlete"] == "Anna Berg", 10), repr(tiles()))

        if args.screenshot:
            driver.execute_script("document.getElementById('athletes').scrollIntoView()")
            driver.save_screenshot(args.screenshot)
        # The coach's Rx/Scaled switch on a result: Anna's, then Ben's, to Scaled. Rx ranks above
        # Scaled, and the two equal Scaled scores share a rank.
        def flip(name, says):
            button = driver.find_element(By.CSS_SELECTOR, f'#boards li[data-athlete="{name}"] button.flip')
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
            button.click()
            return wait_for(lambda: driver.find_element(By.ID, "cl-result").text
                            if driver.find_element(By.ID, "cl-result").text.startswith(says) else None, 10)
        said = flip("Anna Berg", "Anna Berg's")
        check("the coach switches Anna's result to Scaled", said == f"Anna Berg's {PROGRAM} (8 rounds) is Scaled now",
              repr(driver.find_element(By.ID, "cl-result").text))
        expected = [["1", "Ben Ohl", "rack-2", "rx", "8 rounds"], ["2", "Cara Dune", "rack-3", "rx", "5 rounds"],
                    ["3", "guest", GUEST_STATION, "rx", "4 rounds"], ["4", "Anna Berg", "rack-1", "scaled", "8 rounds"]]
        check("Rx ranks above Scaled: Anna's 8 rounds Scaled below the guest's 4 Rx",
              wait_for(lambda: board() == expected, 15), repr(board()))
        flip("Ben Ohl", "Ben Ohl's")
        expected = [["1", "Cara Dune", "rack-3", "rx", "5 rounds"], ["2", "guest", GUEST_STATION, "rx", "4 rounds"],
                    ["3", "Anna Berg", "rack-1", "scaled", "8 rounds"], ["3", "Ben Ohl", "rack-2", "scaled", "8 rounds"]]
        check("equal scores in one division share a rank (Scaled 3, 3)", wait_for(lambda: board() == expected, 15), repr(board()))
        badge = driver.find_element(By.CSS_SELECTOR, '#boards li[data-athlete="Anna Berg"] .division').text
        check("the result says Scaled, its switch offers Rx", badge == "Scaled" and driver.find_element(
            By.CSS_SELECTOR, '#boards li[data-athlete="Anna Berg"] button.flip').text == "→ Rx", badge)

        # The coach voids Cara's result (confirmed in the browser's dialog): it leaves the board,
        # the others move up, and the answer says what was voided.
        button = driver.find_element(By.CSS_SELECTOR, '#boards li[data-athlete="Cara Dune"] button.void')
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
        button.click()
        dialog = wait_for(lambda: driver.switch_to.alert, 5)
        check("voiding asks first", dialog is not None and "Void Cara Dune's 5 rounds?" in dialog.text, repr(dialog and dialog.text))
        if dialog is not None:
            dialog.accept()
        said = wait_for(lambda: driver.find_element(By.ID, "cl-result").text
                        if "void" in driver.find_element(By.ID, "cl-result").text else None, 10)
        check("the coach voids Cara's result", said == f"Cara Dune's {PROGRAM} (5 rounds) is void: no best or leaderboard counts it",
              repr(driver.find_element(By.ID, "cl-result").text))
        expected = [["1", "guest", GUEST_STATION, "rx", "4 rounds"],
                    ["2", "Anna Berg", "rack-1", "scaled", "8 rounds"], ["2", "Ben Ohl", "rack-2", "scaled", "8 rounds"]]
        check("a voided result leaves the board", wait_for(lambda: board() == expected, 15), repr(board()))

        # Anna's page: her records, streak and points.
        link = driver.find_element(By.CSS_SELECTOR, '#boards li[data-athlete="Anna Berg"] a')
        # On a phone the class buttons stay at the screen's foot: the link is brought to the middle first.
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
        link.click()
        check("her page", wait_for(lambda: driver.find_element(By.ID, "athlete-name").text == "Anna Berg", 10), driver.current_url)
        check("her points and streak", driver.find_element(By.ID, "points").text == "50"
              and driver.find_element(By.ID, "current-streak").text == "1", driver.find_element(By.ID, "streak").text)
        cells = driver.execute_script(
            "return Array.from(document.querySelectorAll('#records tr')).slice(1).map(r => Array.from(r.cells).map(c => c.textContent))")
        check("her record: the program, her best, where", cells == [[PROGRAM, "8 rounds", "Scaled", "rack-1"]], repr(cells))
        m = driver.execute_script("return {width: document.documentElement.scrollWidth, view: innerWidth}")
        check("phone: her page is no wider than the screen", m["width"] <= m["view"], repr(m))
    finally:
        if driver is not None:
            driver.quit()
        status = gym.finish(["console", "collect"] + STATIONS)
    return status


if __name__ == "__main__":
    sys.exit(main())
