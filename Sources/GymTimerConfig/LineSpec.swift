/// How the config names one GPIO line: by its line name (`"GPIO17"`, found on whichever chip
/// has it) or by its offset on the configured chip (`17`).
public enum LineSpec: Hashable, Sendable, Codable, CustomStringConvertible {
    case name(String)
    case offset(Int)

    /// As written in the config: a name quoted, an offset bare.
    public var description: String {
        switch self {
        case .name(let name): return TOMLText.quote(name)
        case .offset(let offset): return String(offset)
        }
    }
}

extension LineSpec {
    /// What tells two specs apart for the same-line check: on the Raspberry Pi, `"GPIO17"`,
    /// `"17"` and `17` all name line 17, so they count as one line.
    var identity: String {
        switch self {
        case .offset(let offset): return "line \(offset)"
        case .name(let name):
            let digits = name.uppercased().hasPrefix("GPIO") ? name.dropFirst(4) : Substring(name)
            if !digits.isEmpty, digits.allSatisfy(\.isASCII), let number = Int(digits), number >= 0 { return "line \(number)" }
            return "name \(name)"
        }
    }
}
