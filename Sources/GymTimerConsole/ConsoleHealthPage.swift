import GymTimerFleet

/// The console's health view (`/health`): each station's software (its retained `update`: the
/// version installed, the gym's latest, an upgrade waiting) and one row per station with every
/// figure of its retained health (`StationHealth.figureWords`) and its flags in words; a flagged
/// station's row is marked (`class="flagged"`, highlighted) and says what is wrong. The coach's
/// when the console has a PIN; signed in (`csrf`), it also offers to upgrade a station, or every
/// station with a newer version (`/health.js` posts `/api/upgrade` and shows each station's
/// answer). Every value is escaped (`ConsoleHTML`). Reload to refresh.
public enum ConsoleHealthPage {
    /// A station as the view shows it: its retained health and update (nil: none published).
    public struct Station: Sendable {
        public var name: String
        public var health: StationHealth?
        public var update: StationUpdate?

        public init(name: String, health: StationHealth?, update: StationUpdate? = nil) {
            self.name = name
            self.health = health
            self.update = update
        }
    }

    /// `csrf`: the signed-in coach's anti-forgery token, which the upgrade controls send; nil:
    /// no controls (and no script).
    public static func html(title: String, stations: [Station], csrf: String? = nil) -> String {
        let labels = ["version", "up", "clock", "CPU", "disk", "Wi-Fi", "devices", "last fault"]
        let head = (["station"] + labels + ["flags"]).map { "<th>\(ConsoleHTML.escape($0))</th>" }.joined()
        let rows = stations.map { row($0.name, $0.health, columns: labels.count) }.joined(separator: "\n")
        let coach = csrf.map { !$0.isEmpty } ?? false
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="csrf" content="\(ConsoleHTML.escape(coach ? csrf ?? "" : ""))">
            <title>\(ConsoleHTML.escape(title)) — health</title>
            <link rel="stylesheet" href="/console.css"></head>
            <body class="health-page"><main>
            <h1>\(ConsoleHTML.escape(title)): health</h1>
            <p><a href="/">Floor</a></p>
            \(software(stations, coach: coach))
            <h2>Health</h2>
            <div class="health-wrap"><table class="health" id="health">
            <tr>\(head)</tr>
            \(rows)
            </table></div>
            </main>\(coach ? "\n<script src=\"/health.js\"></script>" : "")</body></html>
            """
    }

    /// The stations' software: a row each (`data-station`), its versions in words and, for the
    /// coach, an Upgrade button; then the button for every station the gym offers a newer
    /// version to (none waiting already), and the line where the stations' answers show.
    /// Every station has a button, not only those whose `update` offers a newer version: that
    /// is up to 5 minutes old (the station's heartbeat), and the station decides and says why not.
    static func software(_ stations: [Station], coach: Bool) -> String {
        let rows = stations.map { station -> String in
            let name = ConsoleHTML.escape(station.name)
            let button = coach ? "<td><button type=\"button\" class=\"upgrade\" data-station=\"\(name)\">Upgrade</button></td>" : ""
            return "<tr data-station=\"\(name)\"><td>\(ConsoleHTML.escape(FleetCell.text(station.name, width: 64)))</td>"
                + "<td class=\"software\">\(ConsoleHTML.escape(versionWords(station.update)))</td>\(button)</tr>"
        }.joined(separator: "\n")
        let newer = stations.filter { ($0.update?.offersNewer ?? false) && $0.update?.inProgress == false }.map(\.name)
        var controls = ""
        if coach {
            if !newer.isEmpty {
                controls += "<p><button type=\"button\" id=\"upgrade-newer\" data-stations=\"\(ConsoleHTML.escape(newer.joined(separator: " ")))\">"
                    + "Upgrade every station with a newer version (\(newer.count))</button></p>\n"
            }
            controls += "<p id=\"upgrade-result\" role=\"status\"></p>\n"
                + "<p class=\"note\">A station upgrades once it is idle, never during a class; it restarts and resumes.</p>"
        }
        return """
            <h2>Software</h2>
            <div class="health-wrap"><table class="health" id="upgrades">
            <tr><th>station</th><th>version</th>\(coach ? "<th></th>" : "")</tr>
            \(rows)
            </table></div>
            \(controls)
            """
    }

    /// A station's versions in words: `0.9.0-1 → 0.9.0-2 available`, `0.9.0-1, up to date`,
    /// `… upgrade waiting` (asked for, not done yet), `0.9.0-1, latest not known` (no upgrade
    /// agent has checked the gym's source), or that it published none.
    public static func versionWords(_ update: StationUpdate?) -> String {
        guard let update else { return "no version published" }
        let installed = FleetCell.text(update.installedVersion, width: 64)
        let both = update.latestVersion.map { "\(installed) → \(FleetCell.text($0, width: 64))" }
        switch (update.offersNewer, update.inProgress) {
        case (true, true): return "\(both ?? installed), upgrade waiting"
        case (false, true): return "\(installed), upgrade waiting"
        case (true, false): return "\(both ?? installed) available"
        case (false, false): return update.latestVersion == nil ? "\(installed), latest not known" : "\(installed), up to date"
        }
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
