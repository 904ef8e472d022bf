import CNFCShim
import GymTimerHAL

/// A PN532 (or any reader libnfc drives) through libnfc: `pn532_uart:/dev/serial0`,
/// `pn532_i2c:/dev/i2c-1`, `pn532_spi:/dev/spidev0.0`. libnfc is loaded at the first open.
public final class LibNFCCardReader: CardReader {
    public let name: String
    private let reader: UnsafeMutableRawPointer

    /// Opens the reader at `connstring` (libnfc's), or says why not: libnfc missing, no reader
    /// answering there, a reader that would not start.
    public init(_ connstring: String) throws(HALError) {
        var error = [CChar](repeating: 0, count: 512)
        guard let opened = gt_nfc_open(connstring, &error, error.count) else {
            let why = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw .unsupported(device: connstring, detail: why)
        }
        name = connstring
        reader = opened
    }

    deinit { gt_nfc_close(reader) }

    public func cardInField() throws(HALError) -> [UInt8]? {
        var uid = [UInt8](repeating: 0, count: 10)
        var length = 0
        let found = gt_nfc_poll(reader, &uid, &length)
        if found < 0 {
            throw .unsupported(device: name, detail: "the reader stopped answering: \(String(cString: gt_nfc_error(reader)))")
        }
        return found == 0 ? nil : Array(uid.prefix(length))
    }
}
