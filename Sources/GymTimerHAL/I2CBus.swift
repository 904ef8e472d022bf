/// An I2C bus master (Linux `i2c-dev`, or a simulated bus in tests).
public protocol I2CBus: AnyObject {
    /// The bus's device node or name, for error messages.
    var name: String { get }
    /// Writes `bytes` to the peripheral at 7-bit `address` in one transaction.
    func write(address: UInt8, _ bytes: [UInt8]) throws(HALError)
}
