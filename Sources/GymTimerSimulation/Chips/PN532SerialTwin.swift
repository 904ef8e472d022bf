import Foundation
import Glibc
import GymTimerHAL

/// The simulated PN532 on a serial line, as a reader on a UART: libnfc's `pn532_uart` driver
/// opens `path` and speaks to the chip's twin exactly as to a module on the Pi's UART, so tests
/// run the real libnfc with no reader. The line is a pseudo-terminal made for it (`init()`:
/// `pn532_uart:/dev/pts/N`), or one end of a real serial link whose other end the kiosk opens
/// (`init(line:)`: two UARTs wired to each other, as the install VM's ttyS2 → ttyS1 are).
/// A thread of its own answers (the twin stands for a chip outside the process: it decides
/// nothing of the kiosk's); `field` is what the chip sees, set from any thread. Unchecked
/// Sendable: every mutable state is behind `lock`.
public final class PN532SerialTwin: @unchecked Sendable {
    /// The twin's line: the pseudo-terminal's slave side, which the host opens, or on a
    /// serial link the twin's own end (the host opens the other).
    public let path: String
    private let chip = SimulatedPN532()
    private let lock = NSLock()
    /// The chip's end: the pseudo-terminal's master side, or the serial line.
    private let master: Int32
    /// Kept open so the master side never reads end-of-file between the host's opens (-1 on a
    /// serial line).
    private let slave: Int32
    private var stopping = false
    private var thread: Thread?

    public init() throws(HALError) {
        let (master, path) = try SystemCall.openPseudoTerminal()
        let slave = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard slave >= 0 else {
            let error = errno
            close(master)
            throw .io(device: path, operation: "open", errno: error)
        }
        // Raw bytes both ways, as a UART carries them (no echo, no line editing).
        var settings = termios()
        tcgetattr(slave, &settings)
        cfmakeraw(&settings)
        tcsetattr(slave, TCSANOW, &settings)
        self.master = master
        self.slave = slave
        self.path = path
    }

    /// The twin on the serial line at `line` (`/dev/ttyS2`): raw, 115200 baud, modem lines
    /// ignored, as a PN532's UART is wired (TX, RX, ground).
    public init(line: String) throws(HALError) {
        let fd = open(line, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw .io(device: line, operation: "open", errno: errno) }
        var settings = termios()
        guard tcgetattr(fd, &settings) == 0 else {
            let error = errno
            close(fd)
            throw .io(device: line, operation: "tcgetattr", errno: error)
        }
        cfmakeraw(&settings)
        settings.c_cflag |= tcflag_t(CLOCAL | CREAD)
        cfsetispeed(&settings, speed_t(B115200))
        cfsetospeed(&settings, speed_t(B115200))
        tcsetattr(fd, TCSANOW, &settings)
        tcflush(fd, TCIOFLUSH)
        master = fd
        slave = -1
        path = line
    }

    deinit {
        stop()
        close(master)
        if slave >= 0 { close(slave) }
    }

    /// The UIDs of the cards in the field now.
    public var field: [[UInt8]] {
        get { lock.withLock { chip.field } }
        set { lock.withLock { chip.field = newValue } }
    }

    /// The commands the chip answered so far (their codes), in order.
    public var commands: [UInt8] { lock.withLock { chip.commands.map(\.code) } }

    /// What the chip could not make sense of so far.
    public var violations: [String] { lock.withLock { chip.violations } }

    /// Starts answering on the thread `pn532-twin`.
    public func start() {
        let thread = Thread { [self] in serve() }
        thread.name = "pn532-twin"
        self.thread = thread
        thread.start()
    }

    /// Stops answering (within a tenth of a second).
    public func stop() {
        lock.withLock { stopping = true }
        while let thread, !thread.isFinished { usleep(10_000) }
    }

    private func serve() {
        var buffer = [UInt8](repeating: 0, count: 512)
        while !lock.withLock({ stopping }) {
            var request = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&request, 1, 100) > 0, request.revents & Int16(POLLIN) != 0 else { continue }
            let count = read(master, &buffer, buffer.count)
            guard count > 0 else {
                // A serial line that went away (EIO, hang-up) would poll ready for ever.
                if count < 0, errno != EAGAIN, errno != EINTR { usleep(100_000) }
                continue
            }
            let answer = lock.withLock { chip.receive(Array(buffer[0..<count])) }
            var written = 0
            while written < answer.count {
                let step = answer[written...].withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count) }
                guard step > 0 else { break }
                written += step
            }
        }
    }
}
