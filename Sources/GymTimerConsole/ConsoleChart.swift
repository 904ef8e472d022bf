import GymTimerFleet

/// The week's workouts per station as a small SVG bar chart (one group of bars per day, one
/// bar per station), made on the server so the page only inserts it; every text escaped.
public enum ConsoleChart {
    /// The colours the stations' bars take in turn.
    static let colours = ["#4fc3f7", "#ffb74d", "#81c784", "#e57373", "#ba68c8", "#fff176", "#90a4ae", "#f06292"]
    static let axis = "#888888", label = "#aaaaaa", legend = "#dddddd"

    public static func svg(_ week: GymScores.Week) -> String {
        let width = 560.0, height = 200.0, top = 16.0, bottom = 36.0, left = 28.0
        let plot = height - top - bottom
        let highest = max(1, week.counts.flatMap { $0 }.max() ?? 0)
        let groupWidth = (width - left) / Double(max(1, week.days.count))
        let barWidth = max(2, (groupWidth - 8) / Double(max(1, week.stations.count)))
        var out = #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 560 200" role="img" aria-label="Workouts per station this week">"#
        out += #"<line x1="\#(f(left))" y1="\#(f(height - bottom))" x2="\#(f(width))" y2="\#(f(height - bottom))" stroke="\#(axis)"/>"#
        out += #"<text x="2" y="\#(f(top + 4))" fill="\#(label)" font-size="11">\#(highest)</text>"#
        for (column, day) in week.days.enumerated() {
            let x0 = left + Double(column) * groupWidth + 4
            for (row, station) in week.stations.enumerated() {
                let count = week.counts[row][column]
                guard count > 0 else { continue }
                let barHeight = plot * Double(count) / Double(highest)
                let x = x0 + Double(row) * barWidth
                out += #"<rect x="\#(f(x))" y="\#(f(height - bottom - barHeight))" width="\#(f(barWidth - 1))" "#
                    + #"height="\#(f(barHeight))" fill="\#(colours[row % colours.count])">"#
                out += "<title>\(ConsoleHTML.escape(station)): \(count) on \(ConsoleHTML.escape(day))</title></rect>"
            }
            out += #"<text x="\#(f(x0))" y="\#(f(height - bottom + 14))" fill="\#(label)" font-size="11">"#
                + "\(ConsoleHTML.escape(String(day.suffix(5))))</text>"
        }
        // The legend: the first four stations (a bar's title names its station too).
        for (row, station) in week.stations.enumerated().prefix(4) {
            let x = left + Double(row) * 132
            let y = height - 6
            out += #"<rect x="\#(f(x))" y="\#(f(y - 9))" width="9" height="9" fill="\#(colours[row % colours.count])"/>"#
            out += #"<text x="\#(f(x + 12))" y="\#(f(y))" fill="\#(legend)" font-size="11">"#
                + "\(ConsoleHTML.escape(String(station.prefix(18))))</text>"
        }
        return out + "</svg>"
    }

    /// A coordinate as a whole number.
    private static func f(_ value: Double) -> String { String(Int(value.rounded())) }
}
