"""The interactive simulator in tmux, for the terminal tests and the README's capture:
`gymtimer simulate` started in a detached session, keys typed with send-keys, the screen read
back with capture-pane and the big 7-segment digits decoded from the drawing. Real time: each
wait polls the screen for what it expects, up to a timeout (Tests/support/gymtest.py's
`wait_for`, with its margin), and says what it showed instead.
"""
import os, subprocess, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import gymtest  # noqa: E402
from gymtest import check, failures  # noqa: E402,F401  (the tests' and capture-readme.py's)

BIN = os.path.abspath(".build/release/gymtimer")
SESSION = f"gymtimer-test-{os.getpid()}"
# Segments a..g of one digit in the drawing (SegmentArt.digitTemplate): (row, column).
SEGMENTS = [(0, 2), (1, 8), (4, 8), (6, 2), (4, 0), (1, 0), (3, 2)]
FONT = {0x3F: "0", 0x06: "1", 0x5B: "2", 0x4F: "3", 0x66: "4", 0x6D: "5", 0x7D: "6", 0x07: "7", 0x7F: "8",
        0x6F: "9", 0x00: " "}


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


def wait_for(what, predicate, timeout=8.0, target=None):
    """The screen (of `target`, else the session's pane) once `predicate` holds for it; else a
    failed check `what`, showing the screen, and the screen as it was last."""
    return wait_for_panes(what, [target or SESSION], predicate, timeout)[0]


def pane(target):
    return tmux("capture-pane", "-p", "-t", target).split("\n")


def wait_for_panes(what, targets, predicate, timeout=10.0):
    """The screens of `targets` once `predicate` holds for them together (one argument each);
    else a failed check `what`, showing them, and the screens as they were last."""
    last = [[""] for _ in targets]

    def holds():
        last[:] = [pane(t) for t in targets]
        return predicate(*last)
    if not gymtest.wait_for(holds, timeout, step=0.05):
        shown = "\n----\n".join("\n".join(l.rstrip() for l in lines if l.strip()) for lines in last)
        check(what, False, f"— the screen{'s were' if len(targets) > 1 else ' was'}:\n{shown}")
    return last


def new_session(command, columns=100, rows=35, name=None):
    """`command` (a shell line) in a new detached session (or window `name` of it), whose pane
    stays, its last screen readable, once the command ends (remain-on-exit, set in the same
    tmux call: nothing to keep it open with)."""
    tmux("new-session", "-d", "-s", SESSION, "-x", str(columns), "-y", str(rows), *(["-n", name] if name else []), command,
         ";", "set-option", "-t", SESSION, "remain-on-exit", "on")


def output(target=None):
    """All the pane has shown on its normal screen, its scrollback too, wrapped lines joined: a
    dead pane's last words, which tmux's "Pane is dead" line may have scrolled off its screen."""
    return tmux("capture-pane", "-p", "-J", "-S", "-", "-t", target or SESSION)


def ended(target=None):
    """Whether the command in the pane has ended (its pane is dead)."""
    return tmux("display-message", "-p", "-t", target or SESSION, "#{pane_dead}", check=False).strip() == "1"


def configure(binary):
    """Which gymtimer binary `start` runs."""
    global BIN
    BIN = os.path.abspath(binary)


def start(*args, columns=100, rows=35):
    new_session(" ".join([BIN, "simulate", *args]), columns, rows)
    wait_for("the panel is drawn", lambda l: digits(l) is not None)


def stop():
    tmux("kill-session", "-t", SESSION, check=False)


def pane_pid():
    return int(tmux("display-message", "-p", "-t", SESSION, "#{pane_pid}").strip())


