#!/usr/bin/env python3
"""The coach's console on a Wi-Fi that members and guests share (issue 32, point 5): a real
`gymtimer console` on 127.0.0.1 with its PIN and a real Mosquitto; the coach's requests come from
127.0.0.1, the attacker's from another address of this machine, 127.0.0.2. Checked:

  1. DNS rebinding: requests whose Host (and Origin) name another site are refused (421), a
     login among them, and open no session;
  2. one guesser keeps nobody else out: wrong PINs from 127.0.0.2 lock out 127.0.0.2 only, and
     the coach logs in from 127.0.0.1 at once;
  3. /logout without the page's token changes nothing: the session still works;
  4. slow senders (a byte a second of a request's head or body) are cut off within seconds;
  3b. a name is hostile input: an athlete named `<script>…` shows as text on their page, which
     only the coach's session opens, and a roster edit without the session or token is refused;
  5. a flood of 1,100 idle sockets from 127.0.0.2 (the console started with the usual limit of
     1,024 open files): the coach's page is still served, and every idle socket is closed by the
     console within seconds;
  6. a guest holding every live-update stream (`/events`) it can, from 127.0.0.2 and then from
     as many other addresses as it takes, cannot shut the coach's page out: one address gets 4
     and is refused with the reason (429), the signed-out get 56 of the 64 in all (503), and the
     signed-in coach on 127.0.0.1 still gets a stream that carries the floor's next change.

usage: hostile_test.py GYMTIMER
Prints "N passed, M failed"; exits non-zero on any failure.
"""
import http.client
import os
import resource
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from gymtest import Gym, check, mqtt_publish, pseudonym, wait_for  # noqa: E402

COACH, ATTACKER = "127.0.0.1", "127.0.0.2"
PIN = Gym.PIN
HOSTILE_NAME = "<script>alert(1)</script>"
FLOOD = 1100
# The console closes a connection idle this long (ConsoleServer.idleSeconds), plus a margin a
# loaded machine holds.
IDLE_CLOSED_WITHIN = 5 + 10
# A slow sender is cut off after 5 s (the idle time-out for a head, ConsoleServer.bodySeconds for
# a body), plus the same margin.
SLOW_LIMIT = 5 + 10
# The pages' streams (ConsoleStreamLimit): per signed-out address, in all, kept for the coach.
STREAMS_PER_ADDRESS, STREAMS, STREAMS_KEPT = 4, 64, 8

def request(port, method, path, source=COACH, host=None, headers=None, body=None):
    """(status, headers, body text) of one request to the console from `source`."""
    connection = http.client.HTTPConnection(COACH, port, timeout=10, source_address=(source, 0))
    try:
        connection.putrequest(method, path, skip_host=True)
        connection.putheader("Host", host or f"{COACH}:{port}")
        for name, value in (headers or {}).items():
            connection.putheader(name, value)
        data = body.encode() if body is not None else None
        if data is not None:
            connection.putheader("Content-Type", "application/x-www-form-urlencoded")
            connection.putheader("Content-Length", str(len(data)))
        connection.endheaders(data)
        response = connection.getresponse()
        return response.status, response.headers, response.read().decode(errors="replace")
    finally:
        connection.close()


def open_stream(port, source, cookie=None):
    """A page's `GET /events` from `source`: (status, the open response) when it is served (the
    stream stays open until its connection is closed), else (status, the refusal's body)."""
    connection = http.client.HTTPConnection(COACH, port, timeout=10, source_address=(source, 0))
    connection.putrequest("GET", "/events", skip_host=True)
    connection.putheader("Host", f"{COACH}:{port}")
    connection.putheader("Accept", "text/event-stream")
    if cookie:
        connection.putheader("Cookie", cookie)
    connection.endheaders()
    response = connection.getresponse()
    if response.status == 200:
        return response.status, (connection, response)
    body = response.read().decode(errors="replace")
    connection.close()
    return response.status, body


def session_cookie(headers):
    for value in headers.get_all("Set-Cookie") or []:
        if value.startswith("gymtimer_console=") and "Max-Age=0" not in value:
            return value.split(";")[0]
    return None


def main():
    gymtimer = os.path.abspath(sys.argv[1])
    gym = Gym(gymtimer, "console-hostile-")
    mqtt, port, db = gym.mqtt, gym.http, gym.db
    flood = []
    streams = []
    try:
        gym.start_broker()

        # The gym's database, made by the collector, with an athlete whose name is markup.
        collect = subprocess.Popen(gym.collector_argv(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for(lambda: os.path.exists(db), 20)
        collect.terminate()
        collect.wait(timeout=10)
        added = subprocess.run([gymtimer, "athletes", "--db", db, "add", HOSTILE_NAME, "--card", pseudonym("04A1B2C3"), "--short", "AnnA"],
                               capture_output=True, text=True)
        check("the roster takes a name that is markup (any printable text is a name)", added.returncode == 0, added.stderr)
        # The collector again, for good: the console asks it for the athlete's page.
        gym.start_collector()

        def usual_open_files():
            resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))
        # On COACH (127.0.0.1), behind the PIN, with the usual limit of open files; its output in console.log.
        served = gym.start_console(library=False, stdout=subprocess.STDOUT, preexec_fn=usual_open_files)
        check("the console serves its page to the coach", served and request(port, "GET", "/")[0] == 200)
        origin = {"Origin": f"http://{COACH}:{port}"}

        # 1. DNS rebinding: another site's name, pointed at the console's address.
        evil = f"evil.example:{port}"
        status, _, _ = request(port, "GET", "/", source=ATTACKER, host=evil)
        check("a page requested under another site's name is refused", status == 421, f"status {status}")
        status, headers, _ = request(port, "POST", "/login", source=ATTACKER, host=evil,
                                     headers={"Origin": f"http://{evil}"}, body=f"pin={PIN}")
        check("a login under another site's name is refused and opens no session",
              status == 421 and session_cookie(headers) is None, f"status {status}, cookie {session_cookie(headers)}")
        status, _, _ = request(port, "POST", "/api/reset", source=ATTACKER, host=evil,
                               headers={"Origin": f"http://{evil}", "Content-Type": "application/json"}, body="{}")
        check("an action under another site's name is refused", status == 421, f"status {status}")

        # 2. A guesser on 127.0.0.2 keeps nobody else out.
        statuses = [request(port, "POST", "/login", source=ATTACKER, headers=origin, body="pin=0000")[0] for _ in range(12)]
        check("wrong PINs from 127.0.0.2 lock out 127.0.0.2", statuses[:5] == [401] * 5 and set(statuses[5:]) == {429},
              f"{statuses}")
        status, _, _ = request(port, "POST", "/login", source=ATTACKER, headers=origin, body=f"pin={PIN}")
        check("the right PIN from the locked-out address is not looked at", status == 429, f"status {status}")
        status, headers, _ = request(port, "POST", "/login", source=COACH, headers=origin, body=f"pin={PIN}")
        cookie = session_cookie(headers)
        check("the coach logs in from 127.0.0.1 meanwhile", status == 303 and cookie is not None, f"status {status}")

        # 3. /logout without the page's token changes nothing.
        page = request(port, "GET", "/", headers={"Cookie": cookie or ""})[2]
        check("the coach's page is unlocked", 'name="csrf" value="' in page)
        status, headers, _ = request(port, "POST", "/logout", headers={**origin, "Cookie": cookie or ""}, body="")
        check("/logout without the page's token is refused and keeps the cookie",
              status == 403 and not headers.get_all("Set-Cookie"), f"status {status}, {headers.get_all('Set-Cookie')}")
        page = request(port, "GET", "/", headers={"Cookie": cookie or ""})[2]
        check("the session still works after it", 'name="csrf" value="' in page)

        # 3b. A hostile name, on the athlete's page and in the roster's edits.
        status, _, body = request(port, "GET", "/athlete/1", source=ATTACKER)
        check("an athlete's page without the coach's session is refused", status == 401 and "script" not in body, f"status {status}")
        status, _, body = request(port, "GET", "/athlete/1", headers={"Cookie": cookie or ""})
        check("an athlete's name that is markup shows as text on their page",
              status == 200 and "&lt;script&gt;alert(1)&lt;/script&gt;" in body and "<script>" not in body, f"status {status}: {body[:300]}")
        edit = '{"card":"04B0B0B0","name":"<img src=x onerror=alert(1)>"}'
        json_headers = origin
        status, _, _ = request(port, "POST", "/api/roster-name", source=ATTACKER, headers=json_headers, body=edit)
        check("a roster edit without the coach's session is refused", status == 401, f"status {status}")
        status, _, _ = request(port, "POST", "/api/roster-name", headers={**json_headers, "Cookie": cookie or ""}, body=edit)
        check("a roster edit with the coach's cookie but not the page's token is refused", status == 403, f"status {status}")
        status, _, _ = request(port, "POST", "/api/division", headers={**json_headers, "Cookie": cookie or ""},
                               body='{"id":"rack-1/program@1","division":"scaled"}')
        check("an Rx/Scaled change without the page's token is refused", status == 403, f"status {status}")
        listed = subprocess.run([gymtimer, "athletes", "--db", db, "list"], capture_output=True, text=True).stdout
        check("and the roster is unchanged", "04B0B0B0" not in listed and "img" not in listed, listed)

        # 4. Slow senders from 127.0.0.2: a byte a second of a request's head, or of its body.
        def slow(head, trickle):
            """Seconds until the console answered or closed a connection that sends `head`, then a
            byte of `trickle` a second (None if it held it for SLOW_LIMIT s)."""
            s = socket.create_connection((COACH, port), timeout=5, source_address=(ATTACKER, 0))
            started = time.monotonic()
            try:
                s.sendall(head.encode())
                s.settimeout(1)
                for byte in trickle.encode() * 100:
                    if time.monotonic() - started > SLOW_LIMIT:
                        return None
                    try:
                        s.sendall(bytes([byte]))
                        s.recv(1024)
                        return time.monotonic() - started   # answered (or closed: b"")
                    except socket.timeout:
                        continue
                    except OSError:
                        return time.monotonic() - started   # reset
                return None
            finally:
                s.close()
        taken = slow("GET / HTTP/1.1\r\n", "X-Slow: a\r\n")
        check(f"a request head sent a byte a second is cut off within {SLOW_LIMIT} s", taken is not None,
              "held open")
        taken = slow(f"POST /login HTTP/1.1\r\nHost: {COACH}:{port}\r\nOrigin: http://{COACH}:{port}\r\n"
                     "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 500\r\n\r\n", "pin=0000&")
        check(f"a request body sent a byte a second is cut off within {SLOW_LIMIT} s", taken is not None,
              "held open")

        # 5. A flood of idle sockets from 127.0.0.2.
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4096)), hard))
        for _ in range(FLOOD):
            s = socket.socket()
            s.setblocking(True)
            s.settimeout(5)
            s.bind((ATTACKER, 0))
            try:
                s.connect((COACH, port))
                flood.append(s)
            except OSError:
                s.close()
        print(f"     {len(flood)} idle sockets opened from {ATTACKER}")
        started = time.monotonic()
        served = None
        while time.monotonic() - started < 10:
            try:
                if request(port, "GET", "/")[0] == 200:
                    served = time.monotonic() - started
                    break
            except OSError:
                time.sleep(0.2)
        check("the coach's page is served during the flood", served is not None, "not within 10 s")
        # Every idle socket is closed by the console: a read sees the end (or a reset).
        open_ones = list(flood)
        deadline = started + IDLE_CLOSED_WITHIN
        while open_ones and time.monotonic() < deadline:
            still = []
            for s in open_ones:
                s.setblocking(False)
                try:
                    if s.recv(1) != b"":
                        still.append(s)
                except BlockingIOError:
                    still.append(s)
                except OSError:
                    pass
            open_ones = still
            if open_ones:
                time.sleep(0.5)
        check(f"every idle socket is closed by the console within {IDLE_CLOSED_WITHIN} s",
              len(flood) >= 1000 and not open_ones, f"{len(open_ones)} of {len(flood)} still open")
        status = request(port, "GET", "/")[0]
        check("the page is served after the flood", status == 200, f"status {status}")

        # 6. A guest holding every page's stream it can, from 127.0.0.2 and then other addresses.
        for _ in range(STREAMS_PER_ADDRESS):
            status, held = open_stream(port, ATTACKER)
            if status == 200:
                streams.append(held)
        status, body = open_stream(port, ATTACKER)
        check(f"one address holds {STREAMS_PER_ADDRESS} streams and the next is refused saying why",
              len(streams) == STREAMS_PER_ADDRESS and status == 429
              and body == f"too many pages open from this address ({STREAMS_PER_ADDRESS}): close one", f"{len(streams)}, {status} {body}")
        refusal = None
        for host in range(3, 100):
            for _ in range(STREAMS_PER_ADDRESS):
                status, held = open_stream(port, f"127.0.0.{host}")
                if status != 200:
                    refusal = (status, held)
                    break
                streams.append(held)
            if refusal:
                break
        print(f"     {len(streams)} streams held by the guest")
        share = STREAMS - STREAMS_KEPT
        check(f"the signed-out hold {share} streams in all, from any number of addresses, and the next is refused",
              len(streams) == share and refusal is not None and refusal[0] == 503
              and refusal[1] == f"too many pages open ({share} signed out; {STREAMS_KEPT} more are kept for the coach): close one or sign in",
              f"{len(streams)} held, then {refusal}")
        status, _ = open_stream(port, COACH)
        check("a signed-out page from the coach's address is refused too (the session counts, not the address)",
              status == 503, f"status {status}")
        status, held = open_stream(port, COACH, cookie=cookie)
        check("the signed-in coach still gets a stream", status == 200, f"status {status}: {held}")
        if status == 200:
            streams.append(held)
            coach = held[1]
            mqtt_publish(mqtt, "gymtimer/rack-9/status", "online", retain=True)
            deadline = time.monotonic() + 15
            live = False
            while not live and time.monotonic() < deadline:
                try:
                    line = coach.readline()
                except OSError:
                    break
                if not line:
                    break
                live = line.startswith(b"data:") and b"rack-9" in line
            check("and it carries the floor's next change (a station coming online)", live)
        status, body = open_stream(port, "127.0.0.200")
        check("while a new guest address is still refused", status == 503, f"status {status} {body}")
    finally:
        for s in flood:
            s.close()
        for connection, _ in streams:
            connection.close()
        status = gym.finish(["console"], tail=None)
    return status


if __name__ == "__main__":
    sys.exit(main())
