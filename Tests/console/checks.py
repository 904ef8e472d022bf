"""What the console's test scripts (console_test.py, athletes_test.py, hostile_test.py) share:
checks that print "ok" or "FAIL" and count, a free port on 127.0.0.1, a message on the broker,
and the end of a run (its processes stopped, their logs shown when a check failed)."""
import os
import shutil
import signal
import socket
import subprocess

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
