#!/usr/bin/env python3
"""The release binaries a Pi's owner installs, linked from the test command's one release build.

    scripts/static-binaries.py SCRATCH OUT [--gpiod2 PREFIX]

The test command builds the package once, in release with its tests (`swift build -c release
--build-tests`: the Swift runtime linked dynamically, as tests must be). The VMs and the Debian
packages need what `deploy/install.sh` makes instead: the Swift runtime and Foundation linked in
(`--static-swift-stdlib`). That is a link-time difference, so rather than compiling every module
a second (and, for libgpiod 2, a third) time, this script takes the link commands SwiftPM
recorded in SCRATCH/release.yaml and runs them again into OUT with the static runtime:

  * gymtimer, gymtimer-console and gymtimer-central, as they are (the libgpiod the build found:
    1.6 on Debian 12);
  * with --gpiod2 PREFIX (scripts/build-libgpiod2.sh), the kiosk for libgpiod 2: the one C file
    that differs (Sources/CGPIODShim/gymtimer_gpio.c, which picks the API from <gpiod.h>)
    compiled against PREFIX's header with warnings as errors, and linked with PREFIX's static
    libgpiod in place of -lgpiod. Nothing above that C file knows the API (gymtimer_gpio.h),
    so every Swift object is the same.

Prints each binary's path. Exits 1 with a one-line reason when the build's records are missing
or a link fails.
"""
import json
import os
import pathlib
import subprocess
import sys

PRODUCTS = ["gymtimer", "gymtimer-console", "gymtimer-central"]
# What `-static-stdlib` compiles into each object's autolink entries and `-static-stdlib` alone
# at link time does not add: Foundation and what it rests on. An archive nothing refers to adds
# nothing (and --gc-sections drops the unreferenced), as in SwiftPM's own static links.
STATIC_FOUNDATION = [
    "-lFoundation", "-lFoundationEssentials", "-lFoundationInternationalization", "-lFoundationNetworking",
    "-l_FoundationICU", "-l_FoundationCollections", "-l_FoundationCShims", "-lCoreFoundation",
    "-lswiftDispatch", "-ldispatch", "-lBlocksRuntime", "-lswiftSynchronization",
    "-lswift_RegexParser", "-lswift_StringProcessing", "-lswiftRegexBuilder",
]


def die(message):
    print(f"static-binaries: {message}", file=sys.stderr)
    sys.exit(1)


def commands(manifest):
    """The manifest's commands as {output path or name: args}, read from its JSON-valued lines."""
    found, key = {}, None
    for line in manifest.read_text().splitlines():
        stripped = line.strip()
        if line.startswith("  ") and not line.startswith("    ") and stripped.endswith(":"):
            key = json.loads(stripped[:-1]) if stripped.startswith('"') else stripped[:-1]
        elif stripped.startswith("args: [") and key is not None:
            found[key] = json.loads(stripped[len("args: "):])
    return found


def link_command(records, product):
    for key, args in records.items():
        if key.startswith("C.") and key.endswith(".exe") and "-o" in args:
            if os.path.basename(args[args.index("-o") + 1]) == product:
                return list(args)
    die(f"no link command for {product} in the build's manifest: build it first (swift build -c release --build-tests)")


def run(args, what):
    result = subprocess.run(args, capture_output=True, text=True)
    if result.returncode != 0:
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        die(f"{what} failed: {lines[-1] if lines else 'exit %d' % result.returncode}\n" + "\n".join(lines[-15:]))


def static_link(args, output):
    args[args.index("-o") + 1] = str(output)
    if "-static-stdlib" not in args:
        args.append("-static-stdlib")
    args += ["-Xlinker", "--gc-sections", "-Xlinker", "--start-group", *STATIC_FOUNDATION, "-Xlinker", "--end-group"]
    return args


def gpiod2_kiosk(records, link, out, prefix):
    """The kiosk's link with the libgpiod 2 shim: one C file compiled again, the static library."""
    shim_key = next((k for k in records if k.endswith("CGPIODShim.build/gymtimer_gpio.c.o")), None)
    if shim_key is None:
        die("no compile command for CGPIODShim's gymtimer_gpio.c in the build's manifest")
    header, library = prefix / "include" / "gpiod.h", prefix / "lib" / "libgpiod-v2-static.a"
    for needed in (header, library):
        if not needed.is_file():
            die(f"no {needed}: scripts/build-libgpiod2.sh builds it")
    compile_args, skip = [], 0
    for arg in records[shim_key]:
        if skip:
            skip -= 1
        elif arg in ("-MT", "-MF"):
            skip = 1
        elif arg != "-MD":
            compile_args.append(arg)
    work = out / ".gpiod2"
    work.mkdir(exist_ok=True)
    shim = work / "gymtimer_gpio-v2.c.o"
    compile_args[compile_args.index("-o") + 1] = str(shim)
    compile_args[1:1] = ["-I", str(prefix / "include"), "-Wall", "-Werror"]
    run(compile_args, "compiling gymtimer_gpio.c against libgpiod 2")
    filelist_arg = next(a for a in link if a.startswith("@") and a.endswith("Objects.LinkFileList"))
    objects = pathlib.Path(filelist_arg[1:]).read_text().splitlines()
    swapped = [str(shim) if line.strip().strip('"') == shim_key else line for line in objects]
    if swapped == objects:
        die("the kiosk's link does not name gymtimer_gpio.c.o")
    filelist = work / "Objects.LinkFileList"
    filelist.write_text("\n".join(swapped) + "\n")
    link = [f"@{filelist}" if a == filelist_arg else (str(library) if a == "-lgpiod" else a) for a in link]
    if str(library) not in link:
        die("the kiosk's link has no -lgpiod to replace")
    return link


def main():
    argv = sys.argv[1:]
    prefix = None
    if "--gpiod2" in argv:
        i = argv.index("--gpiod2")
        if i + 1 >= len(argv):
            die("--gpiod2 needs libgpiod 2's prefix")
        prefix = pathlib.Path(argv[i + 1]).resolve()
        del argv[i:i + 2]
    if len(argv) != 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        sys.exit(2)
    scratch, out = pathlib.Path(argv[0]).resolve(), pathlib.Path(argv[1]).resolve()
    manifest = scratch / "release.yaml"
    if not manifest.is_file():
        die(f"no {manifest}: build first (swift build -c release --build-tests)")
    records = commands(manifest)
    out.mkdir(parents=True, exist_ok=True)
    for product in PRODUCTS if prefix is None else ["gymtimer"]:
        link = link_command(records, product)
        if prefix is not None:
            link = gpiod2_kiosk(records, link, out, prefix)
        target = out / product
        partial = out / f".{product}.partial"
        run(static_link(link, partial), f"linking {product}")
        os.replace(partial, target)
        print(target)


if __name__ == "__main__":
    main()
