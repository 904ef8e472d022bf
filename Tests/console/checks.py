"""What the console's test scripts (console_test.py, hostile_test.py) share: checks that print
"ok" or "FAIL" and count, and a free port on 127.0.0.1."""
import socket

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
