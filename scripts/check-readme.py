#!/usr/bin/env python3
"""Runs the command blocks of the README and of its guides (docs/*.md, after the README) as a
newcomer would, so a page whose commands no longer work fails the tests.

A ```sh block preceded by `<!-- readme-check: GROUP -->` is run; the blocks of one group run in
order, as one bash script (`set -e`), in a new empty directory, except group `clone`, which runs
in the clone (its commands name the clone's files). A block preceded by
`<!-- readme-check: output -->` is what the block before it prints: each of its lines but `...`
must appear in that output, in order.

As a newcomer who ran `scripts/kiosk.sh` first, each group has: `gymtimer` on the PATH (a link
to BINARY, as kiosk.sh makes), a HOME of its own whose ~/.local/share/gymtimer holds one rest
workout (what a first run of the kiosk records; made with a script, as the kiosk itself is
interactive) and the card key the kiosk makes at its first start, and the fleet demo's port 18830 replaced by a free one. Background jobs a group
leaves (the demo's broker) are killed at its end. The fleet demo runs in real time: a failure
is retried once, and says so.

Usage: check-readme.py [--list] BINARY [PAGE...]   (default: README.md and docs/*.md)
"""
import glob, os, re, shutil, socket, subprocess, sys, tempfile

MARK = re.compile(r"<!--\s*readme-check:\s*([\w-]+)\s*-->")


def blocks(readme):
    """[(group, code, expected output or None)], in README order."""
    lines = open(readme, encoding="utf-8").read().split("\n")
    found, pending, i = [], None, 0
    while i < len(lines):
        mark = MARK.search(lines[i])
        if mark:
            pending = mark.group(1)
        elif lines[i].startswith("```") and pending is not None:
            end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
            body = "\n".join(lines[i + 1:end])
            if pending == "output":
                if found:
                    found[-1] = (found[-1][0], found[-1][1], body)
            else:
                found.append((pending, body, None))
            pending, i = None, end
        elif lines[i].strip():
            pending = None  # a mark is for the block right under it
        i += 1
    return found


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def in_order(expected, output):
    """The expected lines (but `...`) that are missing from `output`, in order."""
    out = output.split("\n")
    position, missing = 0, []
    for line in expected.split("\n"):
        if line.strip() in ("", "..."):
            continue
        try:
            position = out.index(line, position) + 1
        except ValueError:
            missing.append(line)
    return missing


def main():
    args = [a for a in sys.argv[1:] if a != "--list"]
    if not args:
        print(__doc__)
        return 2
    binary = os.path.abspath(args[0])
    clone = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    pages = args[1:] or [os.path.join(clone, "README.md")] + sorted(glob.glob(os.path.join(clone, "docs", "*.md")))
    found = [block for page in pages for block in blocks(page)]
    groups = []
    for group, _, _ in found:
        if group not in groups:
            groups.append(group)
    if "--list" in sys.argv:
        for group, code, expected in found:
            print(f"--- {group}{' (with output)' if expected else ''}\n{code}")
        return 0
    failures = []
    for group in groups:
        work = tempfile.mkdtemp(prefix=f"gymtimer-readme-{group}-")
        try:
            home, bindir = os.path.join(work, "home"), os.path.join(work, "bin")
            os.makedirs(os.path.join(home, ".local", "share", "gymtimer"))
            os.makedirs(bindir)
            os.symlink(binary, os.path.join(bindir, "gymtimer"))
            env = dict(os.environ, HOME=home, PATH=bindir + os.pathsep + os.environ.get("PATH", ""))
            env.pop("XDG_DATA_HOME", None)
            script = os.path.join(work, "first-run.txt")
            with open(script, "w") as f:
                f.write("0.5 click start\n100 click dismiss\n101 hold dismiss 2.5\n110 end\n")
            subprocess.run([binary, "simulate", "--script", script, "--data-dir",
                            os.path.join(home, ".local", "share", "gymtimer")],
                           env=env, check=True, stdout=subprocess.DEVNULL)
            # The card key the kiosk makes in its data directory at its first start (a scripted
            # run uses the simulator's public one instead).
            key = os.path.join(home, ".local", "share", "gymtimer", "card.key")
            with open(os.open(key, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as f:
                f.write(os.urandom(32).hex() + "\n")
            cwd = clone if group == "clone" else os.path.join(work, "new")
            os.makedirs(cwd, exist_ok=True)
            port = str(free_port())
            steps = [(code.replace("18830", port), expected) for g, code, expected in found if g == group]
            # One shell for the group (its background jobs are the blocks'), each block's output apart.
            body = ["set -e"]
            for number, (code, _) in enumerate(steps):
                body += [f"echo {number + 1} >{work}/block", f"exec >{work}/out-{number}.txt 2>&1", code]
            body += ["exec >/dev/null 2>&1", "kill $(jobs -p) 2>/dev/null || true", "wait || true"]
            run = subprocess.run(["bash", "-c", "\n".join(body)], cwd=cwd, env=env, timeout=300,
                                 capture_output=True, text=True)
            if run.returncode != 0 and group == "fleet":
                # Its stations connect and start in real time: one retry tells a loaded machine
                # from a broken demo, and says so.
                print(f"README {group}: failed once (exit {run.returncode}), retrying to rule out a loaded machine")
                shutil.rmtree(cwd, ignore_errors=True)
                os.makedirs(cwd)
                run = subprocess.run(["bash", "-c", "\n".join(body)], cwd=cwd, env=env, timeout=300,
                                     capture_output=True, text=True)
            problems = []
            outputs = []
            for number, (code, expected) in enumerate(steps):
                path = f"{work}/out-{number}.txt"
                output = open(path, encoding="utf-8", errors="replace").read() if os.path.exists(path) else ""
                outputs.append(output)
                if expected is not None:
                    missing = in_order(expected, output)
                    if missing:
                        problems.append(f"block {number + 1} did not print, in order: {missing[:3]}")
            if run.returncode != 0:
                ran = int(open(f"{work}/block").read()) if os.path.exists(f"{work}/block") else 1
                problems.append(f"exit status {run.returncode} in block {ran}: "
                                f"{(outputs[ran - 1] + run.stderr)[-600:].strip()}")
            if problems:
                failures.append(group)
                print(f"FAIL README {group}: " + "; ".join(problems))
            else:
                print(f"ok   README {group}: {len(steps)} block(s)")
        finally:
            shutil.rmtree(work, ignore_errors=True)
    print(f"README commands: {'FAILED: ' + ', '.join(failures) if failures else 'passed'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
