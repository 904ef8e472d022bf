import Foundation
import GymTimerHAL
import SystemPackage

/// Runs a helper program (espeak-ng, a child copy of gymtimer) to its end and says how it
/// ended, with posix_spawn, a pipe for its standard error and waitpid.
///
/// Foundation's `Process` is not used: on Linux it watches children from a run-loop thread
/// whose wake-up socket is an AF_INET one, which the hardened service refuses
/// (`RestrictAddressFamilies=AF_UNIX`), and there `waitUntilExit` never returned.
public struct ChildProcess: Sendable {
    /// The program's path (no PATH lookup).
    public var executable: String
    /// Its arguments, without the program name.
    public var arguments: [String]
    /// Its whole environment.
    public var environment: [String: String]
    /// Killed with SIGKILL if still running after this long; nil waits for ever.
    public var timeout: Duration?
    /// Whether its standard output goes to the same capture as its standard error (`2>&1`:
    /// `Outcome.standardError` then holds both, in the order written), instead of /dev/null.
    public var capturesStandardOutput = false

    public init(
        executable: String, arguments: [String] = [],
        environment: [String: String] = ProcessInfo.processInfo.environment, timeout: Duration? = nil
    ) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.timeout = timeout
    }

    /// How a child ended.
    public struct Outcome: Hashable, Sendable {
        /// The raw status from waitpid.
        public var waitStatus: Int32
        /// What it wrote to standard error (at most the first 64 KiB).
        public var standardError: String
        /// True if it was killed for running longer than `timeout`.
        public var timedOut: Bool

        /// Its exit code, or nil if a signal ended it.
        public var exitCode: Int32? { waitStatus & 0x7f == 0 ? (waitStatus >> 8) & 0xff : nil }
        /// The signal that ended it, or nil if it exited.
        public var signal: Int32? { waitStatus & 0x7f == 0 ? nil : waitStatus & 0x7f }
    }

    /// Why a child could not be run at all.
    public struct SpawnError: Error, Hashable, Sendable, CustomStringConvertible {
        public var executable: String
        public var errno: Int32
        public var description: String { "cannot start \(executable): \(Errno(rawValue: errno).text)" }
    }

    private static let captureLimit = 64 * 1024

    /// Starts the program with standard input and output on /dev/null and waits for it.
    public func run() throws(SpawnError) -> Outcome {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw SpawnError(executable: executable, errno: errno) }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        // Close-on-exec, so no other child holds the pipe open (the child gets its own copy as fd 2).
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        defer { close(readEnd) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if capturesStandardOutput {
            posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 2)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }

        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        close(writeEnd)
        guard spawned == 0 else { throw SpawnError(executable: executable, errno: spawned) }

        let (captured, timedOut) = readUntilClosed(readEnd, pid: pid)
        var status: Int32 = 0
        _ = SystemCall.retryingInterrupts { waitpid(pid, &status, 0) }
        return Outcome(waitStatus: status, standardError: String(decoding: captured, as: UTF8.self), timedOut: timedOut)
    }

    /// Reads the child's standard error until it closes, killing the child at the deadline.
    private func readUntilClosed(_ fd: Int32, pid: pid_t) -> (output: [UInt8], timedOut: Bool) {
        let clock = ContinuousClock()
        let deadline = timeout.map { clock.now.advanced(by: $0) }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var timedOut = false
        while true {
            let left = timedOut ? nil : deadline.map { clock.now.duration(to: $0) }
            var descriptor = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            let ready: Int
            do {
                ready = try SystemCall.poll(&descriptor, timeout: left, device: "\(executable)'s standard error")
            } catch {
                return (output, timedOut)
            }
            if ready == 0 {
                // Past the deadline: kill it; its end of the pipe closes as it dies.
                kill(pid, SIGKILL)
                timedOut = true
                continue
            }
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return (output, timedOut) }
            if output.count < Self.captureLimit { output += buffer[..<min(count, Self.captureLimit - output.count)] }
        }
    }
}
