#if canImport(Glibc)
import Glibc
#endif
import GymTimerHAL
import GymTimerSimulation
import GymTimerSystem

/// The hands of `simulate --headless` (simulation.md): lines of the script language read from
/// stdin, each TIME counted from the moment its line is read, become the same edges a script
/// makes, delivered at their real times. Stdin, the stop signals' pipe and the fleet station's
/// socket (both `PollSource`s) are waited on in one `SystemCall.poll`, the loop's one blocking
/// point, to the nanosecond. SIGTERM, SIGINT or an `end` line stop it; the end of stdin does
/// not. Nothing wakes it while idle but the station's keep-alive.
public final class HeadlessInputs: SimulatedInputs {
    private let now: () -> Duration
    private let queue: EdgeQueue
    private let sources: [any PollSource]
    private let stopSignals: StopSignals
    private let log: (String) -> Void
    private var input: Int32 = 0
    private var buffered: [UInt8] = []
    private var endAt: Duration?
    /// Where `tap` lines put their cards: the reader the kiosk's card source asks.
    private let cardReader: SimulatedCardReader?
    /// Has the card source ask the reader now; called when a tap's card comes into the field
    /// and when it leaves, so the source need not ask it many times a second (no idle wake-up).
    private let askReader: () -> Void
    /// When the reader must be asked next: a tap's start and end.
    private var asks: [Duration] = []

    /// Reads script lines from `fd` (closed at its end); `now` is the kiosk's timeline; stops
    /// when `stopSignals` has a signal; `sources` (the fleet station) are polled too.
    public init(
        fd: Int32 = 0, stopSignals: StopSignals, sources: [any PollSource], now: @escaping () -> Duration,
        cardReader: SimulatedCardReader? = nil, askReader: @escaping () -> Void = {}, log: @escaping (String) -> Void
    ) {
        self.cardReader = cardReader
        self.askReader = askReader
        self.now = now
        self.stopSignals = stopSignals
        self.sources = [stopSignals] + sources
        self.log = log
        input = fd
        queue = EdgeQueue(buttons: SimulatedDevices.buttonNames)
    }

    public var lines: [String: SimulatedLine] { queue.lines }

    /// True once a stop signal or an `end` line's time has come.
    public var stopRequested: Bool {
        stopSignals.stopRequested || endAt.map { now() >= $0 } == true
    }

    public func wait(timeout: Duration?) throws(HALError) -> [InputEdge] {
        let deadline = timeout.map { now() + max($0, .zero) }
        while !stopRequested {
            let t = now()
            if asks.contains(where: { $0 <= t }) {
                asks.removeAll { $0 <= t }
                askReader()
            }
            let due = queue.deliver(through: t, now: t)
            if !due.isEmpty { return due }
            if let deadline, t >= deadline { return [] }
            var limit = [deadline, queue.nextEdgeTime, endAt, asks.min()].compactMap { $0 }.min()
            if let until = limit { limit = max(.zero, until - t) }
            var fds = [pollfd(fd: input, events: Int16(POLLIN), revents: 0)] + sources.pollRequests
            // To the nanosecond: the deadline is kept to the kernel's precision, with no second sleep.
            guard try SystemCall.poll(&fds, timeout: limit, device: "headless inputs") > 0 else { continue }
            if fds[0].revents != 0 { readLines() }
            // A stop, or the station may have commands for the kiosk: let the loop look.
            let woke = sources.serve(fds[1...])
            if woke { return queue.deliver(through: now(), now: now()) }
        }
        return []
    }

    /// Reads what stdin has and schedules each complete line.
    private func readLines() {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let got = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
        if got < 0 && errno == EINTR { return }
        guard got > 0 else {
            // The end of stdin: a station runs on with it closed.
            input = -1
            return
        }
        buffered += chunk.prefix(got)
        while let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
            let line = String(decoding: buffered[..<newline], as: UTF8.self)
            buffered.removeSubrange(...newline)
            schedule(line, readAt: now())
        }
    }

    /// One script line, its time counted from `readAt`.
    private func schedule(_ line: String, readAt: Duration) {
        let words = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first?
            .split(separator: " ", omittingEmptySubsequences: true) ?? []
        guard let first = words.first else { return }
        if words.count == 2, words[1] == "end", let seconds = Double(first), seconds >= 0 {
            endAt = readAt + .nanoseconds(Int64(seconds * 1e9))
            return
        }
        do {
            let script = try ScriptParser().parse(line + "\n1000000 end")
            if script.steps.contains(where: { $0.action == .restart }) {
                log("headless: `restart` is not available here (kill the station and start it again)")
                return
            }
            queue.schedule(ScriptedInputs.gestures(for: script).map { $0.delayed(by: readAt) })
            for step in script.steps {
                guard case .tap(let card) = step.action, let cardReader else { continue }
                cardReader.tap(card, at: readAt + step.time)
                asks += [readAt + step.time, readAt + step.time + SimulatedCardReader.tapLength]
            }
        } catch {
            log("headless: stdin line \"\(line)\": \(error.message)")
        }
    }
}
