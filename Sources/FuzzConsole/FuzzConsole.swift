import FuzzSupport
import GymTimerFleet
import GymTimerFleetCommands

/// Fuzz target for what the coach's console prints of a station's retained topics (anyone on
/// the broker can retain anything there): the bytes up to the first NUL are the `status`, the
/// rest the `state`. Every cell of the row must be printable (no control or formatting
/// character reaches the terminal) and bounded, and nothing may trap.
enum FuzzConsole {
    /// The instant the row's countdown is worked out for.
    static let now = 1_767_225_600.0

    static func row(_ bytes: [UInt8]) -> FleetConsole.Station {
        let split = bytes.firstIndex(of: 0) ?? bytes.endIndex
        let status = String(decoding: bytes[..<split], as: UTF8.self)
        let state = split < bytes.endIndex ? JSONValue.parse(Array(bytes[(split + 1)...])) : nil
        return FleetConsole.station("rack-1", status: status, state: state, now: now)
    }

    static func check(_ bytes: [UInt8]) {
        let row = row(bytes)
        for cell in [row.name, row.status, row.mode, row.phase, row.left, row.display, row.sleep, row.asleep] {
            precondition(cell.count <= 24, "a cell wider than its bound: \(cell.count) characters")
            precondition(!cell.unicodeScalars.contains { scalar in
                switch scalar.properties.generalCategory {
                case .control, .format, .surrogate, .privateUse, .unassigned, .lineSeparator, .paragraphSeparator: true
                default: false
                }
            }, "a cell carries a control or formatting character")
        }
    }
}

/// One input, as libFuzzer gives it (and the corpus replay test).
public func fuzzConsoleOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzConsole.check(FuzzHarness.bytes(data, size))
    return 0
}

/// The row the replay test compares with its expectation.
public func fuzzConsoleOutcome(_ bytes: [UInt8]) -> String {
    let row = FuzzConsole.row(bytes)
    return [row.status, row.mode, row.phase, row.left, row.display].joined(separator: " | ")
}

#if FUZZING
/// libFuzzer's entry point; only in the fuzzing build, as every fuzz target defines it and the
/// test build links them all.
@_cdecl("LLVMFuzzerTestOneInput")
public func llvmFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzConsoleOneInput(data, size)
}

/// SwiftPM links an executable's entry point under this name, so with `-sanitize=fuzzer` it
/// hands control to libFuzzer's driver.
@_cdecl("FuzzConsole_main")
public func fuzzConsoleMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzHarness.runDriver(argc, argv, fuzzConsoleOneInput)
}
#else
/// Without libFuzzer: replays the files given as arguments (a corpus or a crash input).
@main
enum FuzzConsoleReplay {
    static func main() { FuzzHarness.replay(CommandLine.arguments, FuzzConsole.check) }
}
#endif
