import GymTimerCore
import TOMLKit

/// Renders TOML values the way they are written in a config file, for problem messages:
/// strings quoted, numbers and booleans bare, arrays and tables inline.
enum TOMLText {
    static func render(_ value: TOMLValueConvertible) -> String {
        switch value.type {
        case .string:
            return quote(value.string ?? "")
        case .int:
            return value.int.map { String($0) } ?? ""
        case .double:
            return value.double.map { render(double: $0) } ?? ""
        case .bool:
            return value.bool.map { String($0) } ?? ""
        case .array:
            guard let array = value.array else { return "[]" }
            return "[" + array.map { render($0) }.joined(separator: ", ") + "]"
        case .table:
            guard let table = value.table, !table.isEmpty else { return "{}" }
            return "{ " + table.map { "\(key($0.0)) = \(render($0.1))" }.joined(separator: ", ") + " }"
        case .date, .time, .dateTime:
            return value.tomlValue.debugDescription
        }
    }

    /// A TOML basic string: `"…"` with quotes, backslashes, and every control or format
    /// character (`NameText.isRefused`: a bidirectional override too) escaped, so a problem
    /// line quoting a value stays one line and in its order.
    static func quote(_ string: String) -> String {
        var result = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case _ where NameText.isRefused(scalar):
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += hex.count <= 4 ? "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                    : "\\U" + String(repeating: "0", count: 8 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// A key as written: bare when it can be, quoted otherwise.
    static func key(_ key: String) -> String {
        let bare = !key.isEmpty && key.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-"
        }
        return bare ? key : quote(key)
    }

    private static func render(double: Double) -> String {
        if double.isNaN { return "nan" }
        if double.isInfinite { return double < 0 ? "-inf" : "inf" }
        return String(double)
    }
}
