#!/usr/bin/env python3
"""The interactive simulator as a person meets it: `gymtimer simulate` in a real terminal
(tmux), keys typed with send-keys, the screen read back with capture-pane and the big
7-segment digits decoded from the drawing. Real time: each check waits for what it expects,
up to a timeout, and fails saying what the screen showed instead.

Usage: terminal_test.py BINARY
"""
import os, shutil, signal, sqlite3, subprocess, sys, tempfile, time

BIN = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/debug/gymtimer")
SESSION = f"gymtimer-test-{os.getpid()}"
# Segments a..g of one digit in the drawing (SegmentArt.digitTemplate): (row, column).
SEGMENTS = [(0, 2), (1, 8), (4, 8), (6, 2), (4, 0), (1, 0), (3, 2)]
FONT = {0x3F: "0", 0x06: "1", 0x5B: "2", 0x4F: "3", 0x66: "4", 0x6D: "5", 0x7D: "6", 0x07: "7", 0x7F: "8",
        0x6F: "9", 0x00: " "}
failures = []


def tmux(*args, check=True):
    return subprocess.run(["tmux", *args], check=check, capture_output=True, text=True).stdout


def screen():
    return tmux("capture-pane", "-p", "-t", SESSION).split("\n")


def digits(lines):
    """The four digits drawn on the screen (scale 1), or None when no panel is drawn."""
    box = next((i for i, line in enumerate(lines) if "┌" in line), None)
    if box is None or box + 8 >= len(lines):
        return None
    column = lines[box].index("┌") + 3
    art = [line[column:] for line in lines[box + 2: box + 9]]
    text = ""
    for d in range(4):
        origin = d * 14 + (6 if d >= 2 else 0)
        bits = 0
        for bit, (row, col) in enumerate(SEGMENTS):
            row_text = art[row]
            if origin + col < len(row_text) and row_text[origin + col] == "█":
                bits |= 1 << bit
        text += FONT.get(bits, "?")
    return text


def wait_for(what, predicate, timeout=8.0):
    deadline = time.monotonic() + timeout
    while True:
        lines = screen()
        if predicate(lines):
            return lines
        if time.monotonic() > deadline:
            failures.append(what)
            print(f"FAIL: {what}; the screen was:\n" + "\n".join(l.rstrip() for l in lines if l.strip()))
            return lines
        time.sleep(0.05)


def start(*args, columns=100, rows=35):
    command = " ".join([BIN, "simulate", *args])
    tmux("new-session", "-d", "-s", SESSION, "-x", str(columns), "-y", str(rows), command)
    tmux("set-option", "-t", SESSION, "remain-on-exit", "on")
    wait_for("the panel is drawn", lambda l: digits(l) is not None)


def stop():
    tmux("kill-session", "-t", SESSION, check=False)


def pane_pid():
    return int(tmux("display-message", "-p", "-t", SESSION, "#{pane_pid}").strip())


def check(what, condition):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)


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
    time.sleep(0.5)
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
    subprocess.run(["pkill", "-KILL", "-f", f"simulate --config {config} --data-dir {data}"])
    stop()
    time.sleep(1.0)
    start("--config", config, "--data-dir", data)
    lines = wait_for("the rest carries on after a kill", lambda l: digits(l) in ("0058", "0057", "0056", "0055"))
    check(f"killed mid-rest and started again: the rest carries on (shows {digits(lines)})",
          digits(lines) in ("0058", "0057", "0056", "0055") and "● rest" in "\n".join(lines))
    stop()
    shutil.rmtree(directory, ignore_errors=True)


def main():
    if shutil.which("tmux") is None:
        print("terminal tests: skipped (no tmux)")
        return 0
    os.environ["TERM"] = "xterm-256color"
    for test in [test_keys_in_order, test_resize, test_data_dir]:
        try:
            test()
        finally:
            stop()
    print(f"terminal tests: {'FAILED: ' + '; '.join(failures) if failures else 'passed'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
