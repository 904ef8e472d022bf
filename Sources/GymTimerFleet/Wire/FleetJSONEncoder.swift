/// The one encoder of every message the fleet writes (commands, states, events, class records,
/// acknowledgements, cards, discovery, the console's library): an `Encodable` type in, its JSON
/// text out. Unlike Foundation's JSONEncoder it keeps an object's keys in the order the type's
/// `encode(to:)` writes them (its CodingKeys), so the wire's bytes are the type's to say, or
/// sorts them when asked (`sortedKeys`); and it writes a `WireSeconds` as a number with exactly
/// three decimals. Strings are escaped as Foundation's JSONEncoder escapes them. It throws
/// nothing of its own (a number that is not finite is `null`), only what a type's
/// `encode(to:)` throws.
public struct FleetJSONEncoder: Sendable {
    /// Whether an object's keys are sorted (by their UTF-8 bytes) rather than kept in order.
    public var sortedKeys: Bool
    /// Whether `/` is written `\/`, as Foundation's JSONEncoder does by default.
    public var escapingSlashes: Bool

    public init(sortedKeys: Bool = false, escapingSlashes: Bool = true) {
        self.sortedKeys = sortedKeys
        self.escapingSlashes = escapingSlashes
    }

    /// `value` as JSON text.
    public func encode<T: Encodable>(_ value: T) throws -> String {
        var text = ""
        write(try FleetJSONTree.tree(of: value, at: []), into: &text)
        return text
    }

    /// `value` as JSON text, for a message whose `encode(to:)` throws nothing (every fleet
    /// message's: they only hand this encoder strings, whole numbers, flags and `WireSeconds`).
    public func text<T: Encodable>(_ value: T) -> String {
        do {
            return try encode(value)
        } catch {
            assertionFailure("a fleet message's encoding threw: \(error)")
            return "null"
        }
    }

    /// `text` as a JSON string literal (quotes included).
    public func quoted(_ text: String) -> String {
        var out = ""
        writeString(text, into: &out)
        return out
    }

    private func write(_ node: FleetJSONTree, into out: inout String) {
        switch node.value {
        case .literal(let text): out += text
        case .string(let text): writeString(text, into: &out)
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                write(item, into: &out)
            }
            out += "]"
        case .object(let fields):
            out += "{"
            let ordered = sortedKeys ? fields.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) } : fields
            for (index, field) in ordered.enumerated() {
                if index > 0 { out += "," }
                writeString(field.key, into: &out)
                out += ":"
                write(field.value, into: &out)
            }
            out += "}"
        }
    }

    /// As Foundation's JSONEncoder: `"` and `\` escaped, `/` too unless told, the control
    /// characters as `\b \t \n \f \r` or `\u00XX` (lowercase hex); everything else as it is.
    private func writeString(_ text: String, into out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "/" where escapingSlashes: out += "\\/"
            case "\u{08}": out += "\\b"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\u{0C}": out += "\\f"
            case "\r": out += "\\r"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
