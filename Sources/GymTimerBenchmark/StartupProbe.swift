#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import GymTimerCore
import GymTimerHAL
import GymTimerRuntime
import GymTimerSimulation
import GymTimerSimulator
import SystemPackage
import GymTimerSystem

/// Start-up time: spawns the gymtimer binary with its hidden `ready-probe` subcommand, which
/// builds the kiosk like `gymtimer run` would (config, devices, runtime), writes its first
/// outputs, prints `ready` and its own peak RSS so far (`ready 15360000`) and exits. The time
/// from spawn to reading `ready` is the start-up. The peak comes from the child itself because
/// `wait4`'s `ru_maxrss` would be at least the bench's own (see `imagePeakResidentBytes`).
public enum StartupProbe {
    /// The line the probe prints once the runtime's first outputs are written.
    public static let readyLine = "ready"

    /// One spawn's figures.
    public struct Sample: Hashable, Sendable {
        public var startup: Duration
        public var child: ResourceUsage
    }

    /// What the probe subcommand runs in the child: the first outputs, then `ready` and the peak.
    public static func runProbe(settings: KioskSettings) {
        let devices = SimulatedDevices()
        let clock = ContinuousClock()
        let origin = clock.now
        let inputs = RealTimeInputs(buttons: SimulatedDevices.buttonNames, now: { origin.duration(to: clock.now) })
        let runtime = KioskRuntime(
            kiosk: Kiosk(settings: settings), clock: clock, origin: origin,
            devices: devices.kioskDevices(inputs: inputs), history: InMemoryHistory(), faults: FaultLog(sink: { _ in }))
        runtime.start()
        let peak = ResourceUsage.imagePeakResidentBytes().map { " \($0)" } ?? ""
        let line = Array((readyLine + peak + "\n").utf8)
        _ = line.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
    }

    /// Spawns `executable ready-probe` once; nil (with the reason) when it cannot be run.
    public static func measure(executable: String) -> Result<Sample, ProbeError> {
        var pipeFDs: [Int32] = [0, 0]
        guard pipe(&pipeFDs) == 0 else { return .failure(ProbeError("pipe failed: errno \(errno)")) }
        let (readEnd, writeEnd) = (pipeFDs[0], pipeFDs[1])
        defer { close(readEnd) }
        #if canImport(Glibc)
        var actions = posix_spawn_file_actions_t()
        #else
        var actions: posix_spawn_file_actions_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_addclose(&actions, readEnd)
        let args = [executable, "ready-probe"]
        var argv: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
        defer { for arg in argv { free(arg) } }
        var pid: pid_t = 0
        let clock = ContinuousClock()
        let started = clock.now
        let spawned = posix_spawn(&pid, executable, &actions, nil, &argv, environ)
        close(writeEnd)
        guard spawned == 0 else {
            return .failure(ProbeError("cannot run \(executable): \(Errno(rawValue: spawned).text)"))
        }
        var output: [UInt8] = []
        var ready: Duration?
        var buffer = [UInt8](repeating: 0, count: 256)
        while ready == nil {
            let n = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            output += buffer[..<n]
            if output.contains(10) { ready = started.duration(to: clock.now) }
        }
        var status: Int32 = 0
        var usage = rusage()
        _ = SystemCall.retryingInterrupts { wait4(pid, &status, 0, &usage) }
        let text = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .newlines)
        let words = text.split(separator: " ")
        guard let ready, words.first.map(String.init) == readyLine, words.count <= 2 else {
            return .failure(ProbeError("\(executable) ready-probe did not report ready (printed '\(text)')"))
        }
        var child = ResourceUsage(usage)
        if let own = words.dropFirst().first.flatMap({ Int($0) }) { child.peakResidentBytes = own }
        return .success(Sample(startup: ready, child: child))
    }

    /// Why the probe could not be measured.
    public struct ProbeError: Error, Hashable, Sendable, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }
}
