import ArgumentParser
import Foundation
import GymTimerBenchmark

/// `gymtimer bench`: the kiosk's latency, timing accuracy, idle cost, memory, start-up and
/// simulator throughput, measured on this machine against their targets.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure latency, timing accuracy, idle cost, memory and start-up against their targets.",
        discussion: "Runs the real event loop on the real clock with simulated devices (about two minutes; --quick takes seconds). Missed targets are printed as MISSED; the exit status is 0 either way.")

    @Flag(name: .long, help: "Shortened runs, for tests and CI (figures are indicative only).")
    var quick = false

    @Flag(name: .long, help: "Print the report as one JSON object instead of a table.")
    var json = false

    @Option(name: .long, parsing: .upToNextOption,
            help: "Only these measurements (\(KioskBenchmark.Measurement.allCases.map(\.rawValue).joined(separator: ", "))); all when not given.")
    var only: [String] = []

    func run() throws {
        let executable = Self.ownExecutable()
        var options = quick ? KioskBenchmark.Options.quick(executable: executable) : KioskBenchmark.Options(executable: executable)
        options.executable = executable
        if !only.isEmpty {
            let chosen = only.compactMap(KioskBenchmark.Measurement.init(rawValue:))
            guard chosen.count == only.count else {
                throw ValidationError("--only takes \(KioskBenchmark.Measurement.allCases.map(\.rawValue).joined(separator: ", ")); got \(only.joined(separator: " "))")
            }
            options.only = Set(chosen)
        }
        let report = KioskBenchmark(options: options, progress: { StandardError.writeLine("bench: \($0)") }).run()
        let output = StandardOutput()
        output.writeLine(json ? report.json : report.table)
        output.flush()
    }

    /// This binary's path, so the start-up probe spawns the same build.
    static func ownExecutable() -> String? {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        let argument = CommandLine.arguments.first ?? ""
        return argument.contains("/") ? argument : nil
    }
}
