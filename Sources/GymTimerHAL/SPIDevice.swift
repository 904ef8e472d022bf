/// One chip on an SPI bus with its own chip select (Linux `spidev`, or a simulated chip).
public protocol SPIDevice: AnyObject {
    /// The device node or name, for error messages.
    var name: String { get }
    /// Clocks `bytes` out in one chip-select frame (most significant bit first).
    func write(_ bytes: [UInt8]) throws(HALError)
}
