/// A program as written down — in a config's `[[programs]]` table or in a class the coach sends
/// over the fleet (`"program": {…}`): its kind, its numbers by key, and the limits both readers
/// check, so a program that arrives over the network is held to exactly what a config is.
extension Program {
    /// The kinds as written in `kind = …`.
    public enum Kind: String, CaseIterable, Sendable {
        case intervals, emom, amrap
        case forTime = "for-time"

        /// The keys of this kind beside name, label, kind and lead_in_seconds.
        public var keys: [String] {
            switch self {
            case .intervals: return ["rounds", "work_seconds", "rest_seconds"]
            case .emom: return ["rounds", "every_seconds"]
            case .amrap: return ["time_seconds"]
            case .forTime: return ["cap_seconds"]
            }
        }

        /// The keys a program of this kind must set.
        public var required: [String] {
            switch self {
            case .intervals: return ["rounds", "work_seconds", "rest_seconds"]
            case .emom: return ["rounds"]
            case .amrap: return ["time_seconds"]
            case .forTime: return []
            }
        }
    }

    /// Every numeric key a kind can have.
    public static let kindKeys = ["rounds", "work_seconds", "rest_seconds", "every_seconds", "time_seconds", "cap_seconds"]

    /// Each numeric key's range and the value it takes when a kind's optional key is left out.
    public static let numberLimits: [String: (range: ClosedRange<Int>, default: Int)] = [
        "lead_in_seconds": (0...60, 10),
        "rounds": (1...99, 8),
        "work_seconds": (1...5999, 20),
        "rest_seconds": (0...5999, 10),
        "every_seconds": (1...5999, 60),
        "time_seconds": (1...5999, 720),
        "cap_seconds": (0...5999, 0),
    ]

    /// The longest name a program (or a workout preset) may have: status lines and the terminal
    /// kiosk show it (`program NAME: round 10 of 99, paused`), and must fit 80 columns.
    public static let maxNameLength = 24

    /// The kind this program is.
    public var kind: Kind {
        switch format {
        case .intervals: return .intervals
        case .emom: return .emom
        case .amrap: return .amrap
        case .forTime: return .forTime
        }
    }

    /// The numbers of this program by key (`rounds`, `work_seconds`…), lead-in included: what
    /// a config or a class's message writes.
    public var numbers: [(key: String, value: Int)] {
        let own: [(key: String, value: Int)]
        switch format {
        case .intervals(let rounds, let work, let rest):
            own = [("rounds", rounds), ("work_seconds", work), ("rest_seconds", rest)]
        case .emom(let rounds, let every): own = [("rounds", rounds), ("every_seconds", every)]
        case .amrap(let time): own = [("time_seconds", time)]
        case .forTime(let cap): own = [("cap_seconds", cap)]
        }
        return own + [("lead_in_seconds", leadInSeconds)]
    }

    /// The format of `kind` with `numbers` (each key's default where it lacks one; the values
    /// are taken as given: the caller checked them against `numberLimits`).
    public static func format(_ kind: Kind, _ numbers: [String: Int]) -> Format {
        func value(_ key: String) -> Int { numbers[key] ?? numberLimits[key]?.default ?? 0 }
        switch kind {
        case .intervals:
            return .intervals(rounds: value("rounds"), workSeconds: value("work_seconds"), restSeconds: value("rest_seconds"))
        case .emom: return .emom(rounds: value("rounds"), everySeconds: value("every_seconds"))
        case .amrap: return .amrap(timeSeconds: value("time_seconds"))
        case .forTime: return .forTime(capSeconds: value("cap_seconds"))
        }
    }

    /// What is wrong with `name` as a program's (or a workout preset's) name, or nil: 1 to
    /// `maxNameLength` characters, none of them one a name may not hold (`NameText`: a status
    /// line, the program list and the leaderboard show it as it is).
    public static func nameProblem(_ name: String) -> String? {
        if name.isEmpty { return "must not be empty" }
        if let problem = NameText.problem(name) { return problem.description }
        if name.count > maxNameLength {
            return "must be at most \(maxNameLength) characters, not \(name.count) (the status line shows it, in 80 columns)"
        }
        return nil
    }

    /// What is wrong with `label` as a program's label, or nil (a control or format character
    /// named as `NameText` names it, before the display's own alphabet).
    public static func labelProblem(_ label: String) -> String? {
        if let problem = NameText.problem(label) { return problem.description }
        return DisplayContent.canDraw(label) ? nil
            : "must be up to 4 characters the 7-segment display can draw (letters such as A b C d E F H L n o P r S t U y, digits, space, -)"
    }

    /// What is wrong with this program against the limits, or nil: a program that did not come
    /// through a reader (a journal, a hand-built value) is checked before it is run.
    public var definitionProblem: String? {
        if let problem = Self.nameProblem(name) { return "name " + problem }
        if let problem = Self.labelProblem(label) { return "label " + problem }
        for (key, value) in numbers where !(Self.numberLimits[key]?.range.contains(value) ?? false) {
            return "\(key) must be within \(Self.numberLimits[key].map { "\($0.range)" } ?? "range")"
        }
        return nil
    }
}
