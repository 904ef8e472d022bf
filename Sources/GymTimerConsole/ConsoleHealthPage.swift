import GymTimerFleet

/// The console's health view (`/health`): one row per station with every figure of its
/// retained health (`StationHealth.figureWords`) and its flags in words; a flagged station's
/// row is marked (`class="flagged"`, highlighted) and says what is wrong. Read-only like `/tv`,
/// so shown without the PIN; every value is escaped (`ConsoleHTML`). Reload to refresh.
public enum ConsoleHealthPage {
    public static func html(title: String, stations: [(name: String, health: StationHealth?)]) -> String {
        let labels = ["version", "up", "clock", "CPU", "disk", "Wi-Fi", "devices", "last fault"]
        let head = (["station"] + labels + ["flags"]).map { "<th>\(ConsoleHTML.escape($0))</th>" }.joined()
        let rows = stations.map { station in row(station.name, station.health, columns: labels.count) }.joined(separator: "\n")
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(ConsoleHTML.escape(title)) — health</title>
            <link rel="stylesheet" href="/console.css">
            <style>
            table.health { border-collapse: collapse; font-size: 0.9em }
            table.health td, table.health th { padding: 0.3em 0.5em; border-bottom: 1px solid #8884; text-align: left }
            tr.flagged { background: #b0000033 } tr.flagged .flags { color: #e33; font-weight: bold }
            .health-wrap { overflow-x: auto }
            </style></head>
            <body><main>
            <h1>\(ConsoleHTML.escape(title)): health</h1>
            <p><a href="/">Floor</a></p>
            <div class="health-wrap"><table class="health" id="health">
            <tr>\(head)</tr>
            \(rows)
            </table></div>
            </main></body></html>
            """
    }

    /// One station's row (`data-station` its name), every value escaped.
    static func row(_ name: String, _ health: StationHealth?, columns: Int) -> String {
        let station = "<td>\(ConsoleHTML.escape(FleetCell.text(name, width: 64)))</td>"
        guard let health else {
            return "<tr data-station=\"\(ConsoleHTML.escape(name))\">\(station)<td colspan=\"\(columns + 1)\">no health published</td></tr>"
        }
        let cells = health.figureWords.map { "<td>\(ConsoleHTML.escape($0.value))</td>" }.joined()
        let flags = health.flagWords.isEmpty ? "ok" : health.flagWords.joined(separator: ", ")
        let marked = health.flags.isEmpty ? "" : " class=\"flagged\""
        return "<tr data-station=\"\(ConsoleHTML.escape(name))\"\(marked)>\(station)\(cells)"
            + "<td class=\"flags\">\(ConsoleHTML.escape(flags))</td></tr>"
    }
}
