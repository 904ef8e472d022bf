import GymTimerCore

/// A class's instants as the coach's console keeps them for one station, retained on the
/// station's `class` topic: `{"id":"…","at":UNIX,"pauses":[[FROM,UNTIL],[FROM,null]]}`, Unix
/// seconds (`at`: when the work begins; a last pause without its end: the class is paused).
/// The class's instants are the truth: a station that was offline or restarted reads them
/// when it (re)subscribes and moves its run to them (`ClassTimeline`); one that obeyed every
/// pause is moved by the milliseconds between the coach's instant and its own receipt. An
/// empty retained message clears it: no class.
public struct FleetClassRecord: Hashable, Sendable, Encodable {
    /// One pause of the class: from `from` until `until` (nil: still paused), `[FROM,UNTIL]`.
    public struct Pause: Hashable, Sendable, Encodable {
        public var from: Double
        public var until: Double?

        public init(from: Double, until: Double?) {
            self.from = from
            self.until = until
        }

        public func encode(to encoder: Encoder) throws {
            var pair = encoder.unkeyedContainer()
            try pair.encode(WireSeconds(from))
            if let until { try pair.encode(WireSeconds(until)) } else { try pair.encodeNil() }
        }
    }

    /// The class's id (the console's), at most `maximumIDLength` characters.
    public var id: String
    /// When its work begins, Unix seconds.
    public var workBegins: Double
    public var pauses: [Pause]

    public static let maximumIDLength = 64

    public init(id: String, workBegins: Double, pauses: [Pause] = []) {
        self.id = id
        self.workBegins = workBegins
        self.pauses = pauses
    }

    /// Whether the last pause is still open.
    public var isPaused: Bool { pauses.last.map { $0.until == nil } ?? false }

    /// The class paused at `at`; false, nothing changed, when it is paused already, `at` is
    /// before its last resume, or it kept `ClassTimeline.maximumPauses` (its stations keep
    /// their own time from there).
    public mutating func pause(at: Double) -> Bool {
        guard !isPaused, pauses.count < ClassTimeline.maximumPauses, at >= (pauses.last?.until ?? -Double.infinity) else { return false }
        pauses.append(Pause(from: at, until: nil))
        return true
    }

    /// The class resumed at `at` (not before its pause began); false when it is not paused.
    public mutating func resume(at: Double) -> Bool {
        guard isPaused, let from = pauses.last?.from else { return false }
        pauses[pauses.count - 1].until = max(at, from)
        return true
    }

    /// The record of a payload; nil for the empty one that clears it. Every way a payload can
    /// be wrong is one `FleetCommandError` naming the field (a hostile record changes nothing).
    public static func parse(_ payload: [UInt8]) -> Result<FleetClassRecord?, FleetCommandError> {
        if payload.isEmpty { return .success(nil) }
        let object: [String: JSONValue]
        switch FleetCommand.object(of: payload) {
        case .failure(let error): return .failure(error)
        case .success(let parsed): object = parsed
        }
        for key in object.keys where !["id", "at", "pauses"].contains(key) {
            return .failure(.unexpected(field: key, command: "class"))
        }
        guard let id = object["id"]?.string, !id.isEmpty, id.count <= maximumIDLength,
              id.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7f }) else {
            return .failure(.wrongType(field: "id", expected: "1 to \(maximumIDLength) printable ASCII characters"))
        }
        guard let at = object["at"]?.number, at.isFinite, at > 0 else {
            return .failure(.wrongType(field: "at", expected: "a Unix time in seconds"))
        }
        guard case .array(let list)? = object["pauses"] ?? .array([]), list.count <= ClassTimeline.maximumPauses else {
            return .failure(.wrongType(field: "pauses", expected: "a list of at most \(ClassTimeline.maximumPauses) [from, until] pairs"))
        }
        var pauses: [Pause] = []
        for item in list {
            guard case .array(let pair) = item, pair.count == 2, let from = pair[0].number, from.isFinite else {
                return .failure(.wrongType(field: "pauses", expected: "[from, until] pairs of Unix times (until null while paused)"))
            }
            let until: Double?
            switch pair[1] {
            case .null: until = nil
            case .number(let value) where value.isFinite: until = value
            default: return .failure(.wrongType(field: "pauses", expected: "[from, until] pairs of Unix times (until null while paused)"))
            }
            pauses.append(Pause(from: from, until: until))
        }
        return .success(FleetClassRecord(id: id, workBegins: at, pauses: pauses))
    }

    private enum CodingKeys: String, CodingKey {
        case id
        case workBegins = "at"
        case pauses
    }

    /// The payload.
    public var json: String { FleetJSONEncoder().text(self) }

    public func encode(to encoder: Encoder) throws {
        var fields = encoder.container(keyedBy: CodingKeys.self)
        try fields.encode(id, forKey: .id)
        try fields.encode(WireSeconds(workBegins), forKey: .workBegins)
        try fields.encode(pauses, forKey: .pauses)
    }

    /// The record on the kiosk's timeline: `moment` maps a Unix time to it. Nil when an instant
    /// is more than a day from now on `wall` (a record that old, or that far ahead, is no class
    /// of today's); the order of the pauses is the core's to check (`ClassTimeline.problem`).
    public func timeline(wall: WallClock, moment: (Double) -> Moment) -> ClassTimeline? {
        let now = wall.now
        let instants = [workBegins] + pauses.flatMap { [$0.from] + ($0.until.map { [$0] } ?? []) }
        guard instants.allSatisfy({ abs($0 - now) <= FleetCommand.startHorizon }) else { return nil }
        return ClassTimeline(
            workBegins: moment(workBegins),
            pauses: pauses.map { ClassTimeline.Pause(from: moment($0.from), until: $0.until.map(moment)) })
    }
}
