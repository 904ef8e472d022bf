#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GymTimerHAL

/// The simulated world's hands for a person at a terminal, in real time: keys read from a
/// file descriptor (stdin in raw mode) become the same edges a script line would make (see
/// `InputGestures`), and edges due later (a click's release, a detent's other three edges)
/// come at their real times. Keys act in the order typed: each gesture starts when the one
/// before it has finished, whichever button or the knob it was. Waiting blocks in `poll(2)`
/// until a key, the next scheduled edge, a resize of the terminal, one of the extra `sources`
/// or the timeout, whichever comes first; nothing wakes it while idle.
public final class TerminalInputs: SimulatedInputs {
    /// What a key asks for.
    public enum Command: Hashable, Sendable {
        case click(String)
        case hold(String)
        case turn(Int)
        /// Ctrl-L: draw the whole screen again.
        case redraw
        case quit
    }

    /// How long `S` and `D` hold their button: past the 2 s hold time.
    public static let holdLength = Duration.milliseconds(2200)

    /// True once `q`, Ctrl-C or the end of input was read; `wait` then returns at once.
    public private(set) var quitRequested = false
    /// True after Ctrl-L or a resize (a byte on `resizeFD`) until `takeRedrawRequest()`.
    public private(set) var redrawRequested = false
    private let fd: Int32
    private let resizeFD: Int32?
    private let now: () -> Duration
    private let queue: EdgeQueue
    private let start: String
    private let dismiss: String
    /// Bytes of an escape sequence whose end has not arrived yet.
    private var partial: [UInt8] = []
    /// More descriptors to wait on beside the keys (a stop signal's pipe, the fleet station's
    /// socket): one that poll finds ready is served and `wait` returns, so the loop looks.
    public var sources: [any PollSource] = []
    /// Told of every command as its key is read, with the time it was typed.
    public var onCommand: ((Command, Duration) -> Void)?
    /// When the hands are free for the next gesture: keys typed faster than a gesture lasts
    /// queue up behind it, in the order typed, instead of overlapping or overtaking it.
    private var freeAt: Duration?

    /// Reads keys from `fd`; `now` is the time on the kiosk's timeline (injected so tests can
    /// control it). `start` and `dismiss` name the two button lines. `resizeFD`, if given, is
    /// a descriptor that becomes readable when the terminal was resized (a self-pipe a SIGWINCH
    /// handler writes to); it is drained and turned into a redraw request.
    public init(
        fd: Int32 = 0, resizeFD: Int32? = nil, start: String = "start", dismiss: String = "dismiss",
        now: @escaping () -> Duration
    ) {
        self.fd = fd
        self.resizeFD = resizeFD
        self.now = now
        self.start = start
        self.dismiss = dismiss
        queue = EdgeQueue(buttons: [start, dismiss])
    }

    public var lines: [String: SimulatedLine] { queue.lines }

    /// When the next scheduled edge is due, if any.
    public var nextEdgeTime: Duration? { queue.nextEdgeTime }

    public func wait(timeout: Duration?) throws(HALError) -> [InputEdge] {
        let deadline = timeout.map { now() + max($0, .zero) }
        while !quitRequested {
            let t = now()
            let due = queue.deliver(through: t, now: t)
            if !due.isEmpty { return due }
            let remaining = pollTimeout(until: deadline, now: t)
            let ready = try waitReadable(remaining)
            if ready.resized { drainResizes() }
            guard ready.keys else {
                // Timed out (the scheduled edge or the caller's deadline has come), resized, or a
                // source was served.
                let t = now()
                return queue.deliver(through: t, now: t)
            }
            let keys = try readAvailable()
            let t2 = now()
            for command in commands(in: keys) { perform(command, at: t2) }
            let pressed = queue.deliver(through: t2, now: t2)
            if !pressed.isEmpty || quitRequested || redrawRequested || ready.served { return pressed }
            // An unknown key wakes nobody: wait on for what is left of the timeout.
            if let deadline, t2 >= deadline { break }
        }
        return []
    }

    /// How long `poll` may block: until `deadline` or the next scheduled edge, whichever is
    /// first (nil: until a key).
    func pollTimeout(until deadline: Duration?, now t: Duration) -> Duration? {
        queue.blockingTime(until: deadline, now: t)
    }

    /// Returns true once after Ctrl-L or a resize, so the caller redraws the whole screen.
    public func takeRedrawRequest() -> Bool {
        defer { redrawRequested = false }
        return redrawRequested
    }

    /// Schedules what `command` does to the lines, at `time` or as soon as the gesture typed
    /// before it has finished. A button rests released for as long as a click before the next
    /// gesture, so the debouncer sees two presses of one button.
    func perform(_ command: Command, at time: Duration) {
        onCommand?(command, time)
        let start = max(time, freeAt ?? time)
        switch command {
        case .click(let name):
            queue.schedule(InputGestures.click(name, at: start))
            freeAt = start + InputGestures.clickLength * 2
        case .hold(let name):
            queue.schedule(InputGestures.hold(name, at: start, for: Self.holdLength))
            freeAt = start + Self.holdLength + InputGestures.clickLength
        case .turn(let detents):
            queue.schedule(InputGestures.turn(detents, at: start))
            freeAt = start + InputGestures.detentInterval * detents.magnitude
        case .redraw:
            redrawRequested = true
        case .quit:
            quitRequested = true
        }
    }

    /// The commands in `bytes`, keeping an unfinished escape sequence for the next read.
    func commands(in bytes: [UInt8]) -> [Command] {
        let input = partial + bytes
        partial = []
        var commands: [Command] = []
        var i = 0
        while i < input.count {
            let byte = input[i]
            i += 1
            if byte == 0x1B {
                // CSI (ESC [ params final) or SS3 (ESC O final): arrows end in C (right) or D (left).
                guard i < input.count else { partial = [byte]; break }
                guard input[i] == UInt8(ascii: "[") || input[i] == UInt8(ascii: "O") else { continue }
                var j = i + 1
                while j < input.count, (0x20...0x3F).contains(input[j]) { j += 1 }
                guard j < input.count else { partial = Array(input[(i - 1)...]); break }
                switch input[j] {
                case UInt8(ascii: "C"): commands.append(.turn(1))
                case UInt8(ascii: "D"): commands.append(.turn(-1))
                default: break
                }
                i = j + 1
                continue
            }
            if let command = command(for: byte) { commands.append(command) }
        }
        return commands
    }

    /// The command a single key byte gives, if any.
    func command(for byte: UInt8) -> Command? {
        switch byte {
        case UInt8(ascii: "s"), UInt8(ascii: " "): return .click(start)
        case UInt8(ascii: "d"), UInt8(ascii: "\r"), UInt8(ascii: "\n"): return .click(dismiss)
        case UInt8(ascii: "S"): return .hold(start)
        case UInt8(ascii: "D"): return .hold(dismiss)
        case UInt8(ascii: "+"), UInt8(ascii: "]"), UInt8(ascii: "="): return .turn(1)
        case UInt8(ascii: "-"), UInt8(ascii: "["), UInt8(ascii: "_"): return .turn(-1)
        case 0x0C: return .redraw
        case UInt8(ascii: "q"), UInt8(ascii: "Q"), 0x03, 0x04: return .quit
        default: return nil
        }
    }

    /// Blocks until keys can be read, the terminal was resized, a source was ready (and is
    /// served) or `timeout` elapses (none of them); nil waits without a timeout.
    private func waitReadable(_ timeout: Duration?) throws(HALError) -> (keys: Bool, resized: Bool, served: Bool) {
        var entries = [
            pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: resizeFD ?? -1, events: Int16(POLLIN), revents: 0),
        ]
        entries += sources.pollRequests
        // Interrupted (a SIGWINCH among others), SystemCall.poll waits on: its byte is in the pipe.
        guard try SystemCall.poll(&entries, timeout: timeout, device: "terminal") > 0 else { return (false, false, false) }
        let served = sources.serve(entries[2...])
        return (entries[0].revents != 0, entries[1].revents != 0, served)
    }

    /// Empties the resize pipe (it is non-blocking) and asks for a redraw.
    private func drainResizes() {
        guard let resizeFD else { return }
        var buffer = [UInt8](repeating: 0, count: 64)
        while buffer.withUnsafeMutableBytes({ read(resizeFD, $0.baseAddress, $0.count) }) > 0 {}
        redrawRequested = true
    }

    /// Reads what is there (at least one byte, as poll said). End of input counts as quit.
    private func readAvailable() throws(HALError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 { return Array(buffer[..<n]) }
            if n == 0 {
                quitRequested = true
                return []
            }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { return [] }
            throw HALError.io(device: "terminal", operation: "read", errno: errno)
        }
    }
}
