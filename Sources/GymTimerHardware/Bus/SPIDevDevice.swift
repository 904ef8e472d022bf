import GymTimerHAL

/// One SPI chip through Linux spidev (`/dev/spidevB.C`), set to mode 0, 8-bit words and a
/// fixed clock at open; each `write` is one write(2), so one chip-select frame.
public final class SPIDevDevice: SPIDevice {
    /// ioctls from linux/spi/spidev.h: _IOW('k', 1, u8), _IOW('k', 3, u8), _IOW('k', 4, u32).
    static let writeMode: UInt = 0x4001_6B01
    static let writeBitsPerWord: UInt = 0x4001_6B03
    static let writeMaxSpeed: UInt = 0x4004_6B04

    private let file: DeviceFile

    public var name: String { file.path }

    /// Opens `/dev/spidev<bus>.<chipSelect>` (0.0 is CE0 on the header of a Raspberry Pi).
    public convenience init(bus: Int, chipSelect: Int, speedHz: UInt32 = 1_000_000) throws(HALError) {
        try self.init(path: "/dev/spidev\(bus).\(chipSelect)", speedHz: speedHz)
    }

    /// Opens the spidev node at `path` with SPI mode 0 (clock idle low, sample on rising edge:
    /// what the MAX7219 and most display chips expect) at `speedHz`.
    public init(path: String, speedHz: UInt32 = 1_000_000) throws(HALError) {
        file = try DeviceFile(path: path, interface: .spi)
        try file.control(Self.writeMode, pointingTo: UInt8(0), operation: "set SPI mode 0")
        try file.control(Self.writeBitsPerWord, pointingTo: UInt8(8), operation: "set 8 bits per word")
        try file.control(Self.writeMaxSpeed, pointingTo: speedHz, operation: "set clock to \(speedHz) Hz")
    }

    public func write(_ bytes: [UInt8]) throws(HALError) {
        try file.write(bytes, operation: "write")
    }
}
