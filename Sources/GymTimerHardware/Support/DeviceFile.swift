import Glibc
import GymTimerHAL

/// An open device node: thin typed wrappers over open(2), ioctl(2) and write(2) that retry on
/// EINTR and report failures as `HALError` through `fromErrno`. Closed when released.
final class DeviceFile {
    /// The node's path, for error messages.
    let path: String
    let interface: DeviceInterface
    private let descriptor: Int32

    /// Opens `path` read-write (close-on-exec).
    init(path: String, interface: DeviceInterface) throws(HALError) {
        self.path = path
        self.interface = interface
        let fd = SystemCall.retryingInterrupts { open(path, O_RDWR | O_CLOEXEC) }
        guard fd >= 0 else { throw .lastError(device: path, operation: "open", interface: interface) }
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// An ioctl taking its argument by value (I2C_SLAVE).
    func control(_ request: UInt, value: Int32, operation: String) throws(HALError) {
        let result = SystemCall.retryingInterrupts { ioctl(descriptor, request, value) }
        guard result >= 0 else { throw .lastError(device: path, operation: operation, interface: interface) }
    }

    /// An ioctl writing `value` through a pointer (the SPI_IOC_WR_* requests).
    func control<Value>(_ request: UInt, pointingTo value: Value, operation: String) throws(HALError) {
        var value = value
        let result = SystemCall.retryingInterrupts {
            withUnsafeMutableBytes(of: &value) { ioctl(descriptor, request, $0.baseAddress!) }
        }
        guard result >= 0 else { throw .lastError(device: path, operation: operation, interface: interface) }
    }

    /// Writes all of `bytes` in one write(2); a short write is an I/O error, since these
    /// devices send one bus transaction per call.
    func write(_ bytes: [UInt8], operation: String) throws(HALError) {
        let written = SystemCall.retryingInterrupts {
            bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        }
        guard written >= 0 else { throw .lastError(device: path, operation: operation, interface: interface) }
        guard written == bytes.count else { throw .io(device: path, operation: operation, errno: EIO) }
    }
}
