/// Where the station's NFC reader is (`[hardware] nfc`), as libnfc names it: its driver and its
/// port, `pn532_i2c:/dev/i2c-1`, `pn532_uart:/dev/serial0` (optionally `:115200`, the speed) or
/// `pn532_spi:/dev/spidev0.0`. Checked when the config is read, so a typo is a config error,
/// not a reader that silently never answers.
public struct NFCReaderAddress: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The libnfc connection string.
    public let connstring: String

    /// The drivers GymTimer is built and tested for (libnfc's PN532 drivers).
    public static let drivers = ["pn532_i2c", "pn532_uart", "pn532_spi"]

    /// The address in `text`, or nil when it is none (`problem(with:)` says why).
    public init?(_ text: String) {
        guard Self.problem(with: text) == nil else { return nil }
        connstring = text
    }

    /// Why `text` is not a reader's address, or nil when it is one.
    public static func problem(with text: String) -> String? {
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, drivers.contains(parts[0]) else {
            return "must be a driver and a port: \(drivers.map { "\"\($0):/dev/…\"" }.joined(separator: ", "))"
        }
        let port = parts[1]
        guard port.hasPrefix("/"), port.count <= 255,
              port.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            return "the port must be an absolute device path, like /dev/i2c-1"
        }
        if parts.count == 3, !(parts[0] == "pn532_uart" && UInt32(parts[2]).map({ (9600...921_600).contains($0) }) == true) {
            return "only pn532_uart takes a third part, its speed in baud (9600…921600)"
        }
        return nil
    }

    public var description: String { connstring }
}
