/// Bytes written as hex, two digits a byte: what card UIDs, pseudonyms and keys are typed and
/// stored as.
public enum HexBytes {
    /// Upper-case hex of `bytes`.
    public static func encode(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789ABCDEF")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] })
    }

    /// The bytes `text` spells (either case, an optional `:` between bytes), or nil when it is
    /// not hex or its byte count is outside `counts`. Never reads more than `counts` allows.
    public static func decode(_ text: String, counts: ClosedRange<Int>) -> [UInt8]? {
        guard text.utf8.count <= 3 * counts.upperBound else { return nil }
        var bytes: [UInt8] = []
        var high: UInt8?
        for unit in text.utf8 where unit != UInt8(ascii: ":") {
            guard let value = Self.value(unit) else { return nil }
            if let first = high {
                bytes.append(first << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        guard high == nil, counts.contains(bytes.count) else { return nil }
        return bytes
    }

    private static func value(_ unit: UInt8) -> UInt8? {
        switch unit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): unit - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): unit - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): unit - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
