/// A command as the coach's tools send it: the command and the id its answers carry (fleet.md,
/// "Commands are answered"). A station reads the id before the command, so that a command it
/// refuses for its fields or verb is still answered under the id the sender waits on.
public struct FleetRequest: Hashable, Sendable, Encodable {
    /// Names the answers: the sender waits for this id from every station it asked.
    public var id: String?
    public var command: FleetCommand

    public init(_ command: FleetCommand, id: String?) {
        self.command = command
        self.id = id
    }

    /// The longest id a station answers under.
    public static let maximumIDLength = 40

    /// Whether `text` can be an id: 1 to `maximumIDLength` letters, digits, `-`, `_`, `.` or `:`
    /// (an id is echoed in answers, logs and pages: nothing in it needs escaping).
    public static func isValidID(_ text: String) -> Bool {
        (1...maximumIDLength).contains(text.utf8.count)
            && text.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a)
                    || byte == 0x2d || byte == 0x5f || byte == 0x2e || byte == 0x3a
            }
    }

    /// A fresh id: 16 random hex digits (one gym's commands never meet one twice).
    public static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        let value = generator.next() as UInt64
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    private enum CodingKeys: String, CodingKey {
        case id
    }

    /// The payload: the command's JSON (`FleetCommand.json`) with `"id"` last.
    public var json: String { FleetJSONEncoder().text(self) }

    public func encode(to encoder: Encoder) throws {
        try command.encode(to: encoder)
        var fields = encoder.container(keyedBy: CodingKeys.self)
        try fields.encodeIfPresent(id, forKey: .id)
    }

    /// What a payload asks: the id, when it holds a valid one (else nil: such a command is
    /// answered without one), and the command or why it is refused. A payload too large or
    /// not a JSON object has no id anyone can read.
    public static func parse(_ payload: [UInt8]) -> (id: String?, command: Result<FleetCommand, FleetCommandError>) {
        switch FleetCommand.object(of: payload) {
        case .failure(let error):
            return (nil, .failure(error))
        case .success(var object):
            guard let raw = object.removeValue(forKey: "id") else { return (nil, FleetCommand.parse(object: object)) }
            guard let id = raw.string, isValidID(id) else {
                return (nil, .failure(.wrongType(field: "id", expected: "1 to \(maximumIDLength) letters, digits, '-', '_', '.' or ':'")))
            }
            return (id, FleetCommand.parse(object: object))
        }
    }
}
