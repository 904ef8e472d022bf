"""What every host-side Python test shares (Tests/console, Tests/chain, Tests/terminal; the VM
guests' Tests/vm/ run inside their VMs and keep their own): checks that print "ok" or "FAIL"
and count, waiting for a condition with a deadline, free ports, processes started and stopped
with their logs, a Mosquitto on a free port, a message published on it, and the gym a browser
test starts (`Gym`: the broker, the collector, headless stations, the console behind a PIN,
chromium at a size) with the end of its run.

No test here waits a fixed time for something to happen: each waits, with a deadline, for the
state it needs (`wait_for`), and asserts that state; a window in which nothing may happen ends
on an event that comes after it. A deadline is what an idle machine needs with room to
spare; `wait_for` gives it MARGIN times that (2, or $GYMTEST_MARGIN), for a loaded 2-core
machine. A deadline only costs time when the state never comes.

A test imports it with its folder on the path:

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
    from gymtest import check, wait_for  # noqa: E402
"""
import hashlib
import hmac
import itertools
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request

# How many times its deadline `wait_for` waits: a loaded 2-core machine's margin.
MARGIN = float(os.environ.get("GYMTEST_MARGIN", "2"))

counts = {"passed": 0, "failed": 0}
# The names of the checks that failed, in order.
failures = []


def check(name, ok, detail=""):
    """Counts and prints one check (`detail` said when it failed); returns whether it held."""
    if ok:
        counts["passed"] += 1
        print(f"ok   {name}")
    else:
        counts["failed"] += 1
        failures.append(name)
        print(f"FAIL {name}" + (f" {detail}" if detail else ""))
    return bool(ok)


def summary():
    """`N passed, M failed`."""
    return f"{counts['passed']} passed, {counts['failed']} failed"


def wait_for(condition, seconds, step=0.2):
    """Polls `condition()` every `step` s until it returns a true value, and returns that value;
    after `seconds` × MARGIN without one, returns its last value (None if it raised: an exception
    counts as not yet, the page or the file is not there yet)."""
    end = time.monotonic() + seconds * MARGIN
    value = None
    while True:
        try:
            value = condition()
        except Exception:  # noqa: BLE001 — not there yet
            value = None
        if value or time.monotonic() >= end:
            return value
        time.sleep(step)


def holds(condition, seconds, step=0.2):
    """Whether `condition()` stays true for the whole of `seconds` (polled every `step`, false at
    the first miss; an exception is a miss): what a check that something does NOT happen watches,
    for as long as it must. Not stretched by MARGIN: a longer watch would only be slower."""
    end = time.monotonic() + seconds
    while True:
        try:
            if not condition():
                return False
        except Exception:  # noqa: BLE001 — a miss
            return False
        if time.monotonic() >= end:
            return True
        time.sleep(step)


# The tests' card key (Swift's TestCardKey: 32 bytes of 0x42) and the pseudonym a card's UID has
# under it: HMAC-SHA-256 of the UID's bytes, its first 12 bytes as upper-case hex.
TEST_CARD_KEY = bytes([0x42] * 32)


def pseudonym(uid, key=TEST_CARD_KEY):
    return hmac.new(key, bytes.fromhex(uid), hashlib.sha256).hexdigest()[:24].upper()


def write_card_key(path, key=TEST_CARD_KEY):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(key.hex() + "\n")


def free_port(host="127.0.0.1"):
    """A TCP port nothing listens on now."""
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def listening(port, host="127.0.0.1"):
    """Whether something accepts connections on host:port."""
    try:
        socket.create_connection((host, port), timeout=1).close()
        return True
    except OSError:
        return False


def stop(processes, seconds=10):
    """Stops `processes` ((name, Popen) pairs, the last started first) with SIGTERM, then kills
    each that has not ended within `seconds`; returns the names of those killed."""
    for _, process in reversed(processes):
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
    killed = []
    for name, process in reversed(processes):
        try:
            process.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            killed.append(name)
    return killed


def mosquitto_binary():
    """Debian's Mosquitto, or None."""
    return shutil.which("mosquitto") or next((p for p in ("/usr/sbin/mosquitto", "/usr/bin/mosquitto") if os.path.exists(p)), None)


def mosquitto_config(folder, port):
    """A Mosquitto config in `folder`: anonymous, without persistence, on 127.0.0.1:`port`; its path."""
    path = os.path.join(folder, "mosquitto.conf")
    with open(path, "w") as f:
        f.write(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
    return path


def start_broker(folder, port=None, stderr=subprocess.DEVNULL):
    """A Mosquitto on `port` (a free one if None) of 127.0.0.1, its config in `folder`, once it
    takes connections: (its Popen, its port). Raises when there is no mosquitto."""
    port = port or free_port()
    binary = mosquitto_binary()
    if binary is None:
        raise FileNotFoundError("no mosquitto (scripts/install-deps.sh --tests installs it)")
    process = subprocess.Popen([binary, "-c", mosquitto_config(folder, port)], stdout=subprocess.DEVNULL, stderr=stderr)
    wait_for(lambda: listening(port) or process.poll() is not None, 10, step=0.05)
    return process, port


_client_ids = itertools.count(1)


def _mqtt_length(n):
    """An MQTT packet's remaining length: 7 bits a byte, the high bit saying more follow."""
    out = bytearray()
    while True:
        byte, n = n % 128, n // 128
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _mqtt_text(s):
    """An MQTT string: its length in two bytes, then its UTF-8 bytes."""
    b = s.encode() if isinstance(s, str) else s
    return len(b).to_bytes(2, "big") + b


def mqtt_publish(port, topic, payload, retain=False, host="127.0.0.1"):
    """Publishes one message at QoS 0 on the broker at host:port (MQTT 3.1.1: CONNECT, PUBLISH,
    DISCONNECT), as any client on the gym's network could: the tests need no MQTT client. Each
    message has a client id of its own: a broker that met the id of a connection it has not
    finished reading would take the session over and could drop that one's message."""
    connect = _mqtt_text("MQTT") + bytes([4, 0x02]) + (60).to_bytes(2, "big") + _mqtt_text(f"gymtest-{os.getpid()}-{next(_client_ids)}"[:23])
    publish = _mqtt_text(topic) + (payload.encode() if isinstance(payload, str) else payload)
    with socket.create_connection((host, port), timeout=5) as s:
        s.sendall(bytes([0x10]) + _mqtt_length(len(connect)) + connect)
        if s.recv(4)[:1] != b"\x20":
            raise RuntimeError("the broker did not accept the connection")
        s.sendall(bytes([0x30 | (1 if retain else 0)]) + _mqtt_length(len(publish)) + publish + bytes([0xE0, 0]))


def mqtt_retained(port, topic, username, password, seconds=5, host="127.0.0.1"):
    """What is retained on `topic` as the account `username` reads it (MQTT 3.1.1: CONNECT,
    SUBSCRIBE at QoS 0, then the first PUBLISH within `seconds`): its payload as text, or "" when
    nothing came (nothing retained, or the broker's ACL refused the account: a SUBACK of 0x80, or
    a message it never delivers). Raises when the broker refuses the connection."""
    def packet(s):
        head = s.recv(1)
        if not head:
            raise ConnectionError("the broker closed the connection")
        n, shift = 0, 0
        while True:
            byte = s.recv(1)[0]
            n, shift = n | (byte & 0x7F) << shift, shift + 7
            if not byte & 0x80:
                break
        body = b""
        while len(body) < n:
            body += s.recv(n - len(body))
        return head[0] >> 4, body
    connect = (_mqtt_text("MQTT") + bytes([4, 0xC2]) + (60).to_bytes(2, "big") + _mqtt_text(f"gymtest-{os.getpid()}-{next(_client_ids)}"[:23])
               + _mqtt_text(username) + _mqtt_text(password))
    subscribe = (1).to_bytes(2, "big") + _mqtt_text(topic) + bytes([0])
    deadline = time.monotonic() + seconds
    with socket.create_connection((host, port), timeout=seconds) as s:
        s.sendall(bytes([0x10]) + _mqtt_length(len(connect)) + connect)
        kind, body = packet(s)
        if kind != 2 or body[1:2] != b"\x00":
            raise RuntimeError(f"the broker refused {username}'s connection")
        s.sendall(bytes([0x82]) + _mqtt_length(len(subscribe)) + subscribe)
        while time.monotonic() < deadline:
            s.settimeout(max(0.05, deadline - time.monotonic()))
            try:
                kind, body = packet(s)
            except (socket.timeout, TimeoutError):
                return ""
            if kind == 9 and body[2:3] == b"\x80":
                return ""
            if kind == 3:
                size = int.from_bytes(body[:2], "big")
                return body[2 + size:].decode(errors="replace")
    return ""


def finish(processes, work, logs, stubborn_fails=False, tail=15):
    """Stops `processes` (see `stop`), a check failing for each killed with `stubborn_fails`; on
    a failed check prints the last `tail` lines (None: all) of each of `logs` (names of
    `work`/NAME.log) and keeps `work`, else removes it. Prints the count and returns the run's
    exit status."""
    for name in stop(processes):
        if stubborn_fails:
            check(f"{name} stops on SIGTERM", False)
    if counts["failed"]:
        for name in logs:
            path = os.path.join(work, f"{name}.log")
            if os.path.exists(path):
                with open(path, errors="replace") as f:
                    lines = f.readlines()
                print(f"--- {name}.log" + (" (tail)" if tail else ""))
                print("".join(lines[-tail:] if tail else lines))
        print(f"(work files kept in {work})")
    else:
        shutil.rmtree(work, ignore_errors=True)
    print(summary())
    return 1 if counts["failed"] else 0


class Gym:
    """A test's gym in a new work folder: its processes (each one's stderr in work/NAME.log), a
    Mosquitto on a free port of 127.0.0.1, the collector's database, headless stations, and the
    console on another free port behind PIN (a file of mode 0600)."""
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

    def start(self, name, argv, stdin=subprocess.DEVNULL, stdout=None, **popen):
        """Starts `argv` as `name` (its stdout to `stdout`, else work/NAME.out; its stderr to
        work/NAME.log, or to stdout if that is subprocess.STDOUT)."""
        log = open(self.path(f"{name}.log"), "w")
        if stdout is subprocess.STDOUT:
            out, err = log, subprocess.STDOUT
        else:
            out, err = (open(self.path(f"{name}.out"), "w") if stdout is None else stdout), log
        process = subprocess.Popen(argv, stdin=stdin, stdout=out, stderr=err, **popen)
        self.processes.append((name, process))
        return process

    def process(self, name):
        return dict(self.processes)[name]

    def start_broker(self):
        """Mosquitto, anonymous and without persistence, once it takes connections."""
        binary = mosquitto_binary() or "/usr/sbin/mosquitto"
        self.start("mosquitto", [binary, "-c", mosquitto_config(self.work, self.mqtt)])
        wait_for(lambda: listening(self.mqtt), 10, step=0.05)

    def collector_argv(self):
        return [self.gymtimer, "collect", "--broker", self.broker, "--db", self.db]

    def start_collector(self):
        return self.start("collect", self.collector_argv())

    def card_key(self):
        """The gym's card key file (work/card.key, 0600), made once: every station of the gym
        reads it (`[athletes] card_key`), as `athletes add --card UID --card-key` does."""
        path = self.path("card.key")
        if not os.path.exists(path):
            write_card_key(path)
        return path

    def start_station(self, station, extra="", stdin=subprocess.DEVNULL, stdout=None):
        """A headless station of the fleet with the gym's card key, its config's [fleet] then `extra`."""
        config = self.path(f"{station}.toml")
        with open(config, "w") as f:
            f.write(f'[athletes]\ncard_key = "{self.card_key()}"\n'
                    f'[fleet]\nbroker = "{self.broker}"\nstation = "{station}"\n{extra}')
        return self.start(station, [self.gymtimer, "simulate", "--headless", "--config", config,
                                    "--data-dir", self.path(station)], stdin=stdin, stdout=stdout)

    def start_console(self, *extra, pin=True, library=True, **popen):
        """The console (`--pin-file` with PIN unless not `pin`; its programs in
        work/programs.json, beside the collector's database, unless not `library`; then
        `extra`); whether it served its page within 30 s."""
        argv = [self.gymtimer, "console", "--broker", self.broker, "--listen", f"127.0.0.1:{self.http}"]
        if library:
            argv += ["--library", self.path("programs.json")]
        if pin:
            path = self.path("pin")
            with open(path, "w") as f:
                f.write(self.PIN + "\n")
            os.chmod(path, 0o600)
            argv += ["--pin-file", path]
        self.start("console", argv + list(extra), **popen)
        return bool(wait_for(lambda: urllib.request.urlopen(self.base + "/", timeout=2).status == 200, 30))

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

    def sign_in(self, driver, pin=None):
        """Types `pin` (the console's PIN unless given) into the page's sign-in form and sends it."""
        from selenium.webdriver.common.by import By
        driver.find_element(By.ID, "pin").send_keys(pin or self.PIN)
        driver.find_element(By.CSS_SELECTOR, "#login button").click()

    def finish(self, logs, stubborn_fails=False, tail=15):
        return finish(self.processes, self.work, logs, stubborn_fails, tail)
