#if canImport(Glibc)
import Glibc
#endif
import GymTimerHAL
import GymTimerFleet
import GymTimerFleetLink
import GymTimerMQTT
import GymTimerRuntime
import GymTimerSimulation

/// SIGTERM or SIGINT arrived (set by the handler `HeadlessInputs` installs).
nonisolated(unsafe) private var stopSignalled: sig_atomic_t = 0
/// The write end of the self-pipe the handler wakes `poll` through.
nonisolated(unsafe) private var stopPipeWrite: Int32 = -1

/// The hands of `simulate --headless` (simulation.md): lines of the script language read from
/// stdin, each TIME counted from the moment its line is read, become the same edges a script
/// makes, delivered at their real times; the fleet station's socket is polled in the same
/// `poll(2)`, which is the loop's one blocking point (`SystemCall.poll`: ppoll, so deadlines
/// are kept to the kernel's precision, not poll's millisecond). SIGTERM, SIGINT or an `end` line stop
/// it; the end of stdin does not. Nothing wakes it while idle but the station's keep-alive.
public final class HeadlessInputs: SimulatedInputs {
    private let now: () -> Duration
    private let queue: EdgeQueue
    private let station: FleetStation?
    private let log: (String) -> Void
    private var input: Int32 = 0
    private var buffered: [UInt8] = []
    private var endAt: Duration?
    /// The read end of the stop signals' self-pipe.
    private var stopPipe: Int32 = -1

    /// Reads script lines from `fd` (closed at its end); `now` is the kiosk's timeline.
    public init(fd: Int32 = 0, station: FleetStation?, now: @escaping () -> Duration, log: @escaping (String) -> Void) {
        self.now = now
        self.station = station
        self.log = log
        input = fd
        queue = EdgeQueue(buttons: SimulatedDevices.buttonNames)
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            stopPipe = ends[0]
            stopPipeWrite = ends[1]
            _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
        }
        let handler: @convention(c) (Int32) -> Void = { _ in
            stopSignalled = 1
            var byte: UInt8 = 1
            _ = write(stopPipeWrite, &byte, 1)
        }
        signal(SIGTERM, handler)
        signal(SIGINT, handler)
        // Started from a thread that blocks them (a test runner's), the process would never see them.
        var stops = sigset_t()
        sigemptyset(&stops)
        sigaddset(&stops, SIGTERM)
        sigaddset(&stops, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &stops, nil)
    }

    public var lines: [String: SimulatedLine] { queue.lines }

    /// True once a stop signal or an `end` line's time has come.
    public var stopRequested: Bool {
        stopSignalled != 0 || endAt.map { now() >= $0 } == true
    }

    public func wait(timeout: Duration?) throws(HALError) -> [InputEdge] {
        let deadline = timeout.map { now() + max($0, .zero) }
        while !stopRequested {
            let t = now()
            let due = queue.deliver(through: t, now: t)
            if !due.isEmpty { return due }
            if let deadline, t >= deadline { return [] }
            var limit = [deadline, queue.nextEdgeTime, endAt].compactMap { $0 }.min()
            if let until = limit { limit = max(.zero, until - t) }
            var fds: [pollfd] = [pollfd(fd: stopPipe, events: Int16(POLLIN), revents: 0)]
            if input >= 0 { fds.append(pollfd(fd: input, events: Int16(POLLIN), revents: 0)) }
            let request = station?.pollRequest
            if let request { fds.append(request) }
            // To the nanosecond: the deadline is kept to the kernel's precision, with no second sleep.
            guard try SystemCall.poll(&fds, timeout: limit, device: "headless inputs") > 0 else { continue }
            var woke = false
            for fd in fds where fd.revents != 0 {
                if fd.fd == stopPipe {
                    continue
                } else if fd.fd == input {
                    readLines()
                } else {
                    station?.serve(revents: fd.revents)
                    // The station may have commands for the kiosk: let the loop look.
                    woke = true
                }
            }
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
        } catch {
            log("headless: stdin line \"\(line)\": \(error.message)")
        }
    }
}
