import FuzzSupport
import GymTimerConfig
import GymTimerCore
import GymTimerSimulator
import GymTimerSimulation

/// Fuzz target for the simulation script parser and the simulator behind it: any bytes must
/// give a script or a `ScriptError`, never a crash, and an accepted script must keep its
/// promises (times in order, nothing after `end`). An accepted script of at most `maxEnd` of
/// virtual time is then run, whole kiosk and all, so a line that parses but traps or hangs
/// the simulator (`turn` of a huge count) is found too. An input whose first line is
/// `# fleet` runs with a `[fleet]`: its `fleet` and `broker` lines reach the hosted station.
enum FuzzScript {
    /// The longest script run (virtual time), to keep each input fast.
    static let maxEnd: Duration = .seconds(600)
    /// What marks an input that runs with a fleet station.
    static let fleetMark = "# fleet"

    /// The defaults and a `[fleet]`, built rather than parsed (TOMLKit leaks what it parses,
    /// which would stop LeakSanitizer at the first input).
    static let fleetConfiguration = GymTimerConfiguration(
        fleet: FleetSettings(broker: .init(host: "gym.local", port: 1883, tls: false), station: "rack-1", homeAssistant: false))

    /// Whether `text` asks for a fleet station.
    static func wantsFleet(_ text: String) -> Bool { text.hasPrefix(fleetMark) }

    static func check(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let fleet = wantsFleet(text)
        guard let script = try? ScriptParser(fleet: fleet).parse(text) else { return }
        var last = Duration.zero
        for step in script.steps {
            precondition(step.time >= last, "accepted a script with decreasing times")
            last = step.time
        }
        precondition(script.end >= last, "accepted a script whose end comes before its steps")
        guard script.end <= maxEnd else { return }
        do {
            let simulation = try ScriptedSimulation(
                script: script, settings: KioskSettings(), fleet: fleet ? fleetConfiguration : nil, write: { _ in })
            try simulation.run()
        } catch {
            preconditionFailure("an accepted script failed to run: \(error)")
        }
    }
}

/// One input, as libFuzzer gives it (and the corpus replay test).
public func fuzzScriptOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzScript.check(FuzzHarness.bytes(data, size))
    return 0
}

#if FUZZING
/// libFuzzer's entry point; only in the fuzzing build, as every fuzz target defines it and the
/// test build links them all.
@_cdecl("LLVMFuzzerTestOneInput")
public func llvmFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzScriptOneInput(data, size)
}

/// SwiftPM links an executable's entry point under this name, so with `-sanitize=fuzzer` it
/// hands control to libFuzzer's driver.
@_cdecl("FuzzScript_main")
public func fuzzScriptMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzHarness.runDriver(argc, argv, fuzzScriptOneInput)
}
#else
/// Without libFuzzer: replays the files given as arguments (a corpus or a crash input).
@main
enum FuzzScriptReplay {
    static func main() { FuzzHarness.replay(CommandLine.arguments, FuzzScript.check) }
}
#endif
