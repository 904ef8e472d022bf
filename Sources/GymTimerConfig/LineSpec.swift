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
