#!/usr/bin/env python3
"""Records the simulator guide's captures (docs/simulator.md) of the terminal kiosk: a rest and an interval run of
`gymtimer simulate` in tmux, typed and read back as a person would see them. Writes, for each,
an asciinema v2 recording (docs/captures/NAME.cast: `asciinema play` it), an animated SVG
(docs/captures/NAME.svg: shown in docs/simulator.md) and the key frames as text between the guide's
`<!-- capture:NAME -->` markers, so the guide shows what the current build really does.

Usage: capture-readme.py [--check] [BINARY]
  --check  record into a temporary folder and change nothing: fails if a run no longer
           reaches what the capture shows (the test command runs this)
"""
import html, json, os, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Tests", "terminal"))
import tmux_kiosk as kiosk

COLUMNS, ROWS = 90, 30


class Recording:
    """Screens captured with the time they were seen, each kept only if it changed."""

    def __init__(self, name):
        self.name, self.frames, self.t0, self.marked = name, [], time.monotonic(), []

    def snap(self, mark=False):
        lines = [line.rstrip() for line in kiosk.screen()][:ROWS]
        if not self.frames or self.frames[-1][1] != lines:
            self.frames.append((time.monotonic() - self.t0, lines))
        if mark:
            self.marked.append(lines)
        return lines

    def watch(self, what, predicate, timeout=12.0):
        """Snaps every 0.1 s until `predicate` holds for the screen; a failure if it never does."""
        deadline = time.monotonic() + timeout
        while True:
            lines = self.snap()
            if predicate(lines):
                return lines
            if time.monotonic() > deadline:
                kiosk.failures.append(f"{self.name}: {what}")
                print(f"FAIL: {self.name}: {what}; the screen was:\n" + "\n".join(l for l in lines if l.strip()))
                return lines
            time.sleep(0.1)


def text(lines):
    return "\n".join(lines)


def begin(name, directory, config_text):
    """The simulator started on a config of `config_text`, and a recording of it."""
    config = os.path.join(directory, f"{name}.toml")
    with open(config, "w") as f:
        f.write(config_text)
    kiosk.start("--config", config, columns=COLUMNS, rows=ROWS)
    return Recording(name)


def record_rest(directory):
    r = begin("rest", directory, "[rest]\ndefault_seconds = 10\nmin_seconds = 5\nstep_seconds = 5\nwarning_seconds = 3\n")
    r.watch("idle at 00:10", lambda l: kiosk.digits(l) == "0010")
    r.snap(mark=True)
    kiosk.send("Right")
    r.watch("the knob sets 00:15", lambda l: kiosk.digits(l) == "0015")
    kiosk.send("s")
    r.watch("counting down", lambda l: kiosk.digits(l) == "0012")
    r.snap(mark=True)
    r.watch("the 3-2-1 beeps", lambda l: "beep" in text(l) and kiosk.digits(l) in ("0002", "0001"))
    r.watch("the alarm at 00:00", lambda l: kiosk.digits(l) == "0000" and "● alarm" in text(l))
    r.snap(mark=True)
    kiosk.send("d")
    r.watch("ready for the next set", lambda l: kiosk.digits(l) == "0015" and "● ready" in text(l))
    kiosk.send("D")
    r.watch("the workout recorded by a 2 s hold", lambda l: "recorded: rest workout, 1 set" in text(l))
    r.snap(mark=True)
    kiosk.stop()
    return r


def record_interval(directory):
    r = begin("interval", directory,
              'mode = "interval"\n\n[interval]\nphase_seconds = 5\nsets = 2\nwarning_seconds = 2\nannounce_seconds = 2\n')
    r.watch("idle interval", lambda l: kiosk.digits(l) == "0005" and "interval mode: idle" in text(l))
    r.snap(mark=True)
    kiosk.send("s")
    r.watch("the first low phase", lambda l: kiosk.digits(l) == "0003" and "set 1 of 2, low" in text(l))
    r.snap(mark=True)
    r.watch("a high phase", lambda l: kiosk.digits(l) == "0003" and "set 1 of 2, high" in text(l))
    r.snap(mark=True)
    r.watch("the interval finished and recorded", lambda l: "recorded: interval workout" in text(l), timeout=25)
    r.snap(mark=True)
    kiosk.stop()
    return r


def cast(recording):
    """asciinema v2: a header, then each screen as a clear-and-draw at its time."""
    out = [json.dumps({"version": 2, "width": COLUMNS, "height": ROWS,
                       "title": f"gymtimer simulate: a {recording.name} run"})]
    for t, lines in recording.frames:
        out.append(json.dumps([round(t, 3), "o", "\x1b[H\x1b[2J" + "\r\n".join(lines)], ensure_ascii=False))
    return "\n".join(out) + "\n"


def svg(recording):
    """Every screen as a text block shown from its time to the next one's, looping."""
    cell_w, cell_h = 8.4, 17
    width = COLUMNS * cell_w + 20
    frames = recording.frames
    total = frames[-1][0] + 3.0
    # Only the rows some screen uses: the panel is centred in the terminal, blank above and below.
    used = [row for _, lines in frames for row, line in enumerate(lines) if line.strip()]
    top, rows = min(used), max(used) - min(used) + 1
    height = rows * cell_h + 20
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
             f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" '
             f'font-size="14" xml:space="preserve">',
             f'<rect width="100%" height="100%" rx="6" fill="#1d1f21"/>']
    for i, (t, lines) in enumerate(frames):
        end = frames[i + 1][0] if i + 1 < len(frames) else total
        a, b = t / total, end / total
        if i == 0:
            values, times = "visible;hidden", f"0;{b:.4f}"
        elif i + 1 == len(frames):
            values, times = "hidden;visible", f"0;{a:.4f}"
        else:
            values, times = "hidden;visible;hidden", f"0;{a:.4f};{b:.4f}"
        parts.append(f'<g visibility="{"visible" if i == 0 else "hidden"}" fill="#f0c674">'
                     f'<animate attributeName="visibility" values="{values}" keyTimes="{times}" '
                     f'dur="{total:.2f}s" calcMode="discrete" repeatCount="indefinite"/>')
        for row, line in enumerate(lines):
            if line.strip():
                parts.append(f'<text x="10" y="{10 + (row - top + 1) * cell_h - 4:.0f}">{html.escape(line)}</text>')
        parts.append("</g>")
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def update_readme(recording):
    path = os.path.join(ROOT, "docs", "simulator.md")
    with open(path) as f:
        readme = f.read()
    begin, end = f"<!-- capture:{recording.name} -->", f"<!-- /capture:{recording.name} -->"
    if begin not in readme or end not in readme:
        raise SystemExit(f"docs/simulator.md has no {begin} … {end} markers")
    frames = "\n\n".join("```\n" + "\n".join(l for l in lines if l.strip()) + "\n```" for lines in recording.marked)
    head, rest = readme.split(begin, 1)
    _, tail = rest.split(end, 1)
    with open(path, "w") as f:
        f.write(head + begin + "\n" + frames + "\n" + end + tail)


def main():
    args = [a for a in sys.argv[1:] if a != "--check"]
    check = "--check" in sys.argv[1:]
    kiosk.configure(args[0] if args else os.path.join(ROOT, ".build/release/gymtimer"))
    os.environ["TERM"] = "xterm-256color"
    with tempfile.TemporaryDirectory(prefix="gymtimer-capture-") as directory:
        recordings = []
        for record in (record_rest, record_interval):
            try:
                recordings.append(record(directory))
            finally:
                kiosk.stop()
        if kiosk.failures:
            print("README capture: FAILED: " + "; ".join(kiosk.failures))
            return 1
        out = directory if check else os.path.join(ROOT, "docs", "captures")
        for r in recordings:
            with open(os.path.join(out, f"{r.name}.cast"), "w") as f:
                f.write(cast(r))
            with open(os.path.join(out, f"{r.name}.svg"), "w") as f:
                f.write(svg(r))
            if not check:
                update_readme(r)
        print(f"README capture: {'checked' if check else 'written'} "
              + ", ".join(f"{r.name} ({len(r.frames)} screens, {r.frames[-1][0]:.0f} s)" for r in recordings))
    return 0


if __name__ == "__main__":
    sys.exit(main())
