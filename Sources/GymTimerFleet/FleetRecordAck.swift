/// The collector's answer to a station (fleet.md, on `P/ack`): the ids of its records the
/// gym's database now holds (`stored`, a repeat included) and those it will never store
/// (`refused`, each with why: implausible, the station's own history keeps it). Either way
/// the station stops sending them. `{"stored":["rack-1/rest@…",…],"refused":[{"id":"…","reason":"…"}]}`.
public struct FleetRecordAck: Hashable, Sendable, Encodable {
    public var stored: [String]
    public var refused: [Refusal]

    /// One record the collector will not store, and why.
    public struct Refusal: Hashable, Sendable, Encodable {
        public var id: String
        /// A short name of the kind of problem (`bad-sets`, `bad-time`, …), for logging once per kind.
        public var kind: String
        public var reason: String

        public init(id: String, kind: String, reason: String) {
            self.id = id
            self.kind = kind
            self.reason = reason
        }
    }

    /// The largest acknowledgement a station reads (bigger ones are ignored: the collector
    /// never sends one, see `maximumIDs`).
    public static let maximumSize = 64 * 1024
    /// The most ids one acknowledgement carries (a collector splits a bigger batch).
    public static let maximumIDs = 100
    /// The longest id either side accepts.
    public static let maximumIDLength = 160

    public init(stored: [String] = [], refused: [Refusal] = []) {
        self.stored = stored
        self.refused = refused
    }

    /// Every id named, stored or refused.
    public var ids: [String] { stored + refused.map(\.id) }

    /// The JSON payload, slashes as they are (ids hold one).
    public var payload: String { FleetJSONEncoder(escapingSlashes: false).text(self) }

    /// The acknowledgement in `bytes`, or nil when they are not one (too large, not JSON, a
    /// field of the wrong type); ids that are not short strings are left out.
    public static func parse(_ bytes: [UInt8]) -> FleetRecordAck? {
        guard bytes.count <= maximumSize, case .object(let fields)? = JSONValue.parse(bytes) else { return nil }
        func id(_ value: JSONValue?) -> String? {
            guard let text = value?.string, !text.isEmpty, text.utf8.count <= maximumIDLength else { return nil }
            return text
        }
        var ack = FleetRecordAck()
        switch fields["stored"] {
        case nil: break
        case .array(let values)?: ack.stored = values.prefix(maximumIDs).compactMap { id($0) }
        default: return nil
        }
        switch fields["refused"] {
        case nil: break
        case .array(let values)?:
            ack.refused = values.prefix(maximumIDs).compactMap { value in
                guard case .object(let refusal) = value, let id = id(refusal["id"]) else { return nil }
                let kind = refusal["kind"]?.string.map { String($0.prefix(32)) } ?? "refused"
                return Refusal(id: id, kind: kind, reason: refusal["reason"]?.string.map { String($0.prefix(200)) } ?? "")
            }
        default: return nil
        }
        return ack
    }
}
