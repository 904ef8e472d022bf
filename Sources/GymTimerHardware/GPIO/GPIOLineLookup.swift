import GymTimerHAL

/// Finds a line's offset on a chip from the chip's line names, the same way for every libgpiod
/// API, so the "no such line" error is one piece of code, testable without a chip.
public enum GPIOLineLookup {
    /// The offset of `line` among `names` (index = offset; nil for unnamed lines), or the
    /// offset itself if the chip has it. Throws `.noSuchLine` naming `chip`.
    public static func offset(of line: GPIOLineID, in names: [String?], chip: String) throws(HALError) -> Int {
        switch line {
        case .offset(let offset):
            guard names.indices.contains(offset) else { throw .noSuchLine(line: String(offset), chip: chip) }
            return offset
        case .name(let name):
            guard let offset = names.firstIndex(of: name) else { throw .noSuchLine(line: name, chip: chip) }
            return offset
        }
    }
}
