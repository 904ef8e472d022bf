#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GymTimerSimulation
import GymTimerHAL
import SystemPackage

/// The terminal in the interactive simulator's mode: stdin raw (keys arrive one by one, no
/// echo, Ctrl-C as a key), the alternate screen, no cursor. `restore()` puts everything back;
/// so do SIGINT, SIGTERM, SIGHUP and SIGQUIT from outside (then the process dies of the
/// signal as usual) and a crash (then the previous handler, e.g. Swift's backtracer, runs),
/// so the shell is never left without echo. A resize (SIGWINCH) writes a byte to
/// `resizeDescriptor`, which the simulator polls beside the keys to redraw at the new `size`.
public final class TerminalMode {
    private let input: Int32
    private let output: Int32
    private var active = true
    /// Readable after the terminal was resized; non-blocking, drained by the reader.
    public let resizeDescriptor: Int32

    /// Signals that end the process: restore, then die of the signal.
    private static let endSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
    /// Signals of a crash: restore, then hand over to whoever handled them before.
    private static let crashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT]

    /// Switches `input` (a terminal) to raw mode and `output` to the alternate screen.
    /// Throws the errno when the terminal's attributes cannot be read or set.
    public init(input: Int32 = 0, output: Int32 = 1) throws(TerminalModeError) {
        self.input = input
        self.output = output
        var saved = termios()
        guard tcgetattr(input, &saved) == 0 else { throw TerminalModeError(operation: "tcgetattr", errno: errno) }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL | BRKINT | INPCK | ISTRIP)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        // Everything the signal handlers use is in place before they are installed.
        terminalState.pointee.input = input
        terminalState.pointee.output = output
        terminalState.pointee.saved = saved
        guard tcsetattr(input, TCSAFLUSH, &raw) == 0 else { throw TerminalModeError(operation: "tcsetattr", errno: errno) }
        terminalState.pointee.raw = true
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            let code = errno
            restoreTerminal()
            throw TerminalModeError(operation: "pipe", errno: code)
        }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        resizeDescriptor = fds[0]
        terminalState.pointee.resizePipe = fds[1]
        for signal in Self.endSignals + Self.crashSignals { install(signal) }
        install(SIGWINCH)
        write(Self.enterSequence)
    }

    /// The terminal's size now, or `TerminalSize.standard` when it cannot be read.
    public var size: TerminalSize {
        var window = winsize()
        guard ioctl(output, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else {
            return .standard
        }
        return TerminalSize(columns: Int(window.ws_col), rows: Int(window.ws_row))
    }

    deinit { restore() }

    /// Writes `text` to the output, all of it (retrying short writes and interruptions).
    public func write(_ text: String) {
        var text = text
        text.withUTF8 { writeAll(output, $0.baseAddress, $0.count) }
    }

    /// Puts the terminal back as it was; safe to call more than once.
    public func restore() {
        guard active else { return }
        active = false
        restoreTerminal()
        for signal in Self.endSignals + Self.crashSignals + [SIGWINCH] {
            _ = sigaction(signal, terminalState.pointee.previous + Int(signal), nil)
        }
        let writeEnd = terminalState.pointee.resizePipe
        terminalState.pointee.resizePipe = -1
        close(writeEnd)
        close(resizeDescriptor)
    }

    private static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J"

    private func install(_ signal: Int32) {
        var action = sigaction()
        sigemptyset(&action.sa_mask)
        let handler: @convention(c) (Int32) -> Void =
            signal == SIGWINCH ? handleResize : Self.crashSignals.contains(signal) ? handleCrash : handleEnd
        #if os(Linux)
        action.__sigaction_handler.sa_handler = handler
        #else
        action.__sigaction_u.__sa_handler = handler
        #endif
        _ = sigaction(signal, &action, terminalState.pointee.previous + Int(signal))
    }
}

/// Why the terminal could not be put in raw mode.
public struct TerminalModeError: Error, CustomStringConvertible {
    var operation: String
    var errno: Int32
    public var description: String { "\(operation) on the terminal failed: \(Errno.last.text)" }
}

/// What the signal handlers need, set before they are installed. They may only touch plain
/// memory and async-signal-safe calls (tcsetattr, write, sigaction, raise), so it lives behind
/// pointers allocated once: no copy-on-write, no exclusivity bookkeeping inside a handler.
private struct TerminalState {
    var input: Int32 = 0
    var output: Int32 = 1
    var saved = termios()
    var raw = false
    /// The write end of the resize pipe, -1 when there is none.
    var resizePipe: Int32 = -1
    /// The handler each signal had before ours, indexed by signal number.
    let previous: UnsafeMutablePointer<sigaction> = {
        let actions = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
        actions.initialize(repeating: sigaction(), count: 65)
        return actions
    }()
}

nonisolated(unsafe) private let terminalState: UnsafeMutablePointer<TerminalState> = {
    let state = UnsafeMutablePointer<TerminalState>.allocate(capacity: 1)
    state.initialize(to: TerminalState())
    return state
}()

/// Leaves the alternate screen, shows the cursor, resets colours and restores the saved
/// attributes, once.
private func restoreTerminal() {
    guard terminalState.pointee.raw else { return }
    terminalState.pointee.raw = false
    let leave: StaticString = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"
    writeAll(terminalState.pointee.output, leave.utf8Start, leave.utf8CodeUnitCount)
    _ = tcsetattr(terminalState.pointee.input, TCSAFLUSH, &terminalState.pointee.saved)
}

/// SIGINT, SIGTERM, …: restore, then die of the same signal.
private func handleEnd(_ signal: Int32) {
    restoreTerminal()
    var action = sigaction()
    sigemptyset(&action.sa_mask)
    #if os(Linux)
    action.__sigaction_handler.sa_handler = SIG_DFL
    #else
    action.__sigaction_u.__sa_handler = SIG_DFL
    #endif
    _ = sigaction(signal, &action, nil)
    _ = raise(signal)
}

/// SIGWINCH: one byte into the resize pipe (a full pipe already says "resized").
private func handleResize(_ signal: Int32) {
    let saved = errno
    var byte: UInt8 = 1
    _ = write(terminalState.pointee.resizePipe, &byte, 1)
    errno = saved
}

/// A crash: restore, put the previous handler back and return, so the fault happens again
/// and is handled as it would have been.
private func handleCrash(_ signal: Int32) {
    restoreTerminal()
    _ = sigaction(signal, terminalState.pointee.previous + Int(signal), nil)
}

/// Writes every byte, retrying short writes and interruptions; gives up on other errors.
private func writeAll(_ fd: Int32, _ start: UnsafePointer<UInt8>?, _ count: Int) {
    guard let start else { return }
    var offset = 0
    while offset < count {
        let n = write(fd, start + offset, count - offset)
        if n > 0 { offset += n } else if n < 0 && errno == EINTR { continue } else { return }
    }
}
