/// A one-line summary for `systemctl status` (sd_notify STATUS=): the mode and what it is doing.
extension Kiosk {
    public var statusLine: String {
        switch mode {
        case .rest(let rest):
            switch rest.phase {
            case .idle: return "rest mode: idle, \(rest.durationSeconds) s, \(rest.sets) sets"
            case .resting: return "rest mode: resting, \(rest.sets) sets"
            case .alarm: return "rest mode: alarm"
            }
        case .interval(let interval): return interval.isIdle ? "interval mode: idle" : "interval mode: running"
        case .workout(let workout): return workout.isIdle ? "workout mode: idle" : "workout mode: running"
        case .program(let program): return "program \(program.program.name): " + program.statusDetail
        case .menu: return "mode menu"
        }
    }
}
