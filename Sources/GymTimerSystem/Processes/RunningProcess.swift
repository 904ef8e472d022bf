import Foundation
import Glibc
import GymTimerHAL
import SystemPackage

/// A process left running beside this one (a broker, a headless station, a collector: the
/// fleet's tests and benchmark start them), spawned with no blocked signals and default handlers: Swift's worker threads block SIGTERM and friends, and a
/// child started from one (as Foundation's `Process` does) would inherit that mask and ignore
/// SIGTERM for ever (Mosquitto never stops, a station never shuts down cleanly).
public final class RunningProcess {
    public let pid: pid_t
    /// Where the child's stdin is written, when it was asked for one.
    public private(set) var input: Int32 = -1
    private var exited: Int32?

    /// Starts `path` with `arguments`; stdout and stderr go to the files named (or /dev/null),
    /// stdin is a pipe when `pipeInput`.
    public init(_ path: String, _ arguments: [String], stdout: String? = nil, stderr: String? = nil, pipeInput: Bool = false) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var pipeEnds: [Int32] = [-1, -1]
        if pipeInput {
            guard pipe(&pipeEnds) == 0 else { throw Errno.last }
            // Close-on-exec, so no other child holds the pipe open (this one gets its copy as fd 0).
            _ = fcntl(pipeEnds[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(pipeEnds[1], F_SETFD, FD_CLOEXEC)
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[0], 0)
            posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 1, stdout ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderr ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let code = posix_spawn(&child, path, &actions, &attributes, argv, environ)
        if pipeInput { close(pipeEnds[0]) }
        guard code == 0 else {
            if pipeInput { close(pipeEnds[1]) }
            throw Errno(rawValue: code)
        }
        pid = child
        input = pipeInput ? pipeEnds[1] : -1
    }

    deinit {
        if exited == nil { _ = kill(pid, SIGKILL); _ = wait() }
        if input >= 0 { close(input) }
    }

    /// Writes `line` and a newline to the child's stdin.
    /// A child that has already ended (or could not start) does not take the caller down: the
    /// SIGPIPE of writing to its closed pipe is held back for this write and discarded.
    public func send(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        let written = bytes.withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
        if written < 0 && errno == EPIPE {
            var now = timespec(tv_sec: 0, tv_nsec: 0)
            _ = sigtimedwait(&pipeSignal, nil, &now)
        }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
    }

    /// Sends `signal`.
    public func signal(_ signal: Int32) { _ = kill(pid, signal) }

    /// Waits for the child to end; its exit status (128 + signal when killed).
    @discardableResult
    public func wait() -> Int32 {
        if let exited { return exited }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        exited = code
        return code
    }

    /// Waits up to `seconds` for the child to end; nil if it still runs.
    public func wait(upTo seconds: Double) -> Int32? {
        // Elapsed time: the monotonic clock, which a step of the wall clock does not move.
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if let exited { return exited }
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid {
                exited = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
                return exited
            }
            var none = pollfd()
            _ = poll(&none, 0, 10)
        }
        return nil
    }
}
