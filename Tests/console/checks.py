"""What the console's test scripts (console_test.py, athletes_test.py, hostile_test.py) share:
checks that print "ok" or "FAIL" and count, a free port on 127.0.0.1, a message on the broker,
waiting until something holds, the gym a browser test starts (`Gym`: Mosquitto, the collector,
headless stations, the console behind a PIN, chromium at a size) and the end of a run (its
processes stopped, their logs shown when a check failed)."""
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request

counts = {"passed": 0, "failed": 0}


def check(name, ok, detail=""):
    """Counts and prints one check; returns whether it held."""
    if ok:
        counts["passed"] += 1
        print(f"ok   {name}")
    else:
        counts["failed"] += 1
        print(f"FAIL {name} {detail}")
    return ok


def until(seconds, predicate, step=0.2):
    """`predicate()`'s first true value within `seconds` (an exception counts as not yet), or None."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            value = predicate()
            if value:
                return value
        except Exception:  # noqa: BLE001 — the page or a file is not there yet
            pass
        time.sleep(step)
    return None


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def mqtt_publish(port, topic, payload, retain=False):
    """Publishes one message at QoS 0 on the broker at 127.0.0.1:port (MQTT 3.1.1: CONNECT,
    PUBLISH, DISCONNECT), as any client on the gym's network could."""
    import socket

    def length(n):
        out = bytearray()
        while True:
            byte, n = n % 128, n // 128
            out.append(byte | (0x80 if n else 0))
            if not n:
                return bytes(out)

    def text(s):
        b = s.encode()
        return len(b).to_bytes(2, "big") + b
    connect = text("MQTT") + bytes([4, 0x02]) + (60).to_bytes(2, "big") + text(f"test-{port}-{topic}"[:23])
    publish = text(topic) + payload.encode()
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(bytes([0x10]) + length(len(connect)) + connect)
        if s.recv(4)[:1] != b"\x20":
            raise RuntimeError("the broker did not accept the connection")
        s.sendall(bytes([0x30 | (1 if retain else 0)]) + length(len(publish)) + publish + bytes([0xE0, 0]))


def finish(processes, work, logs, stubborn_fails=False):
    """Stops `processes` ((name, Popen) pairs, last started first) with SIGTERM, killing any
    that does not stop within 10 s (a failed check with `stubborn_fails`); on a failed check
    prints the tail of each of `logs` (names of `work`/NAME.log) and keeps `work`, else removes
    it. Returns the run's exit status, after its count."""
    for name, process in reversed(processes):
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
    for name, process in reversed(processes):
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            if stubborn_fails:
                check(f"{name} stops on SIGTERM", False)
    if counts["failed"]:
        for name in logs:
            path = os.path.join(work, f"{name}.log")
            if os.path.exists(path):
                print(f"--- {name}.log (tail)")
                print("".join(open(path).readlines()[-15:]))
        print(f"(work files kept in {work})")
    else:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{counts['passed']} passed, {counts['failed']} failed")
    return 1 if counts["failed"] else 0


class Gym:
    """A browser test's gym in a new work folder: its processes (each one's stderr in
    work/NAME.log), a Mosquitto on a free port of 127.0.0.1, the collector's database, headless
    stations, and the console on another free port behind PIN (a file of mode 0600)."""
    PIN = "4821"

    def __init__(self, gymtimer, prefix):
        self.gymtimer = gymtimer
        self.work = tempfile.mkdtemp(prefix=prefix)
        self.processes = []
        self.mqtt, self.http = free_port(), free_port()
        self.broker = f"mqtt://127.0.0.1:{self.mqtt}"
        self.db = os.path.join(self.work, "gym.sqlite")
        self.base = f"http://127.0.0.1:{self.http}"

    def path(self, name):
        return os.path.join(self.work, name)

    def start(self, name, argv, stdin=subprocess.DEVNULL, stdout=None):
        """Starts `argv` as `name` (its stdout to `stdout`, else work/NAME.out)."""
        out = open(self.path(f"{name}.out"), "w") if stdout is None else stdout
        process = subprocess.Popen(argv, stdin=stdin, stdout=out, stderr=open(self.path(f"{name}.log"), "w"))
        self.processes.append((name, process))
        return process

    def process(self, name):
        return dict(self.processes)[name]

    def start_broker(self):
        """Mosquitto, anonymous and without persistence, once it takes connections."""
        with open(self.path("mosquitto.conf"), "w") as f:
            f.write(f"listener {self.mqtt} 127.0.0.1\nallow_anonymous true\npersistence false\n")
        self.start("mosquitto", [shutil.which("mosquitto") or "/usr/sbin/mosquitto", "-c", self.path("mosquitto.conf")])
        until(10, lambda: socket.create_connection(("127.0.0.1", self.mqtt), timeout=1).close() or True)

    def start_collector(self):
        self.start("collect", [self.gymtimer, "collect", "--broker", self.broker, "--db", self.db])

    def start_station(self, station, extra="", stdin=subprocess.DEVNULL, stdout=None):
        """A headless station of the fleet, its config's [fleet] then `extra`."""
        config = self.path(f"{station}.toml")
        with open(config, "w") as f:
            f.write(f'[fleet]\nbroker = "{self.broker}"\nstation = "{station}"\n{extra}')
        return self.start(station, [self.gymtimer, "simulate", "--headless", "--config", config,
                                    "--data-dir", self.path(station)], stdin=stdin, stdout=stdout)

    def start_console(self):
        """The console behind the PIN (it asks the collector for the gym's data; its programs in
        work/programs.json, beside the collector's database); whether it served its page within 30 s."""
        pin = self.path("pin")
        with open(pin, "w") as f:
            f.write(self.PIN + "\n")
        os.chmod(pin, 0o600)
        self.start("console", [self.gymtimer, "console", "--broker", self.broker, "--listen", f"127.0.0.1:{self.http}",
                               "--library", self.path("programs.json"), "--pin-file", pin])
        return until(30, lambda: urllib.request.urlopen(self.base + "/", timeout=2).status == 200) is not None

    def browser(self, width, height, service=None):
        """Headless chromium at width × height (chromedriver from Debian unless `service`)."""
        from selenium import webdriver
        from selenium.webdriver.chrome.options import Options
        from selenium.webdriver.chrome.service import Service
        options = Options()
        for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--window-size={width},{height}"]:
            options.add_argument(flag)
        options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
        service = service or Service(shutil.which("chromedriver") or "/usr/bin/chromedriver")
        return webdriver.Chrome(service=service, options=options)

    def finish(self, logs, stubborn_fails=False):
        return finish(self.processes, self.work, logs, stubborn_fails)
