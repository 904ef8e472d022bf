#!/usr/bin/env python3
"""The console for a chain (docs/chain.md, "The chain's desk"): a real `gymtimer console --chain
gyms` on a real Mosquitto standing in for the central broker, where the gyms' bridges put their
stations' retained statuses and states under gyms/{gym}/… and the central collectors retain the
chain's leaderboard on gyms/all/gym/scores. In headless Chromium at a phone's size (390 × 844):

  1. a gym picker lists the gyms discovered from their stations' statuses;
  2. the floor shows the chosen gym's stations only, and another gym's once picked;
  3. the leaderboard is the chain's, each entry naming its gym and its athlete by display name,
     read-only (no Rx/Scaled switch);
  4. nothing is wider than the phone's screen.

usage: chain_test.py GYMTIMER
Prints "N passed, M failed"; exits non-zero on any failure.
"""
import datetime
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from gymtest import Gym, check, mqtt_publish, wait_for  # noqa: E402


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    centre = Gym(os.path.abspath(sys.argv[1]), "gymtimer-chain-console-")
    browser = None
    try:
        centre.start_broker()
        state = {"mode": "program", "phase": "idle", "t": 990}
        for gym, station in [("gym-a", "rack-1"), ("gym-a", "rack-2"), ("gym-b", "rower")]:
            mqtt_publish(centre.mqtt, f"gyms/{gym}/{station}/status", "online", retain=True)
            mqtt_publish(centre.mqtt, f"gyms/{gym}/{station}/state", json.dumps(state), retain=True)
        today = datetime.date.today().isoformat()
        # As the central collectors retain it: display names only, no roster or record ids.
        entry = {"station": "rack-1", "division": "rx", "at": 1, "id": ""}
        board = {"day": today, "boards": [{"program": "Fran", "kind": "For Time", "entries": [
            dict(entry, athlete="Bo L.", shown="Bo L.", score="2:30, 3 rounds", rank=1, gym="gym-b", station="rower"),
            dict(entry, athlete="Anna B.", shown="Anna B.", score="3:00, 3 rounds", rank=2, gym="gym-a"),
        ]}], "week": {"days": [today], "stations": ["gym-a", "gym-b"], "counts": [[1], [1]]}}
        mqtt_publish(centre.mqtt, "gyms/all/gym/scores", json.dumps(board), retain=True)
        served = centre.start_console("--chain", "gyms", pin=False, library=False)
        if not check("the chain's console serves its page", served):
            return
        browser = centre.browser(390, 844)
        browser.get(centre.base + "/")
        options = wait_for(lambda: browser.execute_script(
            "const p = document.getElementById('gym-picker'); return p && p.options.length === 2 && [...p.options].map(o => o.value)"), 20)
        check("1. the gym picker lists the gyms seen", options == ["gym-a", "gym-b"], f"{options}")
        stations = lambda: browser.execute_script("return [...document.querySelectorAll('#floor .tile')].map(t => t.dataset.station)")
        shown = wait_for(lambda: stations() == ["rack-1", "rack-2"] and stations(), 20)
        check("2. the floor shows the chosen gym's stations only", shown == ["rack-1", "rack-2"], f"{stations()}")
        browser.execute_script("const p = document.getElementById('gym-picker'); p.value = 'gym-b'; p.dispatchEvent(new Event('change'))")
        picked = wait_for(lambda: stations() == ["rower"] and stations(), 10)
        check("2. another gym picked: its stations", picked == ["rower"], f"{stations()}")
        # The floor's next event keeps the picked gym: counted from the page's own stream (its
        # listener runs after the page's, which has redrawn the floor by then). A changed state
        # of gym A's sends it at once, rather than the refresh every 10 s (ConsoleLink.tilesRefresh):
        # the page handles both alike.
        browser.execute_script("window.floorEvents = 0; events.addEventListener('floor', () => { window.floorEvents += 1; });")
        mqtt_publish(centre.mqtt, "gyms/gym-a/rack-1/state", json.dumps(dict(state, t=991)), retain=True)
        redrawn = wait_for(lambda: browser.execute_script("return window.floorEvents") >= 1, 15)
        kept = (browser.execute_script("return document.getElementById('gym-picker').value") == "gym-b"
                and stations() == ["rower"])
        check("2. the choice stays across the floor's refreshes", redrawn and kept, f"{stations()}")
        entries = wait_for(lambda: browser.execute_script(
            "const l = [...document.querySelectorAll('#boards li')]; return l.length === 2 && l.map(li => li.dataset.gym + ' ' + li.dataset.athlete)"), 20)
        check("3. the chain's leaderboard, each entry naming its gym", entries == ["gym-b Bo L.", "gym-a Anna B."], f"{entries}")
        flips = browser.execute_script("return document.querySelectorAll('#boards button.flip, #boards a.who').length")
        check("3. the leaderboard is read-only", flips == 0, f"{flips}")
        wide = browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        check("4. nothing is wider than the phone", wide[0] <= wide[1], f"{wide}")
    finally:
        if browser is not None:
            browser.quit()
        status = centre.finish(["console", "mosquitto"])
    sys.exit(status)


if __name__ == "__main__":
    main()
