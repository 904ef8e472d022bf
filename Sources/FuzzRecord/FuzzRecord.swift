import Foundation
import FuzzSupport
import GymTimerFleetLink
import GymTimerHistory

/// Fuzz target for the collector's record decoding (fleet.md, `P/workout`): any payload must
/// give a record or a refusal naming its kind, never a crash; what it accepts is plausible
/// (every number in the range the history trusts, the time between 2020 and a day after it
/// arrived, the id and station this topic's).
public enum FuzzRecord {
    /// The collector's clock in the fuzzer: fixed, so an input always gives the same outcome.
    public static let now = Date(timeIntervalSince1970: 1_767_700_000)

    public static func check(_ bytes: [UInt8]) {
        switch FleetWorkoutMessage.decode(bytes, station: "rack-1", receivedAt: now) {
        case .success(let workout):
            precondition(bytes.count <= FleetWorkoutMessage.maximumSize, "accepted a payload over the size limit")
            precondition(workout.station == "rack-1" && workout.id.hasPrefix("rack-1/"), "accepted another station's record")
            precondition(workout.implausibility(receivedAt: now) == nil, "accepted an implausible record")
            precondition((0...StoredWorkout.maximumSets).contains(workout.sets), "accepted sets out of range")
            precondition(workout.durationMilliseconds >= 0 && workout.durationMilliseconds <= StoredWorkout.maximumDurationMilliseconds,
                         "accepted a duration out of range")
            precondition(workout.completedAt >= StoredWorkout.earliest && workout.completedAt <= now.addingTimeInterval(86_400),
                         "accepted a time out of range")
            // What the history computes with a stored record must not trap either.
            _ = workout.localDay.dayNumber
            _ = workout.duration
        case .failure(let refusal):
            precondition(!refusal.kind.isEmpty && !refusal.detail.isEmpty, "refused a record without saying why")
            precondition(refusal.detail.utf8.count < 512, "a refusal repeats too much of the payload")
            precondition(refusal.id.map { $0.hasPrefix("rack-1/") && $0.utf8.count <= StoredWorkout.maximumIDLength } ?? true,
                         "a refusal names an id that is not this station's")
        }
    }
}

/// One input, as libFuzzer gives it (and the corpus replay test).
public func fuzzRecordOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzRecord.check(FuzzHarness.bytes(data, size))
    return 0
}

#if FUZZING
/// libFuzzer's entry point; only in the fuzzing build, as every fuzz target defines it and the
/// test build links them all.
@_cdecl("LLVMFuzzerTestOneInput")
public func llvmFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzRecordOneInput(data, size)
}

/// SwiftPM links an executable's entry point under this name, so with `-sanitize=fuzzer` it
/// hands control to libFuzzer's driver.
@_cdecl("FuzzRecord_main")
public func fuzzRecordMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzHarness.runDriver(argc, argv, fuzzRecordOneInput)
}
#else
/// Without libFuzzer: replays the files given as arguments (a corpus or a crash input).
@main
enum FuzzRecordReplay {
    static func main() { FuzzHarness.replay(CommandLine.arguments, FuzzRecord.check) }
}
#endif
