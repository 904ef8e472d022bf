#!/usr/bin/env python3
"""Writes a man page (section 1, man(7) macros) for each program from the description of its
commands that swift-argument-parser prints (`PROGRAM --experimental-dump-help`): its name and
abstract, a synopsis, the discussion, every shown option, and one subsection for each
subcommand (nested ones too: `gymtimer fleet status`). scripts/build-deb.sh makes the
packages' pages with it at build time (they are not kept in the tree), from the very binaries
it packs, so the pages say what `--help` says.

Usage: manpages.py OUTDIR VERSION DATE DUMP.json...   (writes OUTDIR/<program>.1 for each)
"""
import json, sys

SEE_ALSO = {
    "gymtimer": ["gymtimer-console", "gymtimer-central"],
    "gymtimer-console": ["gymtimer", "gymtimer-central"],
    "gymtimer-central": ["gymtimer", "gymtimer-console"],
}


def text(s):
    """Running text escaped for roff: backslashes, hyphens, other than ASCII, a leading . or '."""
    out = s.replace("\\", "\\e").replace("-", "\\-")
    out = "".join(c if ord(c) < 128 else "\\[u%04X]" % ord(c) for c in out)  # groff's own spelling
    return "\n".join(("\\&" + line if line[:1] in (".", "'") else line) for line in out.split("\n"))


def name_of(n):
    return {"short": "-", "long": "--", "longWithSingleDash": "-"}.get(n["kind"], "--") + n["name"]


def shown(command):
    return [a for a in command.get("arguments", []) if a.get("shouldDisplay", True)]


def synopsis_item(a):
    if a["kind"] == "positional":
        item = "\\fI" + text(a["valueName"]) + "\\fR" + ("..." if a.get("isRepeating") else "")
    else:
        item = "\\fB" + text(name_of(a["preferredName"])) + "\\fR"
        if a["kind"] == "option":
            item += " \\fI" + text(a["valueName"]) + "\\fR"
        if a.get("isRepeating"):
            item += " ..."
    return "[" + item + "]" if a.get("isOptional") else item


def synopsis(command, path):
    items = [synopsis_item(a) for a in shown(command)]
    if any(s.get("shouldDisplay", True) and s["commandName"] != "help" for s in command.get("subcommands", [])):
        items.append("\\fIsubcommand\\fR")
    return [".SY \"" + text(path) + "\"", *items, ".YS"]


def options(command):
    lines = []
    for a in shown(command):
        if a["kind"] == "positional":
            head = "\\fI" + text(a["valueName"]) + "\\fR"
        else:
            names = ", ".join("\\fB" + text(name_of(n)) + "\\fR" for n in a["names"])
            head = names + (" \\fI" + text(a["valueName"]) + "\\fR" if a["kind"] == "option" else "")
        body = text(a.get("abstract", ""))
        if a.get("discussion"):
            body += "\n" + text(a["discussion"])
        if a.get("defaultValue") not in (None, ""):
            body += "\n(default: " + text(str(a["defaultValue"])) + ")"
        lines += [".TP", head, body]
    return lines


def subcommands(command, path):
    lines = []
    for sub in command.get("subcommands", []):
        if not sub.get("shouldDisplay", True) or sub["commandName"] == "help":
            continue
        full = path + " " + sub["commandName"]
        lines += [".SS " + text(full), text(sub.get("abstract", ""))]
        lines += synopsis(sub, full)
        if sub.get("discussion"):
            lines += [".PP", text(sub["discussion"])]
        lines += options(sub)
        lines += subcommands(sub, full)
    return lines


def page(command, version, date):
    prog = command["commandName"]
    lines = [
        '.TH "%s" 1 "%s" "%s %s" "User Commands"' % (prog.upper(), date, prog, version),
        ".ad l", ".nh",
        ".SH NAME", "%s \\- %s" % (text(prog), text(command.get("abstract", ""))),
        ".SH SYNOPSIS", *synopsis(command, prog),
    ]
    if command.get("discussion"):
        lines += [".SH DESCRIPTION", text(command["discussion"])]
    lines += [".SH OPTIONS", *options(command)]
    subs = subcommands(command, prog)
    if subs:
        lines += [".SH COMMANDS", *subs]
    lines += [".SH SEE ALSO",
              ",\n".join("\\fB%s\\fR(1)" % text(o) for o in SEE_ALSO.get(prog, [])) or "\\fBgymtimer\\fR(1)",
              ".PP", "The guides in /usr/share/doc/gymtimer (README.md.gz, docs/)."]
    return "\n".join(lines) + "\n"


def main(argv):
    if len(argv) < 5:
        sys.exit(__doc__.strip().split("\n")[-1])
    out, version, date = argv[1:4]
    for dump in argv[4:]:
        with open(dump, encoding="utf-8") as f:
            command = json.load(f)["command"]
        with open("%s/%s.1" % (out, command["commandName"]), "w", encoding="utf-8") as f:
            f.write(page(command, version, date))


if __name__ == "__main__":
    main(sys.argv)
