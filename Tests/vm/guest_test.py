#!/usr/bin/env python3
"""Runs inside GymTimer's test VM, chrooted into the host's root (see init.sh): drives the
real .build/release/gymtimer binary against gpio-sim (buttons = simulated pulls, LEDs and
buzzer read back from the simulated lines) and an HT16K33 on i2c-stub (display RAM read
back with i2cget). Environment from init.sh: CHIP (gpiochipN), SIM (its sysfs dir), I2CBUS.
Exit 0 iff every check passed."""
import csv
import io
import math
import os
import re, select, shutil, signal, subprocess, sys, time, wave

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("GYMTIMER_BIN", os.path.join(ROOT, ".build/release/gymtimer"))
CHIP, SIM, BUS = os.environ["CHIP"], os.environ["SIM"], os.environ["I2CBUS"]
ADDR = 0x70
DEBOUNCE_MS = 10
# The Pi line names of deploy/config.example.toml; gpio-sim's lines carry the same names.
LINE = {"start": 17, "dismiss": 27, "enc_a": 22, "enc_b": 23, "buzzer": 18,
        "ready": 5, "rest": 6, "alarm": 13, "low": 19, "high": 26}
FONT = {0x00: " ", 0x3F: "0", 0x06: "1", 0x5B: "2", 0x4F: "3", 0x66: "4", 0x6D: "5",
        0x7D: "6", 0x07: "7", 0x7F: "8", 0x6F: "9", 0x40: "-",
        # The hex digits past 9, as a card's pseudonym shows them (A b C d E F), read back as hex.
        0x77: "A", 0x7C: "B", 0x39: "C", 0x5E: "D", 0x79: "E", 0x71: "F"}
failures = 0


def check(ok, what):
    global failures
    print(("  ok: " if ok else "  FAIL: ") + what, flush=True)
    if not ok:
        failures += 1
    return ok


def sim(line, attr):
    return f"{SIM}/sim_gpio{line}/{attr}"


def value(name):
    with open(sim(LINE[name], "value")) as f:
        return int(f.read().strip() or -1)


def set_pull(line, pull):
    with open(sim(line, "pull"), "w") as f:
        f.write(pull)


def ram():
    """The HT16K33's display RAM 0x00...0x09 as held by i2c-stub."""
    r = subprocess.run(["i2cdump", "-y", "-r", "0-9", BUS, hex(ADDR), "b"], capture_output=True, text=True)
    for row in r.stdout.splitlines():
        if row.startswith("00:"):
            return [int(x, 16) for x in row[3:].split()[:10]]
    return [-1] * 10


def seconds(text):
    """Seconds shown as MM:SS, or None."""
    m = re.fullmatch(r"(\d\d):(\d\d)", text)
    return int(m.group(1)) * 60 + int(m.group(2)) if m else None


def shown(image):
    """The text the backpack shows for a RAM image: digits at 0,2,6,8, colon at 4 bit 1."""
    digits = "".join(FONT.get(image[a] & 0x7F, "?") for a in (0, 2, 6, 8))
    return digits[:2] + (":" if image[4] & 0x02 else " ") + digits[2:]


def wait_for(predicate, timeout, step=0.05):
    """Whether `predicate` holds within `timeout` seconds (polled every `step`)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(step)
    return predicate()


def holds(predicate, seconds, step=0.05):
    """Whether `predicate` stays true for the whole of `seconds` (polled every `step`, false at
    the first miss): what a check that something does NOT happen watches, for as long as it must."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if not predicate():
            return False
        time.sleep(step)
    return predicate()


def press(line, seconds=0.15):
    set_pull(line, "pull-down")  # buttons are active low: pressed = pulled to ground
    time.sleep(seconds)
    set_pull(line, "pull-up")


def hold_button(line):
    """Holds a button past the kiosk's 2 s hold (`hold_ms = 2000`): a gesture's length, not a wait."""
    press(line, 2.6)


def turn(detents):
    """Turns the knob `detents` detents (negative: counter-clockwise) by pulling the encoder's
    two simulated contacts through full quadrature cycles, A leading B clockwise, as
    InputGestures.turn does in simulation. The contacts are active low like the buttons."""
    lead, lag = (LINE["enc_a"], LINE["enc_b"]) if detents > 0 else (LINE["enc_b"], LINE["enc_a"])
    for _ in range(abs(detents)):
        for line, pull in ((lead, "pull-down"), (lag, "pull-down"), (lead, "pull-up"), (lag, "pull-up")):
            set_pull(line, pull)
            time.sleep(0.005)
        time.sleep(0.04)


def config(path, data, audio=False, nfc=None):
    rest = "min_seconds = 5\ndefault_seconds = 5\nwarning_seconds = 0" if audio else "default_seconds = 90"
    sound = 'enabled = true\ndevice = "hw:Loopback,0,0"\nspeech = false\nvolume = 80' if audio else "enabled = false"
    with open(path, "w") as f:
        f.write(f"""mode = "rest"
[rest]
{rest}
[audio]
{sound}
[history]
path = "{data}/history.sqlite"
[hardware]
chip = "{CHIP}"
buttons_active_low = true
bias = "pull-up"
debounce_ms = {DEBOUNCE_MS}
hold_ms = 2000
{f'nfc = "{nfc}"' if nfc else ""}
[hardware.lines]
start = "GPIO17"
dismiss = "GPIO27"
encoder_a = "GPIO22"
encoder_b = "GPIO23"
buzzer = "GPIO18"
led_ready = "GPIO5"
led_rest = "GPIO6"
led_alarm = "GPIO13"
led_low = "GPIO19"
led_high = "GPIO26"
[hardware.display]
type = "ht16k33"
i2c_bus = {BUS}
address = 0x70
brightness = 80
""")


def gpioinfo_row(offset):
    """gpioinfo's row for line `offset` of the chip (`line   4: "GPIO4" "gpiomon" input ...`)."""
    r = subprocess.run(["gpioinfo", CHIP], capture_output=True, text=True)
    return next((row for row in r.stdout.splitlines() if re.match(rf"\s*line\s+{offset}:", row)), "")


def line_in_use(offset, consumer):
    """Whether `consumer` holds line `offset` of the chip."""
    return f'"{consumer}"' in gpioinfo_row(offset)


def latency(proc):
    """Press start to the rest LED lighting, beside gpiomon's edge latency on a spare line."""
    samples = []
    for _ in range(5):
        # Back to ready (dismiss), then time start-press -> rest LED on.
        press(LINE["dismiss"])
        wait_for(lambda: value("rest") == 0 and value("ready") == 1, 3)
        time.sleep(0.2)
        t0 = time.monotonic_ns()
        set_pull(LINE["start"], "pull-down")
        while value("rest") != 1 and time.monotonic_ns() - t0 < 3e9:
            pass
        samples.append((time.monotonic_ns() - t0) / 1e6)
        set_pull(LINE["start"], "pull-up")
        time.sleep(0.2)
    mon = []
    spare = 4
    set_pull(spare, "pull-down")
    for _ in range(5):
        g = subprocess.Popen(["gpiomon", "--num-events=1", "--rising-edge", "--format=%s %n", CHIP, str(spare)],
                             stdout=subprocess.PIPE, text=True)
        # Pull only once gpiomon holds the line (a loaded emulator may take seconds to start it),
        # and never wait for its line forever: a missed edge is a failed sample, not a hang.
        if not wait_for(lambda: line_in_use(spare, "gpiomon"), 30):
            print(f"  gpiomon did not take line {spare} within 30 s: {gpioinfo_row(spare)!r}")
            g.kill(); g.wait()
            continue
        t0 = time.monotonic_ns()
        set_pull(spare, "pull-up")
        ready, _, _ = select.select([g.stdout], [], [], 10)
        out = g.stdout.readline() if ready else ""
        t_user = time.monotonic_ns()
        g.kill()
        g.wait()
        set_pull(spare, "pull-down")
        try:
            sec, nsec = out.split()
            kernel = int(sec) * 1e9 + int(nsec) - t0
            mon.append((kernel / 1e6, (t_user - t0) / 1e6))
        except ValueError:
            print(f"  gpiomon output not understood: {out!r}")
    fmt = lambda xs: " ".join(f"{x:.2f}" for x in xs)
    median = lambda xs: sorted(xs)[len(xs) // 2]
    print(f"LATENCY gymtimer start-press -> rest LED (ms): {fmt(samples)}; median {median(samples):.2f}")
    if not check(len(mon) >= 3, f"gpiomon timed {len(mon)} of 5 edges"):
        return
    k = [m[0] for m in mon]; u = [m[1] for m in mon]
    print(f"LATENCY gpiomon pull -> kernel event timestamp (ms): {fmt(k)}; median {median(k):.2f}")
    print(f"LATENCY gpiomon pull -> line printed (ms): {fmt(u)}; median {median(u):.2f}")
    print("  (TCG emulation: absolute numbers are far slower than a Pi; compare the two)")
    # gymtimer acts once a press has been stable for the debounce time (a deliberate wait
    # gpiomon does not make); the rest is its own latency from edge to output. Twice gpiomon's:
    # what an edge-woken loop stays within on a loaded emulator (1.5 x failed once at 12.09 ms
    # against 12.08 beside a build), while a loop polling every few tens of milliseconds would
    # not; the precise figures are the LATENCY lines above and `gymtimer bench`'s table.
    own = median(samples) - DEBOUNCE_MS
    check(own <= 2 * median(u),
          f"LATENCY gymtimer press -> output minus the {DEBOUNCE_MS} ms debounce {own:.2f} ms"
          f" is within 2 x gpiomon's pull -> printed {median(u):.2f} ms (limit {2 * median(u):.2f})")


def busy_line(cfg):
    """Another program (gpiomon) holds the start button's line: gymtimer run refuses in one
    line naming it, exit status 2."""
    holder = subprocess.Popen(["gpiomon", CHIP, str(LINE["start"])], stdout=subprocess.DEVNULL)
    try:
        if not check(wait_for(lambda: line_in_use(LINE["start"], "gpiomon"), 30), "gpiomon holds GPIO17"):
            return
        try:
            r = subprocess.run([BIN, "run", "--config", cfg], capture_output=True, text=True, timeout=120,
                               env=dict(os.environ, GYMTIMER_CACHE_DIR="/tmp/gymtimer-vm/cache"))
            out = (r.stdout + r.stderr).strip()
            check(r.returncode == 2 and "GPIO line 'GPIO17' on /dev/" in out and "already in use by 'gpiomon'" in out
                  and len(out.splitlines()) == 1, f"line busy -> exit {r.returncode}, one line: {out}")
        except subprocess.TimeoutExpired:
            check(False, "line busy: gymtimer run did not give up within 120 s")
    finally:
        holder.kill()
        holder.wait()


def alarm_audio(data):
    """A 5 s rest with sound on snd-aloop: the alarm is captured from the loopback's other end,
    checked for its two tones (1175 and 880 Hz), and checked to stop after dismiss."""
    cfg = f"{data}/config-audio.toml"
    config(cfg, data + "/audio", audio=True)
    os.makedirs(data + "/audio", exist_ok=True)
    log = open(f"{data}/run-audio.log", "w")
    proc = subprocess.Popen([BIN, "run", "--config", cfg], stdout=log, stderr=subprocess.STDOUT,
                            env=dict(os.environ, GYMTIMER_CACHE_DIR=f"{data}/cache"))
    wav = f"{data}/alarm.wav"
    try:
        if not check(wait_for(lambda: value("ready") == 1, 120), "audio run: ready LED lit"):
            return
        rec = subprocess.Popen(["arecord", "-q", "-D", "hw:Loopback,1,0", "-f", "S16_LE", "-r", "48000", "-c", "1",
                                "-d", "14", wav], stderr=subprocess.PIPE, text=True)
        time.sleep(0.5)
        press(LINE["start"])
        alarm = wait_for(lambda: value("alarm") == 1, 15)
        check(alarm, "audio run: alarm LED lit after the 5 s rest")
        # 4 s of alarm: a starved emulator was seen to start the sound up to 2 s after the LED.
        time.sleep(4)
        press(LINE["dismiss"])
        check(wait_for(lambda: value("alarm") == 0, 5), "audio run: dismiss ends the alarm")
        _, err = rec.communicate(timeout=30)
        check(rec.returncode == 0, f"arecord captured from the loopback ({err.strip()})")
        # Holding dismiss 2 s ends the workout: its one set goes into the history (not before).
        check(history(cfg) == [], f"no workout in the history before the hold: {history(cfg)}")
        press(LINE["dismiss"], 2.6)
        time.sleep(1)
    finally:
        stop(proc, log)
    check_alarm_recording(wav, "")
    check(history(cfg) == [("rest", "1")], f"hold dismiss 2 s -> the workout (1 rest set) is in the history: {history(cfg)}")


def stop(proc, log):
    """SIGTERM to gymtimer, as systemd stops it: its exit status, or "timeout" (then killed)."""
    proc.send_signal(signal.SIGTERM)
    try:
        rc = proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill(); rc = "timeout"
    log.close()
    return rc


def fleet_run(data):
    """`gymtimer run` with a [fleet] section on the real GPIO path: Mosquitto on the VM's
    loopback, the kiosk online on it, a `gymtimer fleet start --in 1` from another process
    starting the rest (the rest LED lights on the simulated line), and `offline` after SIGTERM."""
    # The VM's loopback is down at boot; iproute2's ip, or busybox's where it is missing.
    ip = ["ip"] if shutil.which("ip") else ["busybox", "ip"]
    subprocess.run(ip + ["link", "set", "lo", "up"], capture_output=True)
    os.makedirs(data + "/fleet", exist_ok=True)
    os.chmod(data, 0o755)
    conf = f"{data}/mosquitto.conf"
    with open(conf, "w") as f:
        f.write("listener 18830 127.0.0.1\nallow_anonymous true\npersistence false\n")
    os.chmod(conf, 0o644)
    broker_log = open(f"{data}/mosquitto.log", "w")
    broker = subprocess.Popen(["/usr/sbin/mosquitto", "-c", conf], stdout=broker_log, stderr=subprocess.STDOUT)
    url = "mqtt://127.0.0.1:18830"

    def status():
        r = subprocess.run([BIN, "fleet", "status", "--broker", url], capture_output=True, text=True, timeout=30)
        row = next((line.split() for line in r.stdout.splitlines() if line.startswith("vm ")), [])
        return row[1] if len(row) > 1 else (r.stdout + r.stderr).strip()

    cfg = f"{data}/config-fleet.toml"
    config(cfg, data + "/fleet")
    with open(cfg, "a") as f:
        f.write(f'[fleet]\nbroker = "{url}"\nstation = "vm"\n')
    log = open(f"{data}/run-fleet.log", "w")
    proc = subprocess.Popen([BIN, "run", "--config", cfg], stdout=log, stderr=subprocess.STDOUT,
                            env=dict(os.environ, GYMTIMER_CACHE_DIR=f"{data}/cache"))
    try:
        if not check(wait_for(lambda: value("ready") == 1, 120), "fleet run: ready LED lit"):
            return
        seen = []
        check(wait_for(lambda: seen.append(status()) or seen[-1] == "online", 30),
              f"fleet run: the kiosk is online on the broker (fleet status said {seen[-1:]})")
        r = subprocess.run([BIN, "fleet", "start", "--broker", url, "--in", "1"], capture_output=True, text=True, timeout=30)
        check(r.returncode == 0, f"fleet start --in 1: {r.stdout.strip()} {r.stderr.strip()}")
        check(wait_for(lambda: value("rest") == 1, 10), "fleet run: the start from the broker lights the rest LED")
    finally:
        rc = stop(proc, log)
    check(rc == 0, f"fleet run: SIGTERM -> exit 0 (got {rc})")
    said = status()
    check(said == "offline", f"fleet run: offline after SIGTERM (fleet status said {said!r})")
    broker.terminate()
    broker.wait(10)
    broker_log.close()
    print("--- gymtimer's log (fleet run):")
    print(open(f"{data}/run-fleet.log").read(), end="")


def history(cfg):
    """(kind, sets) of each workout `gymtimer history --csv` lists, or its error."""
    r = subprocess.run([BIN, "history", "--csv", "--config", cfg], capture_output=True, text=True)
    if r.returncode != 0:
        return f"exit {r.returncode}: {r.stderr.strip()}"
    return [(row.get("kind"), row.get("sets")) for row in csv.DictReader(io.StringIO(r.stdout))]


def check_alarm_recording(wav, who):
    """The alarm captured from the loopback: heard, its two tones (880 and 1175 Hz) there, and
    silence at the end (after dismiss). `who` prefixes each check's text."""
    with wave.open(wav) as w:
        rate = w.getframerate()
        raw = w.readframes(w.getnframes())
    samples = [int.from_bytes(raw[i:i + 2], "little", signed=True) for i in range(0, len(raw) - 1, 2)]
    frame = rate // 10
    rms = [math.sqrt(sum(x * x for x in samples[i:i + frame]) / frame) for i in range(0, len(samples) - frame + 1, frame)]
    loud = [i for i, r in enumerate(rms) if r > 1000]
    if not check(len(loud) >= 10, f"{who}the alarm was heard on the loopback ({len(loud)} loud 100 ms frames)"):
        # What the capture held, second by second (the loudest 100 ms frame of each), to tell a
        # late, a quiet and a missing alarm apart.
        print(f"  capture: {len(samples) / rate:.1f} s; loudest frame per second: "
              + " ".join(str(round(max(rms[i:i + 10]))) for i in range(0, len(rms), 10)), flush=True)
    if not loud:
        return
    # Frequency of each loud 50 ms piece from its zero crossings; the alarm alternates two tones.
    piece = rate // 20
    estimates = []
    for i in range(loud[0] * frame, (loud[-1] + 1) * frame - piece, piece):
        chunk = samples[i:i + piece]
        if math.sqrt(sum(x * x for x in chunk) / piece) < 1000:
            continue
        crossings = sum(1 for a, b in zip(chunk, chunk[1:]) if (a < 0) != (b < 0))
        estimates.append(crossings / 2 * 20)
    print(f"  alarm pieces (Hz): {' '.join(str(round(e)) for e in estimates[:24])}")
    near = lambda f: sum(1 for e in estimates if abs(e - f) <= 40)
    check(near(880) >= 3 and near(1175) >= 3,
          f"{who}the alarm's two tones are there: {near(880)} pieces near 880 Hz, {near(1175)} near 1175 Hz")
    tail = rms[-8:]
    check(max(tail) < 300, f"{who}silence after dismiss (last 0.8 s RMS {max(tail):.0f})")


def main():
    data = "/tmp/gymtimer-vm"
    os.makedirs(data, exist_ok=True)
    cfg = f"{data}/config.toml"
    config(cfg, data)
    print(f"guest: {BIN} run --config {cfg} (chip {CHIP}, i2c bus {BUS})", flush=True)
    check(os.access(BIN, os.X_OK), f"{BIN} is built")
    r = subprocess.run([BIN, "check-config", cfg], capture_output=True, text=True)
    check(r.returncode == 0, f"check-config: {r.stdout.strip()} {r.stderr.strip()}")
    busy_line(cfg)
    log = open(f"{data}/run.log", "w")
    t0 = time.monotonic()
    proc = subprocess.Popen([BIN, "run", "--config", cfg], stdout=log, stderr=subprocess.STDOUT,
                            env=dict(os.environ, GYMTIMER_CACHE_DIR=f"{data}/cache"))
    try:
        # About 3 s on an idle machine; over 30 s seen when the emulator shares it with builds.
        ok = check(wait_for(lambda: value("ready") == 1, 120), "ready LED lit")
        print(f"  start-up to ready LED: {time.monotonic() - t0:.2f} s")
        check(line_in_use(LINE["start"], "gymtimer"), f"gpioinfo names gymtimer as the consumer: {gpioinfo_row(LINE['start'])!r}")
        check(wait_for(lambda: shown(ram()) == "01:30", 10), f"display RAM shows 01:30 (got '{shown(ram())}', {ram()})")
        check(value("rest") == 0 and value("alarm") == 0 and value("buzzer") == 0, "rest/alarm LEDs and buzzer off")
        # The knob: 15 s a detent, clockwise up, shown at once while idle.
        for detents, want in ((2, "02:00"), (-3, "01:15"), (1, "01:30")):
            turn(detents)
            check(wait_for(lambda: shown(ram()) == want, 5),
                  f"encoder turned {detents:+d} detents (quadrature on GPIO22/23) -> display {want} (got '{shown(ram())}')")
        press(LINE["start"])
        check(wait_for(lambda: value("rest") == 1, 5), "start (pull on GPIO17) -> rest LED lit")
        check(value("ready") == 0, "ready LED off while resting")
        first = seconds(shown(ram()))
        time.sleep(2)
        later = seconds(shown(ram()))
        check(first is not None and later is not None and 0 < later < first <= 90,
              f"display counts down from 01:30 (read {first} s, 2 s later {later} s)")
        if proc.poll() is None and ok:
            latency(proc)
    finally:
        rc = stop(proc, log)
    check(rc == 0, f"SIGTERM -> exit 0 (got {rc})")
    image = ram()
    check(all(b == 0 for b in image), f"display RAM blank after SIGTERM ({image})")
    lit = [n for n in ("ready", "rest", "alarm", "low", "high", "buzzer") if value(n) != 0]
    check(not lit, f"LEDs and buzzer off after SIGTERM (lit: {lit})")
    alarm_audio(data)
    fleet_run(data)
    print("--- gymtimer's log:")
    print(open(f"{data}/run.log").read(), end="")
    print(f"guest: {'PASS' if failures == 0 else f'FAIL ({failures} failures)'}")
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
