import FuzzSupport
import GymTimerCore
import GymTimerFleet

/// Fuzz target for the fleet's command parser (fleet.md): any payload must give a command or
/// a `FleetCommandError` naming why, never a crash; what it accepts keeps to the spec's limits.
enum FuzzCommand {
    static func check(_ bytes: [UInt8]) {
        switch FleetCommand.parse(bytes) {
        case .success(let command):
            precondition(bytes.count <= FleetCommand.maximumSize, "accepted a payload over the size limit")
            switch command {
            case .start(let at):
                precondition(at.map { $0.isFinite && $0 > 0 } ?? true, "accepted a bad at")
                // The window check must take any accepted `at` without trapping, and keep to it.
                if let at, case .success(let delay) = FleetCommand.startDelay(at: at, wall: .fixed(1_767_225_600)) {
                    precondition(delay >= .seconds(-3) && delay <= .seconds(86_401), "accepted an at outside the window")
                }
            case .classStart(let at, .named(let mode, let name)):
                precondition(at.isFinite && at > 0 && FleetCommand.modes.contains(mode), "accepted a bad class start")
                precondition(name.map { !$0.isEmpty && $0.utf8.count <= 64 } ?? true, "accepted a bad name")
            case .classStart(let at, .defined(let program)):
                precondition(at.isFinite && at > 0, "accepted a bad class start")
                // A definition keeps to a config's limits, and reads back as itself.
                precondition(Program.nameProblem(program.name) == nil && Program.labelProblem(program.label) == nil,
                    "accepted a bad program name or label")
                precondition(program.numbers.allSatisfy { Program.numberLimits[$0.key]!.range.contains($0.value) },
                    "accepted a program number out of range")
                precondition(FleetCommand.parse(Array(command.json.utf8)) == .success(command), "a program does not survive its JSON")
            case .setRest(let seconds): precondition((1...3600).contains(seconds), "accepted rest seconds out of range")
            case .select(let mode, let name):
                precondition(FleetCommand.modes.contains(mode), "accepted an unknown mode")
                precondition(name.map { !$0.isEmpty && $0.utf8.count <= 64 } ?? true, "accepted a bad name")
            case .message(let text, let seconds):
                precondition(!text.isEmpty && text.count <= 64 && (1...60).contains(seconds), "accepted a bad message")
                // What the coach's tools publish for it reads back as the same command.
                precondition(FleetCommand.parse(Array(command.json.utf8)) == .success(command), "a message does not survive its JSON")
            case .brightness(let percent): precondition((0...100).contains(percent), "accepted a brightness out of range")
            case .sleep(let window):
                if let window {
                    precondition((0..<1440).contains(window.from) && (0..<1440).contains(window.until) && window.from != window.until,
                        "accepted a bad sleep window")
                }
                precondition(FleetCommand.parse(Array(command.json.utf8)) == .success(command), "a sleep window does not survive its JSON")
            case .athlete(let tap):
                precondition(tap.map { $0.shortName.map(DisplayContent.canDraw) ?? true } ?? true, "accepted a short name no digit draws")
                precondition(tap?.bests == nil, "a command carried bests (only the gym's cards do)")
                precondition(FleetCommand.parse(Array(command.json.utf8)) == .success(command), "an athlete does not survive its JSON")
            case .forget:
                precondition(FleetCommand.parse(Array(command.json.utf8)) == .success(command), "a forget does not survive its JSON")
            case .dismiss, .pause, .resume, .reset, .lock, .unlock, .cancel, .ping, .upgrade: break
            }
        case .failure(let error):
            precondition(!error.description.isEmpty && !error.kind.isEmpty, "refused a command without saying why")
            precondition(error.description.utf8.count < 512, "an error message repeats too much of the payload")
        }
        checkClassRecord(bytes)
    }

    /// The same bytes as a class's retained instants (`FleetClassRecord`): a record within the
    /// limits, or a refusal saying why; one accepted is followed by a station without trapping.
    static func checkClassRecord(_ bytes: [UInt8]) {
        switch FleetClassRecord.parse(bytes) {
        case .success(let record?):
            precondition(record.pauses.count <= ClassTimeline.maximumPauses && !record.id.isEmpty, "accepted a record out of limits")
            precondition((try? FleetClassRecord.parse(Array(record.json.utf8)).get()) != nil, "a record does not read back")
            let now = 1_767_225_600.0
            if let timeline = record.timeline(wall: .fixed(now), moment: { Moment(nanoseconds: Int64((($0 - now) * 1e9).rounded())) }) {
                let leadIn = Duration.seconds(10)
                if timeline.problem(leadIn: leadIn) == nil { _ = timeline.timing(total: .seconds(3600), leadIn: leadIn) }
            }
        case .success(nil): precondition(bytes.isEmpty, "cleared by a payload that is not empty")
        case .failure(let error): precondition(!error.description.isEmpty, "refused a record without saying why")
        }
    }
}

/// One input, as libFuzzer gives it (and the corpus replay test).
public func fuzzCommandOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzCommand.check(FuzzHarness.bytes(data, size))
    return 0
}

#if FUZZING
/// libFuzzer's entry point; only in the fuzzing build, as every fuzz target defines it and the
/// test build links them all.
@_cdecl("LLVMFuzzerTestOneInput")
public func llvmFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzCommandOneInput(data, size)
}

/// SwiftPM links an executable's entry point under this name, so with `-sanitize=fuzzer` it
/// hands control to libFuzzer's driver.
@_cdecl("FuzzCommand_main")
public func fuzzCommandMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzHarness.runDriver(argc, argv, fuzzCommandOneInput)
}
#else
/// Without libFuzzer: replays the files given as arguments (a corpus or a crash input).
@main
enum FuzzCommandReplay {
    static func main() { FuzzHarness.replay(CommandLine.arguments, FuzzCommand.check) }
}
#endif
