#!/usr/bin/env python3
"""The interactive simulator as a person meets it: `gymtimer simulate` in a real terminal
(tmux), keys typed with send-keys, the screen read back with capture-pane and the big
7-segment digits decoded from the drawing. Real time: each check waits for what it expects,
up to a timeout, and fails saying what the screen showed instead.

Usage: terminal_test.py BINARY
"""
import json, os, shutil, signal, subprocess, sys, tempfile, time, unicodedata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import gymtest  # noqa: E402
import tmux_kiosk  # noqa: E402
from gymtest import check, failures, free_port, mqtt_publish  # noqa: E402
from tmux_kiosk import (SESSION, digits, ended, new_session, pane, send, screen, start, stop, tmux,  # noqa: E402
                        wait_for, wait_for_panes)

BIN = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/release/gymtimer")
tmux_kiosk.configure(BIN)


def kiosks(marker):
    """The gymtimer processes (pids) whose command line has `marker` (a path of the test's own)."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")
        except OSError:
            continue
        if os.path.basename(argv[0]) == b"gymtimer" and any(marker.encode() in arg for arg in argv[1:]):
            found.append(int(pid))
    return found


def gone(marker, what):
    """Waits until no gymtimer process of `marker` is left (a stopped one may take a moment to
    end); a failed check `what` if one is."""
    left = gymtest.wait_for(lambda: not kiosks(marker), 10, step=0.05)
    if not left:
        check(what, False, f"still running: {kiosks(marker)}")


def whole(lines):
    """The panel is all there, once: title, box, LEDs, legend, and nothing else but events."""
    text = "\n".join(lines)
    return (text.count("GymTimer — simulated kiosk") == 1 and text.count("┌") == 1 and text.count("└") == 1
            and ("● ready" in text or "○ ready" in text) and "q/Ctrl-C quit" in text and digits(lines) is not None)


def test_keys_in_order():
    start()
    # Six detents down then start, typed at once: the rest starts at 90 - 6×15, clamped to 15 s.
    tmux("send-keys", "-t", SESSION, *(["Left"] * 6), "s")
    lines = wait_for("the rest counts down from 00:15", lambda l: digits(l) in ("0014", "0013"), timeout=4)
    check("six ← then s: the rest starts at the duration the turns set (00:15)", digits(lines) in ("0014", "0013"))
    text = "\n".join(lines)
    check("the event list shows the turn before the press", text.find("knob −6") != -1
          and text.find("knob −6") < text.find("start pressed"))
    stop()


def test_resize():
    start()
    tmux("resize-window", "-t", SESSION, "-x", "40", "-y", "12")
    lines = wait_for("a small terminal says how big it must be", lambda l: "enlarge the terminal" in " ".join(l))
    check("40×12: 'enlarge the terminal to at least …'", "enlarge the terminal" in " ".join(lines))
    tmux("resize-window", "-t", SESSION, "-x", "100", "-y", "35")
    lines = wait_for("grown back, the panel is whole", lambda l: whole(l) and "enlarge" not in " ".join(l))
    check("shrink then grow: the screen is whole, no fragments", whole(lines) and "enlarge" not in " ".join(lines))
    drawn = [l.rstrip() for l in lines if l.strip()]
    left = min(len(l) - len(l.lstrip()) for l in drawn)
    right = 100 - max(len(l) for l in drawn)
    check(f"the panel is centred ({left} columns left, {right} right)", abs(left - right) <= 1)
    tmux("send-keys", "-t", SESSION, "C-l")
    lines = wait_for("Ctrl-L redraws", whole)
    check("Ctrl-L: the screen is whole", whole(lines))
    stop()


def test_data_dir():
    directory = tempfile.mkdtemp(prefix="gymtimer-terminal-")
    config = os.path.join(directory, "config.toml")
    with open(config, "w") as f:
        f.write("[rest]\ndefault_seconds = 2\nmin_seconds = 1\nstep_seconds = 1\n")
    data = os.path.join(directory, "data")
    start("--config", config, "--data-dir", data)
    lines = wait_for("it says where it keeps its data", lambda l: data in "\n".join(l))
    check("the data directory is named on screen", data in "\n".join(lines))
    tmux("send-keys", "-t", SESSION, "s")
    wait_for("the alarm", lambda l: "● alarm" in "\n".join(l), timeout=6)
    tmux("send-keys", "-t", SESSION, "d")
    wait_for("idle again", lambda l: "● ready" in "\n".join(l))
    tmux("send-keys", "-t", SESSION, "D")
    lines = wait_for("the workout is recorded", lambda l: "recorded: rest workout, 1 set" in "\n".join(l), timeout=6)
    check("a 2 s hold of dismiss records the workout", "recorded: rest workout, 1 set" in "\n".join(lines))
    tmux("send-keys", "-t", SESSION, "q")
    check("q ends the simulator", gymtest.wait_for(ended, 10, step=0.05))
    stop()
    out = subprocess.run([BIN, "history", "--db", os.path.join(data, "history.sqlite")], capture_output=True, text=True)
    check(f"gymtimer history --db shows it (exit {out.returncode}: {out.stdout.strip()[:200]} {out.stderr.strip()[:200]})",
          out.returncode == 0 and "rest" in out.stdout)

    # Killed mid-rest, started again: the rest carries on where the clock says.
    with open(config, "w") as f:
        f.write("[rest]\ndefault_seconds = 60\n")
    start("--config", config, "--data-dir", data)
    tmux("send-keys", "-t", SESSION, "s")
    wait_for("resting", lambda l: digits(l) in ("0059", "0058"))
    for pid in kiosks(data):
        os.kill(pid, signal.SIGKILL)
    stop()
    gone(data, "the killed simulator has ended")
    start("--config", config, "--data-dir", data)
    lines = wait_for("the rest carries on after a kill", lambda l: digits(l) in ("0058", "0057", "0056", "0055"))
    check(f"killed mid-rest and started again: the rest carries on (shows {digits(lines)})",
          digits(lines) in ("0058", "0057", "0056", "0055") and "● rest" in "\n".join(lines))
    stop()
    shutil.rmtree(directory, ignore_errors=True)


def test_sigterm():
    """SIGTERM to the terminal simulator mid-rest (systemd's stop, `kill`): it leaves through the
    one clean stop, exit status 0, the terminal given back (its drawing gone with the alternate
    screen), and the rest saved, so started again it carries on."""
    directory = tempfile.mkdtemp(prefix="gymtimer-terminal-term-")
    config = os.path.join(directory, "config.toml")
    with open(config, "w") as f:
        f.write("[rest]\ndefault_seconds = 60\n")
    data = os.path.join(directory, "data")
    status_file = os.path.join(directory, "status")
    # Run under a shell that writes the exit status down (the pane stays, to read it back).
    new_session(f"{BIN} simulate --config {config} --data-dir {data}; echo $? > {status_file}")
    wait_for("the panel is drawn", lambda l: digits(l) is not None)
    tmux("send-keys", "-t", SESSION, "s")
    wait_for("resting", lambda l: digits(l) in ("0059", "0058"))
    pids = kiosks(data)
    check(f"the simulator's process is found ({pids})", len(pids) == 1)
    if pids:
        os.kill(pids[0], signal.SIGTERM)
    tmux_kiosk.wait_for("the simulator ended", lambda l: os.path.exists(status_file) and open(status_file).read().strip())
    status = open(status_file).read().strip() if os.path.exists(status_file) else "(still running)"
    check(f"SIGTERM mid-rest: exit status 0 (was {status})", status == "0")
    lines = screen()
    check("the terminal is given back: no panel left on it", digits(lines) is None and "┌" not in "\n".join(lines))
    stop()
    start("--config", config, "--data-dir", data)
    lines = wait_for("the rest carries on after SIGTERM", lambda l: digits(l) in ("0058", "0057", "0056", "0055", "0054"))
    check(f"stopped by SIGTERM mid-rest and started again: the rest carries on (shows {digits(lines)})",
          digits(lines) in ("0058", "0057", "0056", "0055", "0054") and "● rest" in "\n".join(lines))
    stop()
    shutil.rmtree(directory, ignore_errors=True)


def test_fleet():
    """Two terminal stations in two tmux windows on one local Mosquitto, as the README's demo:
    one `gymtimer fleet start --in 2` starts the rest on both at the same instant."""
    check("mosquitto is installed (scripts/install-deps.sh --tests installs it)", gymtest.mosquitto_binary() is not None)
    if gymtest.mosquitto_binary() is None:
        return
    directory = tempfile.mkdtemp(prefix="gymtimer-terminal-fleet-")
    broker, port = gymtest.start_broker(directory)
    try:
        targets = []
        for index, name in enumerate(["rack-1", "rack-2"]):
            config = os.path.join(directory, f"{name}.toml")
            with open(config, "w") as f:
                f.write(f'[fleet]\nbroker = "mqtt://127.0.0.1:{port}"\nstation = "{name}"\n')
            command = " ".join([BIN, "simulate", "--config", config])
            if index == 0:
                new_session(command, name=name)
            else:
                tmux("new-window", "-d", "-t", SESSION, "-n", name, command)
            targets.append(f"{SESSION}:{name}")
        online = wait_for_panes("both stations connect", targets,
                                lambda *s: all("fleet: connected" in "\n".join(l) for l in s))
        check("both panels say the station is connected",
              all("fleet: connected" in "\n".join(l) for l in online))
        check("each status line names its station",
              all(f"station {n}" in "\n".join(l) for n, l in zip(["rack-1", "rack-2"], online)))
        start = subprocess.run([BIN, "fleet", "start", "--broker", f"mqtt://127.0.0.1:{port}", "--in", "2"],
                               capture_output=True, text=True)
        check(f"gymtimer fleet start --in 2 (exit {start.returncode}: {start.stdout.strip()} {start.stderr.strip()})",
              start.returncode == 0)
        scheduled = wait_for_panes("both panels list the scheduled start", targets,
                                   lambda *s: all("fleet: start scheduled for" in "\n".join(l) for l in s))
        check("both panels list the scheduled start",
              all("fleet: start scheduled for" in "\n".join(l) for l in scheduled))

        def counting_together(a, b):
            return (digits(a) in ("0129", "0128", "0127") and digits(a) == digits(b)
                    and "● rest" in "\n".join(a) and "● rest" in "\n".join(b))
        screens = wait_for_panes("both panels count the rest down together", targets, counting_together, timeout=8)
        check(f"both panels show the same rest counting ({digits(screens[0])} and {digits(screens[1])})",
              counting_together(*screens))
        check("both panels say the coach started them",
              all("fleet: started by the coach" in "\n".join(l) for l in screens))
        for target in targets:
            tmux("send-keys", "-t", target, "q")
        table = [""]

        def both_offline():
            table[0] = subprocess.run([BIN, "fleet", "status", "--broker", f"mqtt://127.0.0.1:{port}"],
                                      capture_output=True, text=True).stdout
            rows = [line.split() for line in table[0].splitlines()]
            return all(any(r[:2] == [n, "offline"] for r in rows) for n in ("rack-1", "rack-2"))
        offline = gymtest.wait_for(both_offline, 5)
        check(f"q: both stations say offline (fleet status:\n{table[0]})", offline)
    finally:
        stop()
        gymtest.stop([("mosquitto", broker)], seconds=5)
        shutil.rmtree(directory, ignore_errors=True)


def columns(line):
    """The columns `line` takes in a terminal: wide and fullwidth characters two, combining none."""
    return sum(0 if unicodedata.combining(c) or unicodedata.category(c) in ("Mn", "Me", "Cf")
               else 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1 for c in line)


def pane_dead(target=SESSION):
    """The kiosk in the pane has ended, or is printing a crash's backtrace."""
    text = "\n".join(pane(target))
    return ended(target) or "Fatal error" in text or "Backtrace" in text or "Crash" in text


def test_narrow_terminal_long_texts():
    """The issue's crash: an event line wider than the terminal trapped the kiosk. At 80×24, a
    broker that cannot be reached (a message of some 150 characters), then a live broker sent
    'not json' and an unknown command of wide characters: the kiosk keeps running, the panel
    stays whole, and no line is wider than the terminal."""
    directory = tempfile.mkdtemp(prefix="gymtimer-terminal-narrow-")
    try:
        port = free_port()
        config = os.path.join(directory, "nb.toml")
        with open(config, "w") as f:
            f.write(f'[fleet]\nbroker = "mqtt://127.0.0.1:{port}"\nstation = "rack-1"\n')
        start("--config", config, columns=80, rows=24)
        lines = wait_for("the unreachable broker is in the event list",
                         lambda l: "unreachable" in "\n".join(l) or pane_dead(), timeout=10)
        time.sleep(0.5)
        lines = screen()
        check("80×24, broker unreachable: the kiosk still runs", not pane_dead())
        check("80×24, broker unreachable: the panel is whole", whole(lines))
        check("80×24, broker unreachable: no line wider than 80 columns (widest "
              f"{max(columns(l.rstrip()) for l in lines)})", all(columns(l.rstrip()) <= 80 for l in lines))
        check("80×24, broker unreachable: the message is on screen", "fleet: broker" in "\n".join(lines))
        stop()
        # The same station next, on a broker at that port: this one must have said goodbye first.
        gone(config, "the first simulator has ended (SIGHUP)")

        if gymtest.mosquitto_binary() is None:
            check("mosquitto is installed (scripts/install-deps.sh --tests installs it)", False)
            return
        broker, _ = gymtest.start_broker(directory, port)
        try:
            start("--config", config, columns=80, rows=24)
            wait_for("the station connects", lambda l: "fleet: connected" in "\n".join(l), timeout=15)
            mqtt_publish(port, "gymtimer/rack-1/cmd", "not json")
            wait_for("'not json' is refused", lambda l: "not JSON" in "\n".join(l))
            wide = "漢字" * 30 + "\u001b[2J" + "e\u0301" * 10
            mqtt_publish(port, "gymtimer/rack-1/cmd", json.dumps({"do": wide}, ensure_ascii=False))
            lines = wait_for("the unknown command is refused", lambda l: "unknown command" in "\n".join(l))
            time.sleep(0.3)
            lines = screen()
            check("80×24, hostile commands: the kiosk still runs", not pane_dead())
            check("80×24, hostile commands: the panel is whole", whole(lines))
            check("80×24, hostile commands: no line wider than 80 columns (widest "
                  f"{max(columns(l.rstrip()) for l in lines)})", all(columns(l.rstrip()) <= 80 for l in lines))
        finally:
            gymtest.stop([("mosquitto", broker)], seconds=5)
    finally:
        stop()
        shutil.rmtree(directory, ignore_errors=True)


def test_kiosk_script():
    """scripts/kiosk.sh as the README's first command: it keeps what it records in the data
    directory it names (XDG_DATA_HOME/gymtimer here), says so, and links `gymtimer` on the PATH
    (GYMTIMER_BIN_DIR here). It used to run a simulator that kept nothing and say "recorded"."""
    root = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    directory = tempfile.mkdtemp(prefix="gymtimer-kiosk-sh-")
    try:
        config = os.path.join(directory, "config.toml")
        with open(config, "w") as f:
            f.write("[rest]\ndefault_seconds = 2\nmin_seconds = 1\nstep_seconds = 1\n")
        share, bindir = os.path.join(directory, "share"), os.path.join(directory, "bin")
        data = os.path.join(share, "gymtimer")
        # The binary under test, built by the test command's build stage (kiosk.sh's own
        # `swift build` would compile it again with a product's plan, minutes on two cores).
        command = (f"env XDG_DATA_HOME={share} GYMTIMER_BIN_DIR={bindir} GYMTIMER_KIOSK_BINARY={BIN}"
                   f" {root}/scripts/kiosk.sh --config {config};"
                   " echo kiosk.sh-exit=$?")
        new_session(command)
        lines = wait_for("kiosk.sh shows the panel", lambda l: digits(l) is not None, timeout=120)
        lines = wait_for("kiosk.sh: the data directory is named", lambda l: data in "\n".join(l))
        check(f"kiosk.sh: 'keeping history and state in {data}'", f"keeping history and state in {data}" in "\n".join(lines))
        send("s")
        wait_for("kiosk.sh: the alarm", lambda l: "● alarm" in "\n".join(l), timeout=6)
        send("d")
        wait_for("kiosk.sh: idle again", lambda l: "● ready" in "\n".join(l))
        send("D")
        wait_for("kiosk.sh: recorded", lambda l: "recorded: rest workout, 1 set" in "\n".join(l), timeout=6)
        send("q")
        wait_for("kiosk.sh ends saying where the workouts are", lambda l: "kiosk.sh-exit=" in "\n".join(l))
        check("kiosk.sh's shell ends", gymtest.wait_for(ended, 10, step=0.05))
        text = tmux_kiosk.output()
        check("kiosk.sh exits 0", "kiosk.sh-exit=0" in text)
        check("kiosk.sh: 'Workouts are kept in …' with the history command",
              f"gymtimer history --db {data}/history.sqlite" in text.replace("\n", ""))
        link = os.path.join(bindir, "gymtimer")
        check(f"kiosk.sh links gymtimer to this build ({link})",
              os.path.islink(link) and os.path.realpath(link) == os.path.realpath(BIN))
        out = subprocess.run([link, "history", "--db", os.path.join(data, "history.sqlite")], capture_output=True, text=True)
        check(f"the workout is in the history it named (exit {out.returncode}: {out.stdout.strip()[:200]})",
              out.returncode == 0 and "rest" in out.stdout)
    finally:
        stop()
        shutil.rmtree(directory, ignore_errors=True)


def main():
    if shutil.which("tmux") is None:
        print("terminal tests: cannot run: no tmux on this machine (scripts/install-deps.sh --tests installs it)")
        return 77
    os.environ["TERM"] = "xterm-256color"
    only = os.environ.get("GYMTIMER_TERMINAL_TEST")
    for test in [test_keys_in_order, test_resize, test_data_dir, test_sigterm, test_fleet, test_narrow_terminal_long_texts,
                 test_kiosk_script]:
        if only and test.__name__ != only:
            continue
        try:
            test()
        finally:
            stop()
    print(f"terminal tests: {'FAILED: ' + '; '.join(failures) if failures else 'passed'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
