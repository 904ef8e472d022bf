import GymTimerHAL

/// An I2C bus through Linux i2c-dev (`/dev/i2c-N`): each write selects the peripheral with the
/// I2C_SLAVE ioctl (only when the address changes) and sends one transaction with write(2).
/// A peripheral that does not acknowledge fails with EREMOTEIO (or ENXIO on some adapters).
public final class I2CDevBus: I2CBus {
    /// ioctl selecting the 7-bit address later reads and writes go to (linux/i2c-dev.h).
    static let setSlaveAddress: UInt = 0x0703

    private let file: DeviceFile
    private var selected: UInt8?

    public var name: String { file.path }

    /// Opens `/dev/i2c-<bus>` (bus 1 is the header's SDA/SCL pins on a Raspberry Pi).
    public convenience init(bus: Int) throws(HALError) {
        try self.init(path: "/dev/i2c-\(bus)")
    }

    /// Opens the i2c-dev node at `path`.
    public init(path: String) throws(HALError) {
        file = try DeviceFile(path: path, interface: .i2c)
    }

    public func write(address: UInt8, _ bytes: [UInt8]) throws(HALError) {
        if selected != address {
            selected = nil
            try file.control(Self.setSlaveAddress, value: Int32(address), operation: "select address 0x\(hex(address))")
            selected = address
        }
        try file.write(bytes, operation: "write to 0x\(hex(address))")
    }

    private func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16)
        return digits.count == 1 ? "0" + digits : digits
    }
}
