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
  if (names.join("\n") === shown.join("\n")) return;
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
      // The chain's leaderboard (each entry names its gym) is read-only: a gym's pages are its own console's.
      if (e.gym) li.dataset.gym = e.gym;
      const mine = csrf && !e.gym;
      const who = e.athleteID && mine ? el("a", "who", e.athlete) : el("span", "who", e.athlete);
      if (e.athleteID && mine) who.href = "/athlete/" + encodeURIComponent(e.athleteID);
      if (e.gym) li.append(el("span", "gym", e.gym + " · "));
      li.append(who, el("span", "station", " · " + e.station), document.createTextNode(" — " + e.score + " "),
        el("span", "division " + e.division, e.division === "scaled" ? "Scaled" : "Rx"));
      if (mine) {
        const other = e.division === "scaled" ? "rx" : "scaled", flip = el("button", "flip", other === "rx" ? "→ Rx" : "→ Scaled");
        flip.type = "button"; flip.addEventListener("click", () => act("/api/division", { id: e.id, division: other }, "cl-result"));
        // Void: the result leaves every board and best (a wrong athlete, a forged or mistaken score).
        const voiding = el("button", "void", "Void");
        voiding.type = "button";
        voiding.addEventListener("click", () => { if (confirm("Void " + e.athlete + "'s " + e.score + "? No best or leaderboard will count it.")) act("/api/void", { id: e.id }, "cl-result"); });
        li.append(document.createTextNode(" "), flip, document.createTextNode(" "), voiding);
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
// `Anna Berg` → `Anna B.`, as PublicName.initialled makes it for the signed-out page.
function initialled(name) {
  const words = name.trim().split(/\s+/);
  return words.length < 2 ? words[0] || name : words[0] + " " + Array.from(words[words.length - 1])[0] + ".";
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
    // How a signed-out page (the TV, a member's phone) names them: the owner's choice per athlete.
    const shown = el("select", "shown");
    shown.title = "Shown signed out as";
    for (const [value, label] of [["initial", initialled(a.name)], ["short", a.short], ["guest", "guest"]]) {
      const option = el("option", null, "signed out: " + label); option.value = value; shown.append(option);
    }
    shown.value = a.shown || "initial";
    save.type = "button";
    save.addEventListener("click", async () => {
      const body = { id: a.id, name: name.value, short: short.value };
      if (shown.value !== (a.shown || "initial")) body.public = shown.value;
      if (await act("/api/roster-rename", body, "r-result")) loadRoster();
    });
    li.append(link, el("span", "note", a.short), name, short, shown, save);
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
// On a chain's central broker (`--chain`): a gym picker above the floor; the chosen gym's tiles.
function pickGym(gyms) {
  let picker = document.getElementById("gym-picker");
  if (!picker) {
    picker = el("select"); picker.id = "gym-picker"; picker.setAttribute("aria-label", "Gym");
    picker.addEventListener("change", () => { localStorage.setItem("gym", picker.value); tiles = lastGyms[picker.value] || []; renderFloor(); });
    const floor = document.getElementById("floor"); floor.parentNode.insertBefore(picker, floor);
  }
  lastGyms = gyms;
  const names = Object.keys(gyms).sort(), want = picker.value || localStorage.getItem("gym") || names[0] || "";
  if ([...picker.options].map(o => o.value).join() !== names.join()) {
    picker.replaceChildren(...names.map(n => { const o = el("option", null, n); o.value = n; return o; }));
  }
  picker.value = names.includes(want) ? want : (names[0] || "");
  const h = document.querySelector("#scores h2"); if (h) h.textContent = "Today's scores across the chain";
  return gyms[picker.value] || [];
}
let lastGyms = {};
const events = new EventSource("/events");
events.addEventListener("floor", e => {
  const f = JSON.parse(e.data);
  offset = f.now - Date.now() / 1000; tiles = f.gyms ? pickGym(f.gyms) : f.tiles;
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
// A refused stream (too many pages open: ConsoleStreamLimit) is not retried by the browser: say so.
events.onerror = () => {
  const b = document.getElementById("broker"); b.className = "offline";
  b.textContent = events.readyState === EventSource.CLOSED
    ? "live updates refused: too many pages open; close one (or sign in) and reload" : "console unreachable, retrying…";
};
setInterval(tick, 200);
