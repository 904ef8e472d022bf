#!/usr/bin/env python3
"""A chain of gyms on three hosts (issue 35, docs/chain.md): network namespaces for gym A, gym B
and the centre, joined by veth links; a real Mosquitto on each; each gym's broker bridged to the
centre's over TLS with the snippet `gymtimer chain bridge` writes and the centre kept to the ACL
`gymtimer chain centre` prints; a real PostgreSQL server in the centre; two central collectors
(`gymtimer collect --db postgresql://… --chain gyms --shared central`); two headless stations in
each gym finishing real workouts. Checked on the database's rows and the stations' outboxes:

  1. every record of both gyms arrives once;
  2. gym B's link cut while its stations keep recording: nothing arrives (not even once a later
     record of gym A's has), nothing is lost; the link restored: every record arrives, once;
  3. a central collector killed with SIGKILL while records flow: nothing lost or doubled;
  4. the PostgreSQL server restarted while records flow: nothing lost;
  5. an athlete named once at the centre (`gymtimer athletes --db postgresql://…`) is known at
     a station of either gym (the card's short name shown on a tap: the station's ask and the
     centre's answer over each bridge), and their workouts at both gyms are one history (`stats --athlete`).

    Tests/chain/chain_test.py [path/to/gymtimer]     (as root; gymtimer-central beside it)

Needs root (namespaces), ip, mosquitto, mosquitto_passwd, openssl, runuser, psql and Debian's
postgresql; without them it exits 77 ("cannot run", a failure under CI). Every wait is for a
condition, bounded for a loaded 2-core machine (Tests/support/gymtest.py's `wait_for`).
"""
import glob
import os
import pwd
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile

SUPPORT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support")
sys.path.insert(0, SUPPORT)
from gymtest import check, counts, pseudonym, stop, wait_for, write_card_key  # noqa: E402

CANNOT_RUN = 77
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/release/gymtimer"))
CENTRAL = os.path.join(os.path.dirname(BIN), "gymtimer-central")
TAG = f"gtc{os.getpid() % 100000}"
HOSTS = {"centre": f"{TAG}-centre", "gym-a": f"{TAG}-a", "gym-b": f"{TAG}-b"}
LINKS = {"gym-a": ("10.77.1.1", "10.77.1.2"), "gym-b": ("10.77.2.1", "10.77.2.2")}
STATIONS = ["rack-1", "rack-2"]


def cannot_run(why):
    print(f"chain-test: cannot run: {why}")
    sys.exit(CANNOT_RUN)


def run(*args, ns=None, **kw):
    command = (["ip", "netns", "exec", HOSTS[ns]] if ns else []) + list(args)
    return subprocess.run(command, check=True, capture_output=True, text=True, **kw)


class Chain:
    """The three hosts and everything running on them; `close` undoes all of it."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="gymtimer-chain-")
        os.chmod(self.dir, 0o755)
        self.processes = {}
        self.stations = {}
        self.namespaces = []
        self.pg_bin = sorted(glob.glob("/usr/lib/postgresql/*/bin"))[-1]
        self.pg_data = os.path.join(self.dir, "pg")

    def path(self, name):
        return os.path.join(self.dir, name)

    def write(self, name, text, mode=0o644):
        with open(self.path(name), "w") as f:
            f.write(text)
        os.chmod(self.path(name), mode)
        return self.path(name)

    # The network: three namespaces, a veth link from the centre to each gym.
    def network(self):
        for host in HOSTS.values():
            subprocess.run(["ip", "netns", "add", host], check=True)
            self.namespaces.append(host)
            subprocess.run(["ip", "-n", host, "link", "set", "lo", "up"], check=True)
        for gym, (centre_ip, gym_ip) in LINKS.items():
            here, there = self.veth(gym)
            subprocess.run(["ip", "link", "add", here, "netns", HOSTS["centre"], "type", "veth",
                            "peer", "name", there, "netns", HOSTS[gym]], check=True)
            subprocess.run(["ip", "-n", HOSTS["centre"], "addr", "add", f"{centre_ip}/24", "dev", here], check=True)
            subprocess.run(["ip", "-n", HOSTS[gym], "addr", "add", f"{gym_ip}/24", "dev", there], check=True)
            subprocess.run(["ip", "-n", HOSTS["centre"], "link", "set", here, "up"], check=True)
            self.link(gym, up=True)

    def veth(self, gym):
        return f"{TAG}{gym[-1]}0", f"{TAG}{gym[-1]}1"

    def link(self, gym, up):
        subprocess.run(["ip", "-n", HOSTS[gym], "link", "set", self.veth(gym)[1], "up" if up else "down"], check=True)

    # TLS: a throw-away CA and the centre's certificate for both of its addresses.
    def certificates(self):
        d = self.dir
        run("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", f"{d}/ca.key", "-out", f"{d}/ca.crt",
            "-days", "2", "-subj", "/CN=gymtimer chain test CA")
        run("openssl", "req", "-newkey", "rsa:2048", "-nodes", "-keyout", f"{d}/centre.key", "-out", f"{d}/centre.csr",
            "-subj", "/CN=centre")
        ips = ",".join(f"IP:{centre}" for centre, _ in LINKS.values())
        self.write("san.ext", f"subjectAltName={ips}\n")
        run("openssl", "x509", "-req", "-in", f"{d}/centre.csr", "-CA", f"{d}/ca.crt", "-CAkey", f"{d}/ca.key",
            "-CAcreateserial", "-out", f"{d}/centre.crt", "-days", "2", "-extfile", f"{d}/san.ext")
        for name in ["ca.crt", "centre.crt", "centre.key"]:
            os.chmod(self.path(name), 0o644)

    def start(self, name, args, ns, stdin=None):
        log = open(self.path(f"{name}.log"), "ab")
        process = subprocess.Popen(["ip", "netns", "exec", HOSTS[ns]] + args, stdout=log, stderr=subprocess.STDOUT,
                                   stdin=stdin if stdin is not None else subprocess.DEVNULL)
        self.processes[name] = process
        return process

    def whole_log(self, name):
        try:
            with open(self.path(f"{name}.log"), errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def log(self, name):
        try:
            with open(self.path(f"{name}.log"), errors="replace") as f:
                return f.read()[-3000:]
        except OSError:
            return "(no log)"

    # The centre's broker: TLS for the gyms' bridges, loopback for its own collectors.
    def centre_broker(self):
        accounts = {gym: f"pw-{gym}-{TAG}" for gym in LINKS}
        accounts["collector"] = f"pw-collector-{TAG}"
        accounts["console"] = f"pw-console-{TAG}"
        self.console_password = accounts["console"]
        for gym in LINKS:
            self.write(f"{gym}.pass", accounts[gym] + "\n", 0o600)
        passwd = self.write("centre.passwd", "".join(f"{user}:{password}\n" for user, password in accounts.items()))
        run("mosquitto_passwd", "-U", passwd)
        os.chmod(passwd, 0o644)
        acl = run(BIN, "chain", "centre", "--gyms", ",".join(LINKS), "--collectors", "collector").stdout
        self.write("centre.acl", acl)
        os.makedirs(self.path("centre-data"), mode=0o1777)
        os.chmod(self.path("centre-data"), 0o1777)
        config = self.write("centre.conf", "\n".join([
            "per_listener_settings false", "allow_anonymous false", f"password_file {passwd}",
            f"acl_file {self.path('centre.acl')}", "persistence true", f"persistence_location {self.path('centre-data')}/",
            "max_queued_messages 100000",
            "listener 8883 0.0.0.0", f"cafile {self.path('ca.crt')}", f"certfile {self.path('centre.crt')}",
            f"keyfile {self.path('centre.key')}", "listener 1883 127.0.0.1", ""]))
        self.collector_password = accounts["collector"]
        self.start("centre-mosquitto", ["mosquitto", "-c", config], "centre")

    # Each gym's broker, with the bridge `gymtimer chain bridge` writes.
    def gym_broker(self, gym):
        centre_ip = LINKS[gym][0]
        snippet = self.path(f"{gym}-bridge.conf")
        run(BIN, "chain", "bridge", "--gym", gym, "--centre", f"mqtts://{centre_ip}:8883", "--password-file",
            self.path(f"{gym}.pass"), "--ca-file", self.path("ca.crt"), "--output", snippet)
        os.chmod(snippet, 0o644)
        data = self.path(f"{gym}-data")
        os.makedirs(data, mode=0o1777)
        os.chmod(data, 0o1777)
        with open(snippet) as f:
            bridge = f.read()
        config = self.write(f"{gym}.conf", "\n".join([
            "listener 1883 127.0.0.1", "allow_anonymous true", "persistence true", f"persistence_location {data}/",
            "max_queued_messages 100000", bridge, ""]))
        self.start(f"{gym}-mosquitto", ["mosquitto", "-c", config], gym)

    # PostgreSQL in the centre, as its own user (it refuses root).
    def postgres(self):
        user = "postgres"
        os.makedirs(self.pg_data)
        shutil.chown(self.pg_data, user, user)
        subprocess.run(["runuser", "-u", user, "--", f"{self.pg_bin}/initdb", "-D", self.pg_data, "-U", "gymtimer",
                        "--auth=trust"], check=True, capture_output=True)
        self.pg("start")

    def pg(self, action):
        user = "postgres"
        args = [f"{self.pg_bin}/pg_ctl", "-D", self.pg_data, "-w", "-t", "60", "-l", f"{self.pg_data}/server.log",
                "-o", f"-p 5432 -c listen_addresses=127.0.0.1 -c unix_socket_directories={self.pg_data}"]
        if action in ("stop", "restart"):
            args += ["-m", "fast"]
        subprocess.run(["ip", "netns", "exec", HOSTS["centre"], "runuser", "-u", user, "--"] + args + [action],
                       check=True, capture_output=True)

    def sql(self, query):
        try:
            out = run("psql", "-h", "127.0.0.1", "-p", "5432", "-U", "gymtimer", "-d", "postgres", "-At", "-c", query,
                      ns="centre", timeout=20).stdout
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired):
            return None
        return [line.split("|") for line in out.splitlines()]

    PG_URL = "postgresql://gymtimer@127.0.0.1:5432/postgres"

    def collector(self, n):
        url = self.PG_URL
        return self.start(f"central-{n}", [
            BIN, "collect", "--db", url, "--chain", "gyms", "--shared", "central", "--client-id", f"central-{n}",
            "--broker", "mqtt://127.0.0.1:1883", "--username", "collector", "--password-file", self.path("collector.pass")], "centre")

    # The chain's one card key (the tests' key), which every station of every gym reads.
    def card_key(self):
        if not os.path.exists(self.path("card.key")):
            write_card_key(self.path("card.key"))
        return self.path("card.key")

    # A headless station in `gym`: a 1 s rest, its script lines through a pipe.
    def station(self, gym, name):
        config = self.write(f"{gym}-{name}.toml", "\n".join([
            "[rest]", "default_seconds = 1", "min_seconds = 1", "step_seconds = 1", "warning_seconds = 0", "",
            "[athletes]", f'card_key = "{self.card_key()}"', "",
            "[fleet]", 'broker = "mqtt://127.0.0.1:1883"', f'station = "{name}"', "home_assistant = false", ""]))
        data = self.path(f"{gym}-{name}-data")
        process = self.start(f"{gym}-{name}", [BIN, "simulate", "--headless", "--config", config, "--data-dir", data], gym,
                             stdin=subprocess.PIPE)
        self.stations[(gym, name)] = {"process": process, "outbox": os.path.join(data, "outbox.sqlite"), "done": 0}

    def workouts(self, gym, name, count=2):
        """`count` workouts one after the other (each a set of two 1 s rests ended with a hold,
        about 5 s: one record), their script lines' times counted from now."""
        station = self.stations[(gym, name)]
        for n in range(count):
            for at, line in [(0, "click start"), (1.4, "click start"), (2.8, "hold dismiss 2.3")]:
                station["process"].stdin.write(f"{n * 6 + at:.1f} {line}\n".encode())
            station["done"] += 1
        station["process"].stdin.flush()

    def waiting(self, gym, name):
        path = self.stations[(gym, name)]["outbox"]
        try:
            db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
            try:
                return db.execute("SELECT count(*) FROM outbox").fetchone()[0]
            finally:
                db.close()
        except sqlite3.Error:
            return None

    def rows(self, gym=None):
        where = f" WHERE gym = '{gym}'" if gym else ""
        got = self.sql(f"SELECT count(*), count(DISTINCT (gym, id)) FROM workouts{where}")
        return (int(got[0][0]), int(got[0][1])) if got else (None, None)

    def done(self, gym=None):
        return sum(s["done"] for (g, _), s in self.stations.items() if gym in (None, g))

    def close(self):
        for station in self.stations.values():
            try:
                station["process"].stdin.close()
            except OSError:
                pass
        stop(list(self.processes.items()))
        if os.path.exists(os.path.join(self.pg_data, "postmaster.pid")):
            subprocess.run(["ip", "netns", "exec", HOSTS["centre"], "runuser", "-u", "postgres", "--",
                            f"{self.pg_bin}/pg_ctl", "-D", self.pg_data, "-m", "immediate", "stop"], capture_output=True)
        for host in self.namespaces:
            # Whatever still runs there (a server's children) goes with its host.
            pids = subprocess.run(["ip", "netns", "pids", host], capture_output=True, text=True).stdout.split()
            for pid in pids:
                try:
                    os.kill(int(pid), signal.SIGKILL)
                except (OSError, ValueError):
                    pass
            subprocess.run(["ip", "netns", "del", host], capture_output=True)
        if counts["failed"]:
            print(f"chain-test: kept {self.dir} for the logs")
        else:
            shutil.rmtree(self.dir, ignore_errors=True)


def requirements():
    if os.geteuid() != 0:
        cannot_run("needs root (network namespaces, PostgreSQL run as its own user)")
    missing = [tool for tool in ["ip", "mosquitto", "mosquitto_passwd", "openssl", "runuser", "psql"] if not shutil.which(tool)]
    if missing:
        cannot_run(f"no {' '.join(missing)} on this machine (scripts/install-deps.sh --tests installs it)")
    if not glob.glob("/usr/lib/postgresql/*/bin/initdb"):
        cannot_run("no PostgreSQL server (scripts/install-deps.sh --tests installs Debian's postgresql)")
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        cannot_run("no postgres user (Debian's postgresql package makes it)")
    for program in [BIN, CENTRAL]:
        if not os.access(program, os.X_OK):
            cannot_run(f"no {program}: build first (swift build builds gymtimer and gymtimer-central)")


def everything_arrived(chain, seconds):
    """Waits until the database holds every record each station finished and every outbox is empty."""
    def arrived():
        count, distinct = chain.rows()
        return count == chain.done() and all(chain.waiting(g, n) == 0 for g, n in chain.stations)
    return wait_for(arrived, seconds, step=0.5)


def each_once(chain, what):
    for gym in LINKS:
        count, distinct = chain.rows(gym)
        check(f"{what}: {gym}'s {chain.done(gym)} records are in PostgreSQL, each once",
              count == chain.done(gym) and distinct == count, f"{count} rows, {distinct} distinct")
    check(f"{what}: every station's outbox is empty (acknowledged end to end)", all(chain.waiting(g, n) == 0 for g, n in chain.stations),
          str({f"{g}/{n}": chain.waiting(g, n) for g, n in chain.stations}))


def scenario(chain):
    chain.network()
    chain.certificates()
    chain.centre_broker()
    chain.write("collector.pass", chain.collector_password + "\n", 0o600)
    chain.postgres()
    for gym in LINKS:
        chain.gym_broker(gym)
    check("both gyms' brokers start their bridges to the centre",
          wait_for(lambda: all(f"Connecting bridge" in chain.log(f"{gym}-mosquitto") for gym in LINKS), 30))
    chain.collector(1)
    chain.collector(2)
    check("the central collectors make their schema in PostgreSQL",
          wait_for(lambda: chain.sql("SELECT 1 FROM workouts LIMIT 1") is not None, 60), chain.log("central-1"))
    for gym in LINKS:
        for name in STATIONS:
            chain.station(gym, name)

    # 1. Every record of both gyms arrives once.
    for gym, name in chain.stations:
        chain.workouts(gym, name)
    check("1: every station's records reach the centre", everything_arrived(chain, 180),
          f"rows {chain.rows()}, finished {chain.done()}\n{chain.log('central-1')}\n{chain.log('gym-a-rack-1')}")
    each_once(chain, "1")
    stations = chain.sql("SELECT DISTINCT gym || '/' || station FROM workouts ORDER BY 1")
    check("1: each row names its gym and station",
          [row[0] for row in stations or []] == sorted(f"{g}/{n}" for g in LINKS for n in STATIONS), str(stations))

    # 2. Gym B cut off while its stations record; then back.
    before, _ = chain.rows("gym-b")
    chain.link("gym-b", up=False)
    for name in STATIONS:
        chain.workouts("gym-b", name)
    check("2: cut off, gym B's four new records wait in its stations' outboxes",
          wait_for(lambda: sum(chain.waiting("gym-b", n) or 0 for n in STATIONS) == 4, 90))
    # Nothing crosses the cut link: a record of gym A's, made after gym B's four, crosses gym A's
    # link (up), both collectors and PostgreSQL, and once it is there (acknowledged back to its
    # station) the centre still has none of gym B's new ones: the window ends on an event.
    chain.workouts("gym-a", "rack-1", count=1)
    check("2: meanwhile a later record of gym A's reaches the centre",
          wait_for(lambda: chain.rows("gym-a")[0] == chain.done("gym-a") and chain.waiting("gym-a", "rack-1") == 0, 90),
          f"rows {chain.rows('gym-a')}, finished {chain.done('gym-a')}")
    check("2: nothing of gym B reaches the centre while its link is down", chain.rows("gym-b")[0] == before)
    chain.link("gym-b", up=True)
    check("2: the link back, gym B's records arrive", everything_arrived(chain, 240),
          f"rows {chain.rows()}, finished {chain.done()}\n{chain.log('gym-b-mosquitto')}")
    each_once(chain, "2")

    # 3. A central collector killed with SIGKILL while records flow.
    def kill_central_1():
        chain.processes["central-1"].send_signal(signal.SIGKILL)
        chain.processes["central-1"].wait()
    fault_while_records_flow(chain, "3", "with central-1 killed", kill_central_1)

    # 4. The PostgreSQL server restarted while records flow.
    fault_while_records_flow(chain, "4", "with PostgreSQL restarted", lambda: chain.pg("restart"))
    check("4: the collector outlived the database's restart", chain.processes["central-2"].poll() is None)

    # 5. Athletes across the chain.
    athletes_across_the_chain(chain)


def athletes_across_the_chain(chain):
    """Anna is named at the centre; at rack-1 of each gym she taps her card (the display shows
    her short name: the station asked the centre for her card over its bridge) and does a
    workout; both records are hers in PostgreSQL and in `stats --athlete`, by her card's pseudonym
    under the chain's one key (the UID typed at the centre with that key, tapped at each station)."""
    card = "04A1B2C3"
    added = run(BIN, "athletes", "--db", Chain.PG_URL, "add", "Anna Berg", "--card", card, "--card-key", chain.card_key(),
                "--short", "AnnA", ns="centre")
    check("5: gymtimer athletes --db postgresql://… names Anna at the centre", "Anna Berg" in added.stdout, added.stdout)
    for gym in LINKS:
        station = chain.stations[(gym, "rack-1")]
        def tapped():
            station["process"].stdin.write(f"0 tap {card}\n".encode())
            station["process"].stdin.flush()
            return wait_for(lambda: '"AnnA"' in chain.whole_log(f"{gym}-rack-1"), 3)
        check(f"5: {gym}'s station shows AnnA for her card (asked and answered over the bridge)", wait_for(tapped, 60, step=0.5),
              chain.log(f"{gym}-rack-1")[-800:])
        chain.workouts(gym, "rack-1", count=1)
    def hers():
        return [row[0] for row in chain.sql(f"SELECT gym FROM workouts WHERE athlete = '{pseudonym(card)}' ORDER BY gym") or []]
    check("5: her workouts at both gyms reach the centre as hers", wait_for(lambda: hers() == sorted(LINKS), 120), str(hers()))
    stats = run(BIN, "stats", "--db", Chain.PG_URL, "--athlete", "Anna Berg", ns="centre").stdout
    check("5: stats --athlete gives her one history over both gyms", "Workouts:        2" in stats, stats)
    the_chains_console_reads_display_names(chain, card)


def the_chains_console_reads_display_names(chain, card):
    """The chain's console's account (ChainCentreACL, read-only) reads the chain's leaderboard as
    the central collectors retain it, by display names only: a Fran of Anna's at gym-a (a row
    written into PostgreSQL, then Bo named, which the collectors notice in the roster's digest
    and publish the boards again) is `Anna B.` there, never her full name, her card or a roster
    id; and that account cannot read gym-a's own scores, which name her in full for its coach
    (read with gym-a's account)."""
    chain.sql("INSERT INTO workouts (gym, id, station, kind, sets, duration_ms, calories, preset, score, completed_at, "
              "local_day, athlete, division) VALUES ('gym-a', 'rack-1/program@1', 'rack-1', 'program', 3, 240000, 40, "
              f"'Fran', '4:00, 3 rounds', now(), current_date, '{pseudonym(card)}', 'rx')")
    run(BIN, "athletes", "--db", Chain.PG_URL, "add", "Bo Lind", "--card", "04B0B0B0", "--card-key", chain.card_key(), ns="centre")

    def read(topic, seconds, user="console"):
        # On the centre's loopback, in its namespace: gymtest's own MQTT reader (no client installed).
        password = chain.console_password if user == "console" else open(chain.path(f"{user}.pass")).read().strip()
        code = (f"import sys; sys.path.insert(0, {SUPPORT!r}); from gymtest import mqtt_retained; "
                f"sys.stdout.write(mqtt_retained(1883, {topic!r}, {user!r}, {password!r}, seconds={seconds}))")
        return run(sys.executable, "-c", code, ns="centre", timeout=seconds + 20).stdout
    board = wait_for(lambda: (lambda got: "Fran" in got and got)(read("gyms/all/gym/scores", 5)), 60, step=1) or ""
    check("6: the chain's console's account reads Anna on the chain's leaderboard as Anna B.", '"Anna B."' in board, board[:600])
    leaked = [what for what in ["Anna Berg", pseudonym(card), card, '"athleteID"', "rack-1/program@1"] if what in board]
    check("6: ... and never her full name, her card, her roster id or the record's id", not leaked, f"{leaked}: {board[:600]}")
    own = read("gyms/gym-a/all/gym/scores", 5, user="gym-a")
    check("6: gym-a's own scores (its account's, bridged to its coach) name her in full", '"Anna Berg"' in own, own[:600])
    check("6: the chain's console's account cannot read them", read("gyms/gym-a/all/gym/scores", 3) == "")


def fault_while_records_flow(chain, phase, what, fault):
    """Every station records; once the first rows arrive, `fault` strikes; every record still
    arrives, each once (central-2 is the collector that stays)."""
    start, _ = chain.rows()
    for gym, name in chain.stations:
        chain.workouts(gym, name)
    check(f"{phase}: records flow", wait_for(lambda: (chain.rows()[0] or 0) > start, 60))
    fault()
    check(f"{phase}: {what}, every record arrives", everything_arrived(chain, 300),
          f"rows {chain.rows()}, finished {chain.done()}\n{chain.log('central-2')}")
    each_once(chain, phase)


def main():
    requirements()
    # A stage stopped (SIGTERM, ^C) still takes its namespaces and processes down with it.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    chain = Chain()
    try:
        scenario(chain)
    except subprocess.CalledProcessError as error:
        check(f"setting up: {' '.join(error.cmd)}", False, (error.stderr or "") + (error.stdout or ""))
    finally:
        chain.close()
    print(f"chain-test: {counts['passed']} checks passed, {counts['failed']} failed")
    sys.exit(1 if counts["failed"] else 0)


if __name__ == "__main__":
    main()
