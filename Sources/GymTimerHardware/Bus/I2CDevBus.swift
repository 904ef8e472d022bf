import Glibc
import GymTimerHAL

/// An I2C bus through Linux i2c-dev (`/dev/i2c-N`): each write selects the peripheral with the
/// I2C_SLAVE ioctl (only when the address changes) and sends one transaction with write(2).
/// A peripheral that does not acknowledge fails with EREMOTEIO (or ENXIO on some adapters).
///
/// An SMBus-only adapter (some USB and PC host adapters, the kernel's i2c-stub the VM tests
/// use) refuses plain transactions with EOPNOTSUPP; the bus then sends each write as the SMBus
/// transfer with the same bytes on the wire: one byte as "send byte", more as an
/// "I2C block write" (command = first byte, up to 32 data bytes).
public final class I2CDevBus: I2CBus {
    /// ioctl selecting the 7-bit address later reads and writes go to (linux/i2c-dev.h).
    static let setSlaveAddress: UInt = 0x0703
    /// ioctl for one SMBus transfer, and its transfer sizes (linux/i2c-dev.h, linux/i2c.h).
    static let smbusTransfer: UInt = 0x0720
    static let smbusByte: UInt32 = 1, smbusI2CBlockData: UInt32 = 8
    /// struct i2c_smbus_ioctl_data.
    struct SMBusIoctlData {
        var readWrite: UInt8 = 0  // I2C_SMBUS_WRITE
        var command: UInt8
        var size: UInt32
        var data: UnsafeMutableRawPointer?
    }

    private let file: DeviceFile
    private var selected: UInt8?
    /// Set once the adapter refused a plain write with EOPNOTSUPP.
    private var smbusOnly = false

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
        if smbusOnly { return try smbusWrite(bytes, address: address) }
        do throws(HALError) {
            try file.write(bytes, operation: "write to 0x\(hex(address))")
        } catch {
            guard case .io(_, _, let code) = error, code == EOPNOTSUPP, (1...33).contains(bytes.count) else { throw error }
            smbusOnly = true
            try smbusWrite(bytes, address: address)
        }
    }

    /// `bytes` as one SMBus write: "send byte" for one byte, else an I2C block write.
    private func smbusWrite(_ bytes: [UInt8], address: UInt8) throws(HALError) {
        guard (1...33).contains(bytes.count) else {
            throw .io(device: file.path, operation: "SMBus write of \(bytes.count) bytes to 0x\(hex(address))", errno: EMSGSIZE)
        }
        // union i2c_smbus_data: block[0] is the length, then the data (34 bytes in all).
        var block = [UInt8](repeating: 0, count: 34)
        block[0] = UInt8(bytes.count - 1)
        for (index, byte) in bytes.dropFirst().enumerated() { block[index + 1] = byte }
        let size = bytes.count == 1 ? Self.smbusByte : Self.smbusI2CBlockData
        let operation = "SMBus write to 0x\(hex(address))"
        let result: Result<Void, HALError> = block.withUnsafeMutableBytes { raw in
            let request = SMBusIoctlData(command: bytes[0], size: size, data: raw.baseAddress)
            do throws(HALError) {
                try file.control(Self.smbusTransfer, pointingTo: request, operation: operation)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    private func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16)
        return digits.count == 1 ? "0" + digits : digits
    }
}
