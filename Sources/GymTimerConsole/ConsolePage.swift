/// The console's page: one HTML document (made per request, every value in it escaped), its
/// stylesheet and its script, all served by the binary: nothing from the internet, so the page
/// works on a gym's LAN with no way out. The script builds every tile with `textContent`,
/// never markup, and counts each countdown down from the station's published deadline.
public enum ConsolePage {
    /// What the page says about the lock.
    public enum Lock: Hashable, Sendable {
        /// No `--pin-file`: the page only shows the floor.
        case noPIN
        case locked(message: String?)
        /// Logged in: the page carries the session's anti-forgery token.
        case unlocked(csrf: String)
    }

    /// Which page: the coach's (the floor, the class controls, the scores) or the TV's (the
    /// floor's clocks and the leaderboard, full screen, large type, no controls).
    public enum View: Hashable, Sendable {
        case coach, tv
    }

    public static func html(title: String, lock: Lock, view: View = .coach) -> String {
        if view == .tv { return tv(title: title) }
        let csrf: String
        var lockPanel: String
        switch lock {
        case .noPIN:
            csrf = ""
            lockPanel = #"<p class="note">Read-only: start the console with <code>--pin-file</code> to run classes from here.</p>"#
        case .locked(let message):
            csrf = ""
            lockPanel = """
                <form id="login" method="post" action="/login" autocomplete="off">
                <label for="pin">Coach's PIN</label>
                <input id="pin" name="pin" type="password" inputmode="numeric" maxlength="64" required>
                <button type="submit">Sign in</button></form>
                """
            if let message {
                lockPanel += #"<p id="login-error" class="error" role="alert">\#(ConsoleHTML.escape(message))</p>"#
            }
        case .unlocked(let token):
            csrf = token
            lockPanel = """
                <form id="logout" method="post" action="/logout"><input type="hidden" name="csrf" value="\(ConsoleHTML.escape(token))">
                <span class="unlocked">Coach signed in</span> <button type="submit">Sign out</button></form>
                """
        }
        let classPanel = csrf.isEmpty ? "" : """
            <section id="class" aria-label="Run a class">
            <h2>Run a class</h2>
            <fieldset id="stations"><legend>Stations</legend><p class="note">No station seen yet.</p></fieldset>
            <div class="row">
            <label>Program <select id="program"><option value="">what each station has selected</option>
            <optgroup id="library-programs" label="The gym's programs"></optgroup>
            <optgroup id="station-programs" label="On the stations (their own configs)"></optgroup>
            </select></label>
            <label>Lead-in (s) <input id="lead" type="number" min="3" max="600" value="10"></label>
            <label><input id="start-ready" type="checkbox"> start on the ready ones if some refuse</label>
            </div>
            <div id="bar" class="buttons">
            <button id="start" class="go" type="button">Start class</button>
            <button id="call-off" type="button">Call off the start</button>
            <button id="pause" type="button">Pause</button>
            <button id="resume" type="button">Resume</button>
            <p id="result" role="status" aria-live="polite"></p>
            </div>
            <div class="row buttons">
            <button id="reset" class="stop" type="button" title="Ends what runs on the ticked stations without recording it">End without recording</button>
            </div>
            <div class="row">
            <label>Repeat every (min) <input id="every" type="number" min="1" max="240" value="15"></label>
            <label>until <input id="until" type="time" value="21:00"></label>
            <button id="repeat" type="button">Start repeating</button>
            <button id="stop-repeating" type="button">Stop repeating</button>
            </div>
            <div class="row">
            <label>Message <input id="message" maxlength="64" placeholder="HYdrAtE"></label>
            <label>for (s) <input id="seconds" type="number" min="1" max="60" value="10"></label>
            <button id="say" type="button">Show on displays</button>
            </div>
            <div class="row buttons">
            <button id="lock" type="button">Lock wall buttons</button>
            <button id="unlock" type="button">Unlock wall buttons</button>
            <label>Brightness (%) <input id="percent" type="number" min="0" max="100" value="80"></label>
            <button id="brightness" type="button">Set</button>
            </div>
            <div class="row buttons">
            <label>Sleep from <input id="sleep-from" type="time" value="22:00"></label>
            <label>until <input id="sleep-until" type="time" value="06:00"></label>
            <button id="sleep" type="button">Set sleep window</button>
            <button id="sleep-off" type="button">No sleep</button>
            </div>
            <details id="builder"><summary>Build a program</summary>
            <p class="note">Saved in the gym's programs: a class carries it to the stations, no station's config needs it.</p>
            <div class="row">
            <label>Name <input id="b-name" maxlength="24" placeholder="Row 5 x 500"></label>
            <label>Label (4 on the display) <input id="b-label" maxlength="4" placeholder="ro 5"></label>
            <label>Kind <select id="b-kind"><option value="amrap">AMRAP</option><option value="emom">EMOM</option>
            <option value="intervals">Intervals / Tabata</option><option value="for-time">For Time</option></select></label>
            </div>
            <div class="row">
            <label data-kinds="intervals emom">Rounds <input id="b-rounds" type="number" min="1" max="99" value="8"></label>
            <label data-kinds="intervals">Work (s) <input id="b-work_seconds" type="number" min="1" max="5999" value="20"></label>
            <label data-kinds="intervals">Rest (s) <input id="b-rest_seconds" type="number" min="0" max="5999" value="10"></label>
            <label data-kinds="emom">Every (s) <input id="b-every_seconds" type="number" min="1" max="5999" value="60"></label>
            <label data-kinds="amrap">Time (s) <input id="b-time_seconds" type="number" min="1" max="5999" value="720"></label>
            <label data-kinds="for-time">Cap (s, 0: none) <input id="b-cap_seconds" type="number" min="0" max="5999" value="900"></label>
            <label>Lead-in (s) <input id="b-lead_in_seconds" type="number" min="0" max="60" value="10"></label>
            </div>
            <div class="row buttons"><button id="b-save" type="button">Save program</button>
            <button id="b-delete" type="button">Delete it</button></div>
            <p id="b-result" role="status"></p>
            <ul id="library"></ul>
            </details>
            </section>
            <section id="athletes" aria-label="Athletes">
            <h2>Athletes</h2>
            <h3>Class list</h3>
            <p class="note">Who trains on which station: their results are theirs until someone else is put there or taps in.</p>
            <div id="class-lines"></div>
            <div class="row buttons"><button id="put" type="button">Put on the stations</button></div>
            <p id="cl-result" role="status"></p>
            <h3>New cards</h3>
            <ul id="new-cards"><li class="note">No new card seen.</li></ul>
            <p id="nc-result" role="status"></p>
            <details id="roster"><summary>The roster</summary><ul id="roster-list"></ul><p id="r-result" role="status"></p></details>
            </section>
            """
        return document(
            title: title, csrf: csrf, bodyClass: csrf.isEmpty ? "viewer" : "coach",
            header: #"<a class="tv-link" href="/tv">TV view</a>"# + lockPanel, classPanel: classPanel,
            chart: #"<h2>This week</h2><div id="chart"></div>"#)
    }

    /// The TV's page: the same floor and scores, fed by the same events, without any control.
    static func tv(title: String) -> String {
        document(title: title, csrf: "", bodyClass: "tv", header: "", classPanel: "", chart: #"<div id="chart" hidden></div>"#)
    }

    /// The document both pages are: the header (`header` after the broker's state), the floor,
    /// `classPanel`, the scores and `chart`; every value in it escaped by the caller or here.
    private static func document(title: String, csrf: String, bodyClass: String, header: String, classPanel: String, chart: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="csrf" content="\(ConsoleHTML.escape(csrf))">
        <title>\(ConsoleHTML.escape(title))</title>
        <link rel="stylesheet" href="/console.css"></head>
        <body class="\(bodyClass)">
        <header><h1>\(ConsoleHTML.escape(title))</h1><span id="broker" class="offline">connecting…</span>
        \(header)</header>
        <main>
        <section id="floor" aria-label="Stations"></section>
        \(classPanel)
        <section id="scores" aria-label="Today's scores"><h2>Today's scores</h2><div id="boards"><p class="note">No scores yet.</p></div>
        \(chart)</section>
        </main>
        <script src="/console.js"></script>
        </body></html>
        """
    }

    public static let css = """
        :root { color-scheme: dark; --bg: #111; --tile: #1d1f23; --fg: #eee; --dim: #999; --go: #2e7d32; --stop: #b71c1c; }
        * { box-sizing: border-box; }
        body { margin: 0; background: var(--bg); color: var(--fg); font: 16px/1.4 system-ui, sans-serif; }
        header { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; padding: .6rem 1rem; background: #000; }
        h1 { font-size: 1.3rem; margin: 0; flex: 1 1 auto; }
        h2 { font-size: 1.1rem; margin: 1rem 0 .5rem; }
        main { padding: 0 1rem 2rem; }
        form { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin: 0; }
        input, select { max-width: 100%; min-width: 0; }
        #pin { width: 8rem; }
        .tv-link { color: var(--dim); }
        input, button { font: inherit; padding: .45rem .7rem; border-radius: .4rem; border: 1px solid #555; background: #222; color: var(--fg); }
        button { cursor: pointer; min-height: 2.6rem; }
        button.go { background: var(--go); border-color: var(--go); }
        button.stop { background: var(--stop); border-color: var(--stop); }
        .error { color: #ff8a80; font-weight: bold; margin: 0; }
        .note { color: var(--dim); }
        .unlocked { color: #a5d6a7; }
        #broker.online { color: #a5d6a7; } #broker.offline { color: #ff8a80; }
        #floor { display: grid; grid-template-columns: repeat(auto-fill, minmax(19rem, 1fr)); gap: 1rem; margin-top: 1rem; }
        .tile { background: var(--tile); border-radius: .8rem; padding: .8rem 1rem; border-left: .5rem solid #2e7d32; }
        .tile.offline { opacity: .55; border-left-color: #777; }
        .tile.idle { border-left-color: #455a64; }
        .tile.paused { border-left-color: #ffb300; } .tile.paused .left { color: #ffb300; }
        .tile.finished { border-left-color: #42a5f5; } .tile.finished .left { color: #90caf9; }
        .tile.locked-buttons { outline: 2px dashed #ce93d8; outline-offset: -2px; }
        .tile .phase { display: inline-block; padding: .05rem .5rem; border-radius: .3rem; }
        .tile.paused .phase { background: #ffb300; color: #000; font-weight: bold; }
        .tile.finished .phase { background: #42a5f5; color: #000; font-weight: bold; }
        .tile.offline .phase { background: #777; color: #000; }
        .tile .locked { color: #ce93d8; font-size: .9rem; }
        .tile .name { font-size: 1.3rem; font-weight: bold; display: flex; justify-content: space-between; gap: .5rem; }
        .tile .status { font-size: .9rem; font-weight: normal; color: var(--dim); }
        .tile .left { font: bold clamp(3rem, 7vw, 5.5rem)/1.1 ui-monospace, "DejaVu Sans Mono", monospace; font-variant-numeric: tabular-nums; white-space: nowrap; overflow: hidden; }
        .tile .what, .tile .counts { color: var(--dim); }
        .tile .refusal { color: #ff8a80; font-size: .9rem; }
        .tile .sleep { color: var(--dim); font-size: .9rem; }
        .tile .asleep { color: #90caf9; }
        .tile .phase { color: #ffd54f; text-transform: uppercase; font-size: .95rem; }
        fieldset { border: 1px solid #444; border-radius: .5rem; display: flex; flex-wrap: wrap; gap: .4rem 1rem; }
        #bar { display: flex; flex-wrap: wrap; gap: .6rem; align-items: center; margin: .6rem 0; }
        #result { flex: 1 1 100%; margin: 0; min-height: 1.4em; }
        #result.error { color: #ff8a80; }
        button.armed { background: #ff6f00; border-color: #ff6f00; }
        @media (max-width: 700px) {
          body.coach { padding-bottom: 12rem; }
          main { padding: 0 .6rem 1rem; }
          #bar { position: fixed; left: 0; right: 0; bottom: 0; z-index: 10; margin: 0; background: #000;
                 padding: .5rem .6rem calc(.5rem + env(safe-area-inset-bottom)); border-top: 1px solid #333; }
          #bar button { flex: 1 1 40%; }
          #result { max-height: 5.5rem; overflow: auto; font-size: .95rem; }
          #floor { grid-template-columns: 1fr; }
        }
        body.tv { font-size: 24px; }
        body.tv header { padding: .4rem 1rem; }
        body.tv #floor { grid-template-columns: repeat(auto-fill, minmax(22rem, 1fr)); }
        body.tv .tile .left { font-size: clamp(4rem, 9vw, 9rem); }
        body.tv .tile .name { font-size: 1.6rem; }
        body.tv .board ol { font-size: 1.5rem; }
        body.tv .tile .refusal { display: none; }
        .row { display: flex; flex-wrap: wrap; gap: .6rem 1rem; margin: .6rem 0; align-items: center; }
        #class, #scores { background: #181a1d; border-radius: .8rem; padding: .2rem 1rem .8rem; margin-top: 1rem; }
        #boards { display: grid; grid-template-columns: repeat(auto-fill, minmax(16rem, 1fr)); gap: 1rem; }
        .board ol { margin: 0; padding-left: 1.6rem; font-size: 1.15rem; }
        .board .kind { color: var(--dim); font-size: .9rem; }
        #builder { margin: .8rem 0; } #builder summary { cursor: pointer; font-weight: bold; }
        select { font: inherit; padding: .45rem .7rem; border-radius: .4rem; border: 1px solid #555; background: #222; color: var(--fg); }
        #chart svg { width: 100%; max-width: 48rem; height: auto; }
        #athletes { background: #181a1d; border-radius: .8rem; padding: .2rem 1rem .8rem; margin-top: 1rem; }
        #athletes h3 { font-size: 1rem; margin: .8rem 0 .3rem; }
        #athletes ul { list-style: none; padding: 0; margin: 0; }
        #athletes li { display: flex; flex-wrap: wrap; gap: .4rem; align-items: center; margin: .3rem 0; }
        #athletes li input { width: 9rem; } #athletes li input.short { width: 4.5rem; }
        .tile .athlete { color: #a5d6a7; }
        .board .division { font-size: .8rem; padding: 0 .3rem; border-radius: .3rem; background: #2e7d32; }
        .board .division.scaled { background: #6d4c41; }
        .board .station { color: var(--dim); }
        .board a, body.athlete a { color: var(--fg); }
        .board button { min-height: 1.8rem; padding: .1rem .4rem; font-size: .8rem; }
        body.athlete table { border-collapse: collapse; } body.athlete td, body.athlete th { padding: .2rem .8rem .2rem 0; text-align: left; }
        body.athlete .days { list-style: none; padding: 0; } body.athlete .days h3 { font-size: 1rem; margin: .6rem 0 .2rem; }
        @media (min-width: 1600px) { body { font-size: 20px; } }
        """

    public static let script = """
        "use strict";
        const csrf = document.querySelector('meta[name="csrf"]').content;
        let offset = 0, tiles = [], chosen = new Set(), seen = new Set();
        function el(tag, cls, text) { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; }
        function clock(seconds) {
          const whole = Math.max(0, Math.ceil(seconds - 1e-6));
          const h = Math.floor(whole / 3600), m = Math.floor(whole / 60) % 60, s = whole % 60;
          const ss = String(s).padStart(2, "0");
          return h > 0 ? h + ":" + String(m).padStart(2, "0") + ":" + ss : m + ":" + ss;
        }
        function left(t) {
          if (!t.online) return "--:--";
          if (t.deadline !== undefined && t.deadline !== null) return clock(t.deadline - (Date.now() / 1000 + offset));
          // A class scheduled and nothing counting yet: the countdown to the class's start.
          if (t.startsAt && t.startsAt > Date.now() / 1000 + offset) return clock(t.startsAt - (Date.now() / 1000 + offset));
          if (t.remaining !== undefined && t.remaining !== null) return clock(t.remaining);
          // What the 4-digit display showed: its digits as a time (0130 → 01:30), a label as is.
          const shown = t.display || "--:--";
          return /^[0-9]{4}$/.test(shown) ? shown.slice(0, 2) + ":" + shown.slice(2) : shown;
        }
        // Told apart across the room: a colour and a word for offline, paused and finished.
        function state(t) {
          if (!t.online) return "offline";
          const phase = (t.phase || "").toLowerCase();
          if (phase.includes("paus")) return "paused";
          if (phase.includes("finish") || phase === "complete") return "finished";
          return phase === "idle" ? "idle" : "running";
        }
        // A finished program shows its score (what the wall shows), not 00:00.
        function shown(t) { return state(t) === "finished" && t.result ? t.result : left(t); }
        // Said once: a program's phase already says its rounds; a rest counts sets; others their round.
        function counts(t) {
          if (state(t) === "finished" || t.mode === "program") return "";
          if (t.mode === "rest") return (t.sets || 0) + (t.sets === 1 ? " set" : " sets");
          return t.round ? "round " + t.round : "";
        }
        function renderFloor() {
          const floor = document.getElementById("floor");
          floor.replaceChildren();
          if (tiles.length === 0) floor.append(el("p", "note", "No station has been seen on the broker yet."));
          for (const t of tiles) {
            const tile = el("article", "tile " + state(t) + (t.locked ? " locked-buttons" : ""));
            tile.dataset.station = t.name;
            const name = el("div", "name", t.name);
            name.append(el("span", "status", t.online ? "online" : "offline"));
            tile.append(name);
            const waiting = t.online && t.startsAt && !t.deadline && t.startsAt > Date.now() / 1000 + offset;
            tile.append(el("div", "phase", !t.online ? "offline" : waiting ? "class starts in" : t.phase));
            tile.append(el("div", "left", shown(t)));
            tile.append(el("div", "what", t.mode + (t.program ? " · " + t.program : "")));
            tile.append(el("div", "counts", counts(t)));
            if (t.athlete) tile.append(el("div", "athlete", athleteName(t.athlete)));
            if (t.locked) tile.append(el("div", "locked", "wall buttons locked (rounds still count)"));
            if (t.sleep) tile.append(el("div", "sleep" + (t.asleep ? " asleep" : ""), (t.asleep ? "asleep · " : "sleeps ") + t.sleep));
            if (t.refusal) tile.append(el("div", "refusal", "Refused: " + t.refusal));
            floor.append(tile);
          }
          renderChoices();
          renderStationPrograms();
          renderClassLines(false);
        }
        // The programs the stations' own configs have (each tile's `programs`), by name; each
        // option says which stations have it. Redrawn only when they change, so a choice stays.
        function renderStationPrograms() {
          const group = document.getElementById("station-programs");
          if (!group) return;
          const having = new Map();
          for (const t of tiles) for (const p of (t.programs || [])) { if (!having.has(p)) having.set(p, []); having.get(p).push(t.name); }
          const key = Array.from(having, ([p, s]) => p + "=" + s.join(",")).join("|");
          if (group.dataset.key === key) return;
          group.dataset.key = key;
          group.replaceChildren(...Array.from(having, ([p, s]) => {
            const o = el("option", null, p + (s.length < tiles.length ? " (" + s.join(", ") + ")" : "")); o.value = p; return o; }));
        }
        function renderChoices() {
          const box = document.getElementById("stations");
          if (!box) return;
          const names = tiles.map(t => t.name);
          const shown = Array.from(box.querySelectorAll("input")).map(i => i.value);
          if (names.join("\\n") === shown.join("\\n")) return;
          // A station is ticked by default once it is live (it answered the console's ping or
          // changed since): a name left in a retained message is shown, never chosen for a class.
          tiles.forEach(t => { if (t.live && !seen.has(t.name)) { seen.add(t.name); chosen.add(t.name); } });
          box.replaceChildren(el("legend", null, "Stations"));
          for (const n of names) {
            const label = el("label"); const box2 = el("input"); box2.type = "checkbox"; box2.value = n; box2.checked = chosen.has(n);
            box2.addEventListener("change", () => { if (box2.checked) chosen.add(n); else chosen.delete(n); });
            label.append(box2, document.createTextNode(" " + n)); box.append(label);
          }
        }
        function tick() { document.querySelectorAll("#floor .tile").forEach((tile, i) => { const t = tiles[i]; if (t) tile.querySelector(".left").textContent = shown(t); }); }
        function renderScores(s) {
          const boards = document.getElementById("boards");
          boards.replaceChildren();
          if (s.problem) { boards.append(el("p", "note", "Scores unavailable: " + s.problem)); return; }
          if (!s.boards || s.boards.length === 0) boards.append(el("p", "note", "No AMRAP or For Time result yet today."));
          for (const b of (s.boards || [])) {
            const board = el("div", "board"); board.dataset.program = b.program;
            const h = el("h3", null, b.program + " "); h.append(el("span", "kind", b.kind)); board.append(h);
            const list = el("ol");
            // Ties share a rank (1, 2, 2, 4): the list's number is the entry's rank.
            for (const e of b.entries) {
              const li = el("li"); li.value = e.rank || 1;
              Object.assign(li.dataset, { station: e.station, rank: e.rank, athlete: e.athlete, division: e.division, score: e.score, id: e.id });
              const who = e.athleteID && csrf ? el("a", "who", e.athlete) : el("span", "who", e.athlete);
              if (e.athleteID && csrf) who.href = "/athlete/" + encodeURIComponent(e.athleteID);
              li.append(who, el("span", "station", " · " + e.station), document.createTextNode(" — " + e.score + " "),
                el("span", "division " + e.division, e.division === "scaled" ? "Scaled" : "Rx"));
              if (csrf) {
                const other = e.division === "scaled" ? "rx" : "scaled", flip = el("button", "flip", other === "rx" ? "→ Rx" : "→ Scaled");
                flip.type = "button"; flip.addEventListener("click", () => act("/api/division", { id: e.id, division: other }, "cl-result"));
                li.append(document.createTextNode(" "), flip);
              }
              list.append(li);
            }
            board.append(list); boards.append(board);
          }
          document.getElementById("chart").innerHTML = s.chart || "";
        }
        let library = [];
        function renderLibrary(l) {
          library = l.library || [];
          const group = document.getElementById("library-programs");
          if (!group) return;
          group.replaceChildren(...library.map(p => el("option", null, p.name)));
          const list = document.getElementById("library");
          list.replaceChildren(...library.map(p => el("li", null, p.name + " (" + p.label + ") — " + describe(p))));
          if (l.note) list.append(el("li", "note", l.note));
        }
        function describe(p) {
          if (p.kind === "amrap") return "AMRAP " + clock(p.time_seconds);
          if (p.kind === "emom") return p.rounds + " × every " + p.every_seconds + " s";
          if (p.kind === "intervals") return p.rounds + " × " + p.work_seconds + " s on, " + p.rest_seconds + " s off";
          return "For Time" + (p.cap_seconds ? ", cap " + clock(p.cap_seconds) : "");
        }
        function showKind() {
          const kind = document.getElementById("b-kind").value;
          document.querySelectorAll("#builder [data-kinds]").forEach(l => { l.hidden = !l.dataset.kinds.split(" ").includes(kind); });
        }
        function built() {
          const kind = document.getElementById("b-kind").value;
          const p = { name: document.getElementById("b-name").value.trim(), label: document.getElementById("b-label").value, kind: kind,
            lead_in_seconds: Number(document.getElementById("b-lead_in_seconds").value) };
          document.querySelectorAll("#builder [data-kinds]").forEach(l => {
            if (!l.hidden) { const input = l.querySelector("input"); p[input.id.slice(2)] = Number(input.value); }
          });
          return p;
        }
        async function act(path, body, where) {
          const result = document.getElementById(where || "result");
          result.className = ""; result.textContent = "Sending…";
          try {
            const response = await fetch(path, { method: "POST", credentials: "same-origin",
              headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf }, body: JSON.stringify(body) });
            const answer = await response.json().catch(() => ({ message: "HTTP " + response.status }));
            result.className = response.ok ? "" : "error"; result.textContent = answer.message;
            return response.ok;
          } catch (e) { result.className = "error"; result.textContent = "The console did not answer: " + e; return false; }
        }
        // The roster (the coach's only): names for the tiles and the class list, the cards to name.
        let roster = { athletes: [], newCards: [] };
        function athleteName(card) {
          const a = roster.athletes.find(a => a.cards.includes(card));
          return a ? a.name : "card " + card.slice(-4);
        }
        async function loadRoster() {
          if (!csrf) return;
          try {
            const response = await fetch("/api/roster", { credentials: "same-origin" });
            if (!response.ok) return;
            roster = await response.json();
          } catch (e) { return; }
          renderRoster(); renderFloor();
        }
        function field(cls, placeholder, max) { const i = el("input", cls); i.placeholder = placeholder; i.maxLength = max; return i; }
        function renderRoster() {
          const cards = document.getElementById("new-cards");
          cards.replaceChildren();
          if (roster.newCards.length === 0) cards.append(el("li", "note", "No new card seen."));
          for (const c of roster.newCards) {
            const li = el("li"); li.dataset.card = c.card;
            const name = field("name", "Full name", 64), short = field("short", "AnnA", 4), save = el("button", null, "Name");
            save.type = "button";
            save.addEventListener("click", async () => {
              if (await act("/api/roster-name", { card: c.card, name: name.value, short: short.value }, "nc-result")) loadRoster();
            });
            li.append(el("span", "card", "card " + c.card + (c.station ? " (" + c.station + ")" : "")), name, short, save);
            cards.append(li);
          }
          const list = document.getElementById("roster-list");
          list.replaceChildren(...roster.athletes.map(a => {
            const li = el("li"); li.dataset.id = a.id;
            const link = el("a", "who", a.name); link.href = "/athlete/" + encodeURIComponent(a.id);
            const name = field("name", "New name", 64), short = field("short", a.short, 4), save = el("button", null, "Rename");
            save.type = "button";
            save.addEventListener("click", async () => {
              if (await act("/api/roster-rename", { id: a.id, name: name.value, short: short.value }, "r-result")) loadRoster();
            });
            li.append(link, el("span", "note", a.short), name, short, save);
            return li;
          }));
          renderClassLines(true);
        }
        // One line a station: who is on it now, and whom to put there (a choice stays while the floor redraws).
        function renderClassLines(force) {
          const box = document.getElementById("class-lines");
          if (!box) return;
          const key = tiles.map(t => t.name).join(",");
          if (!force && box.dataset.key === key) return;
          box.dataset.key = key;
          const kept = {}, keptDivision = {};
          box.querySelectorAll("select.who").forEach(s => { kept[s.dataset.station] = s.value; });
          box.querySelectorAll("select.division").forEach(s => { keptDivision[s.dataset.station] = s.value; });
          box.replaceChildren(...tiles.map(t => {
            const label = el("label", "row", t.name + " ");
            const pick = el("select", "who"); pick.dataset.station = t.name;
            const keep = el("option", null, "(leave as is)"); keep.value = "";
            const nobody = el("option", null, "nobody"); nobody.value = "none";
            pick.append(keep, nobody, ...roster.athletes.map(a => { const o = el("option", null, a.name); o.value = String(a.id); return o; }));
            pick.value = kept[t.name] || "";
            const division = el("select", "division"); division.dataset.station = t.name;
            for (const [value, text] of [["", "division as before"], ["rx", "Rx"], ["scaled", "Scaled"]]) {
              const o = el("option", null, text); o.value = value; division.append(o);
            }
            division.value = keptDivision[t.name] || "";
            label.append(pick, document.createTextNode(" "), division); return label;
          }));
        }
        function picked() { return tiles.map(t => t.name).filter(n => chosen.has(n)); }
        if (csrf) {
          document.getElementById("start").addEventListener("click", () => {
            const program = document.getElementById("program").value;
            act("/api/class", { stations: picked(), program: program || null, lead: Number(document.getElementById("lead").value),
              startReady: document.getElementById("start-ready").checked });
          });
          for (const verb of ["call-off", "pause", "resume", "lock", "unlock"]) {
            document.getElementById(verb).addEventListener("click", () => act("/api/" + verb, { stations: picked() }));
          }
          // Ending without recording loses the class's work: a second tap within 5 s confirms it.
          const reset = document.getElementById("reset"), resetText = reset.textContent;
          let armed = null;
          reset.addEventListener("click", () => {
            if (armed === null) {
              reset.textContent = "Tap again: end without recording"; reset.classList.add("armed");
              armed = setTimeout(() => { armed = null; reset.textContent = resetText; reset.classList.remove("armed"); }, 5000);
              return;
            }
            clearTimeout(armed); armed = null; reset.textContent = resetText; reset.classList.remove("armed");
            act("/api/reset", { stations: picked() });
          });
          document.getElementById("repeat").addEventListener("click", () => {
            const [h, m] = document.getElementById("until").value.split(":").map(Number);
            const until = new Date(); until.setHours(h, m, 0, 0);
            // An end already past today is sent as it is, and refused: never silently tomorrow.
            const program = document.getElementById("program").value;
            act("/api/repeat", { stations: picked(), program: program || null, lead: Number(document.getElementById("lead").value),
              every: Number(document.getElementById("every").value), until: until.getTime() / 1000 });
          });
          document.getElementById("stop-repeating").addEventListener("click", () => act("/api/stop-repeating", { stations: picked() }));
          document.getElementById("say").addEventListener("click", () => act("/api/message",
            { stations: picked(), text: document.getElementById("message").value, seconds: Number(document.getElementById("seconds").value) }));
          document.getElementById("brightness").addEventListener("click", () => act("/api/brightness",
            { stations: picked(), percent: Number(document.getElementById("percent").value) }));
          document.getElementById("sleep").addEventListener("click", () => act("/api/sleep", { stations: picked(),
            sleepFrom: document.getElementById("sleep-from").value, sleepUntil: document.getElementById("sleep-until").value }));
          document.getElementById("sleep-off").addEventListener("click", () => act("/api/sleep", { stations: picked(), sleepOff: true }));
          document.getElementById("put").addEventListener("click", () => {
            const stations = {}, divisions = {};
            document.querySelectorAll("#class-lines select.who").forEach(s => {
              if (s.value === "none") stations[s.dataset.station] = null; else if (s.value) stations[s.dataset.station] = Number(s.value);
            });
            // A division goes with an athlete put on a station, never alone.
            document.querySelectorAll("#class-lines select.division").forEach(s => {
              if (s.value && typeof stations[s.dataset.station] === "number") divisions[s.dataset.station] = s.value;
            });
            act("/api/class-list", { stations: stations, divisions: divisions }, "cl-result");
          });
          loadRoster();
          document.getElementById("b-kind").addEventListener("change", showKind);
          showKind();
          document.getElementById("b-save").addEventListener("click", () => act("/api/program", built(), "b-result"));
          document.getElementById("b-delete").addEventListener("click", () =>
            act("/api/program-delete", { name: document.getElementById("b-name").value.trim() }, "b-result"));
        }
        const events = new EventSource("/events");
        events.addEventListener("floor", e => {
          const f = JSON.parse(e.data);
          offset = f.now - Date.now() / 1000; tiles = f.tiles;
          const broker = document.getElementById("broker");
          broker.textContent = f.connected ? "broker connected" : "broker: " + (f.problem || "disconnected");
          broker.className = f.connected ? "online" : "offline";
          renderFloor();
          // A card on a station that the roster does not know yet: read the roster again, to offer it.
          const known = c => roster.athletes.some(a => a.cards.includes(c)) || roster.newCards.some(n => n.card === c);
          if (csrf && tiles.some(t => t.athlete && !known(t.athlete))) loadRoster();
        });
        // New scores may bring new cards (and a name given elsewhere): the roster is read again.
        events.addEventListener("scores", e => { renderScores(JSON.parse(e.data)); loadRoster(); });
        events.addEventListener("programs", e => renderLibrary(JSON.parse(e.data)));
        events.onerror = () => { const b = document.getElementById("broker"); b.textContent = "console unreachable, retrying…"; b.className = "offline"; };
        setInterval(tick, 200);
        """
}
