"use strict";
// The health view's upgrade controls (/health, shown to the signed-in coach only): a station's
// Upgrade button, or the one for every station with a newer version, posts /api/upgrade with the
// page's anti-forgery token; the line under them says what each station answered (in red unless
// every one did it).
const csrf = document.querySelector('meta[name="csrf"]').content;
async function upgrade(stations) {
  const result = document.getElementById("upgrade-result");
  result.className = ""; result.textContent = "Sending…";
  try {
    const response = await fetch("/api/upgrade", { method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf }, body: JSON.stringify({ stations: stations }) });
    const answer = await response.json().catch(() => ({ message: "HTTP " + response.status }));
    result.className = response.ok ? "" : "error"; result.textContent = answer.message;
  } catch (e) { result.className = "error"; result.textContent = "The console did not answer: " + e; }
}
document.querySelectorAll("#upgrades button.upgrade").forEach(b => b.addEventListener("click", () => upgrade([b.dataset.station])));
const newer = document.getElementById("upgrade-newer");
if (newer) newer.addEventListener("click", () => upgrade(newer.dataset.stations.split(" ")));
