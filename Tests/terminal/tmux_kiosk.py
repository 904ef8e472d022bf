"""The interactive simulator in tmux, for the terminal tests and the README's capture:
`gymtimer simulate` started in a detached session, keys typed with send-keys, the screen read
back with capture-pane and the big 7-segment digits decoded from the drawing. Real time: each
wait polls the screen for what it expects, up to a timeout, and says what it showed instead.
"""
import os, shutil, subprocess, time

BIN = os.path.abspath(".build/debug/gymtimer")
SESSION = f"gymtimer-test-{os.getpid()}"
# Segments a..g of one digit in the drawing (SegmentArt.digitTemplate): (row, column).
SEGMENTS = [(0, 2), (1, 8), (4, 8), (6, 2), (4, 0), (1, 0), (3, 2)]
FONT = {0x3F: "0", 0x06: "1", 0x5B: "2", 0x4F: "3", 0x66: "4", 0x6D: "5", 0x7D: "6", 0x07: "7", 0x7F: "8",
        0x6F: "9", 0x00: " "}
failures = []


def send(*keys):
    """Types `keys` (tmux key names or text) into the kiosk's terminal."""
    tmux("send-keys", "-t", SESSION, *keys)


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


def configure(binary):
    """Which gymtimer binary `start` runs."""
    global BIN
    BIN = os.path.abspath(binary)


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


