import Foundation
import Glibc
import GymTimerHAL

/// The simulated PN532 behind a pseudo-terminal, as a reader on a serial port: libnfc's
/// `pn532_uart` driver opens `path` (`LIBNFC_DEVICE=pn532_uart:/dev/pts/N`) and speaks to the
/// chip's twin exactly as to a module on the Pi's UART, so tests run the real libnfc with no
/// reader. A thread of its own answers (the twin stands for a chip outside the process: it
/// decides nothing of the kiosk's); `field` is what the chip sees, set from any thread.
public final class PN532PseudoTerminal: @unchecked Sendable {
    /// The pseudo-terminal's slave side: the reader's "serial port".
    public let path: String
    private let chip = SimulatedPN532()
    private let lock = NSLock()
    private let master: Int32
    /// Kept open so the master side never reads end-of-file between the host's opens.
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

    deinit {
        stop()
        close(master)
        close(slave)
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
            guard count > 0 else { continue }
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
