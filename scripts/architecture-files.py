#!/usr/bin/env python3
"""Keeps docs/architecture-files.md true: one line per Swift source file under Sources/, grouped
by target and folder, saying what the file holds in the words of its own doc comment: the first
sentence (at most 160 characters) of the first `///` block at the top level, of the file's
leading `//` comment, or, in a file of extensions, of its first member's. A lookup table for
tools and searches, generated, not read by people; the map people read is docs/ARCHITECTURE.md,
which stays one: at most 300 lines, its codemap naming every target folder under Sources/.

  scripts/architecture-files.py          rewrite the index between its markers
  scripts/architecture-files.py --check  change nothing; fail, naming them, if a file has no doc
                                         comment, the index is not what the files say now, the map
                                         is over 300 lines or its codemap leaves a target out
"""
import os, re, sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
DOC = os.path.join(ROOT, "docs", "architecture-files.md")
MAP = os.path.join(ROOT, "docs", "ARCHITECTURE.md")
MAP_LINES = 300
BEGIN, END = "<!-- every-file:begin -->", "<!-- every-file:end -->"


def summary(path):
    """The first sentence of the file's first top-level doc comment, or None."""
    block, lines = [], open(path, encoding="utf-8").read().split("\n")
    for line in lines:
        if line.startswith("///"):
            block.append(line[3:].strip())
        elif block:
            break
    if not block:  # a file of extensions may say what it adds in a leading // comment
        for line in lines:
            if line.startswith("//") and not line.startswith("// swift-"):
                block.append(line[2:].strip())
            elif block or (line.strip() and not line.startswith(("import", "#"))):
                break
    if not block:  # or in its first member's doc comment
        inside = False
        for line in lines:
            inside = inside or line.startswith(("extension ", "public extension "))
            if inside and line.strip().startswith("///"):
                block.append(line.strip()[3:].strip())
            elif block:
                break
    text = " ".join(l for l in block if l)
    if not text:
        return None
    sentence = re.split(r"(?<=\.)\s", text, 1)[0].rstrip(".:;,")
    return sentence if len(sentence) <= 160 else sentence[:157].rsplit(" ", 1)[0] + " …"


# The targets in the order docs/ARCHITECTURE.md's codemap gives them (the kiosk from the pure core
# out, the fleet, the servers, the programs, what measures and tests); a target not named here
# follows them, by name.
LAYERS = ["GymTimerCore", "GymTimerHAL", "GymTimerSystem", "GymTimerDrivers", "GymTimerRuntime", "GymTimerSetup",
          "GymTimerHardware", "GymTimerSimulation", "GymTimerConfig", "GymTimerHistory", "GymTimerKiosk",
          "GymTimerSimulator", "GymTimerFleet", "GymTimerMQTT", "GymTimerFleetLink", "GymTimerStationLink", "GymTimerCollector",
          "GymTimerUpgrade", "GymTimerFleetCommands", "GymTimerConsole",
          "GymTimerCentral", "GymTimerRosterCommands", "gymtimer", "gymtimer-console", "gymtimer-central",
          "GymTimerCommandLine", "GymTimerBenchmark", "GymTimerBenchSupport", "FuzzSupport", "FuzzScript",
          "FuzzConfig", "FuzzWAV", "FuzzCommand", "FuzzStation", "FuzzRecord", "FuzzConsole"]


def layer(target):
    return (LAYERS.index(target), "") if target in LAYERS else (len(LAYERS), target.lower())


def section():
    out, missing = [BEGIN, ""], []
    sources = os.path.join(ROOT, "Sources")
    for target in sorted(os.listdir(sources), key=layer):
        files = []
        for folder, _, names in os.walk(os.path.join(sources, target)):
            files += [os.path.join(folder, n) for n in names if n.endswith(".swift")]
        if not files:
            continue
        out += [f"**{target}** (`Sources/{target}`)", ""]
        for path in sorted(files, key=lambda p: (os.path.dirname(p), os.path.basename(p).lower())):
            rel = os.path.relpath(path, os.path.join(sources, target))
            text = summary(path)
            if text is None:
                missing.append(os.path.relpath(path, ROOT))
            out.append(f"* `{rel}`: {text or '(no doc comment)'}")
        out.append("")
    out.append(END)
    return "\n".join(out), missing


def map_problems():
    """What keeps docs/ARCHITECTURE.md a map: at most MAP_LINES lines, and every target folder
    under Sources/ named (as `Name`) in its "## Codemap" section. Returns (problems, line count)."""
    text = open(MAP, encoding="utf-8").read()
    lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)  # as `wc -l` counts, and a last open line
    problems = []
    if lines > MAP_LINES:
        problems.append(f"docs/ARCHITECTURE.md has {lines} lines, more than {MAP_LINES}: keep it a map, put the detail in "
                        "the code's doc comments or the guides")
    codemap = re.search(r"^## Codemap[ \t]*\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    if codemap is None:
        problems.append('docs/ARCHITECTURE.md has no "## Codemap" section naming each target folder under Sources/')
        return problems, lines
    sources = os.path.join(ROOT, "Sources")
    for target in sorted(os.listdir(sources)):
        if os.path.isdir(os.path.join(sources, target)) and f"`{target}`" not in codemap.group(1):
            problems.append(f"Sources/{target} is not in docs/ARCHITECTURE.md's codemap: add `{target}` there, "
                            "with what it owns and what it must not know")
    return problems, lines


def main():
    check = "--check" in sys.argv[1:]
    doc = open(DOC, encoding="utf-8").read()
    if BEGIN not in doc or END not in doc:
        print(f"architecture: {DOC} has no {BEGIN} … {END} markers"); return 1
    head, rest = doc.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    text, missing = section()
    new = head + text + tail
    problems = [f"{m} has no doc comment saying what it holds" for m in missing]
    unmapped, lines = map_problems()
    problems += unmapped
    if check:
        if new != doc:
            problems.append("docs/architecture-files.md is not what the files say: run scripts/architecture-files.py")
        for p in problems:
            print(f"architecture: {p}")
        summary_line = "FAILED" if problems else "every file placed, every target in the map"
        print(f"architecture: {summary_line} ({text.count(chr(10) + '* `')} files; docs/ARCHITECTURE.md {lines} lines)")
        return 1 if problems else 0
    open(DOC, "w", encoding="utf-8").write(new)
    for p in problems:
        print(f"architecture: {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
