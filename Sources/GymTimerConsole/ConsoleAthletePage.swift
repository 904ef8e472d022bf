import GymTimerFleet

/// An athlete's page (`/athlete/{id}`): their week, their records (one per program and
/// division: a Scaled best never hides an Rx one), their streak and points,
/// made on the server from the collector's `GymAthleteSummary` with every value escaped (a name is
/// anyone's input: `<script>` in it shows as text), styled by the console's stylesheet, with
/// no script at all.
public enum ConsoleAthletePage {
    public static func html(title: String, summary: GymAthleteSummary) -> String {
        let e = ConsoleHTML.escape
        // Interpolation, one piece a statement: long `+` chains take Swift 6.2's type checker
        // past its time limit (the arm64 cross build).
        let days = summary.week.reversed().map { day -> String in
            var items = ""
            for workout in day.workouts {
                let score = workout.score.map { " — \(e($0))" } ?? ""
                let station = workout.station.map { #" <span class="note">on \#(e($0))</span>"# } ?? ""
                items += "<li>\(e(workout.what))\(score)\(station)</li>"
            }
            if items.isEmpty { items = #"<li class="note">rest day</li>"# }
            return #"<li class="day"><h3>\#(e(day.day))</h3><ul>\#(items)</ul></li>"#
        }.joined(separator: "\n")
        var records = #"<p class="note">No program finished yet.</p>"#
        if !summary.records.isEmpty {
            records = "<table><tr><th>Program</th><th>Best</th><th></th><th>On</th></tr>"
            for record in summary.records {
                let division = record.division == .rx ? "Rx" : "Scaled"
                records += "<tr><td>\(e(record.program))</td><td>\(e(record.score))</td><td>\(division)</td><td>\(e(record.station ?? "-"))</td></tr>"
            }
            records += "</table>"
        }
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(e(summary.name)) · \(e(title))</title>
            <link rel="stylesheet" href="/console.css"></head>
            <body class="athlete">
            <header><h1 id="athlete-name">\(e(summary.name))</h1><span class="note">\(e(summary.shortName)) on the wall</span>
            <a class="tv-link" href="/">Back to the console</a></header>
            <main>
            <section id="streak" aria-label="Streak and points"><h2>Streak and points</h2>
            <p><b id="current-streak">\(summary.currentStreak)</b> \(summary.currentStreak == 1 ? "day" : "days") in a row (longest <span id="longest-streak">\(summary.longestStreak)</span>) ·
            <b id="points">\(summary.points)</b> points from <span id="workouts">\(summary.workouts)</span> workouts</p></section>
            <section id="records" aria-label="Personal records"><h2>Personal records</h2>\(records)</section>
            <section id="week" aria-label="This week"><h2>This week</h2><ul class="days">
            \(days)
            </ul></section>
            </main>
            </body></html>
            """
    }
}
