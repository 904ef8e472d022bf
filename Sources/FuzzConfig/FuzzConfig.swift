import FuzzSupport
import GymTimerConfig

/// Fuzz target for the config parser (TOML, then every key's validation): any bytes must
/// give a configuration or a `ConfigError` listing problems, never a crash.
enum FuzzConfig {
    static func check(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        do {
            let configuration = try GymTimerConfiguration.parse(text)
            let rest = configuration.kiosk.rest
            precondition(rest.minSeconds <= rest.defaultSeconds && rest.defaultSeconds <= rest.maxSeconds,
                         "accepted a default rest outside min...max")
        } catch {
            precondition(!error.problems.isEmpty, "refused a config without naming a problem")
        }
    }
}

/// One input, as libFuzzer gives it (and the corpus replay test).
public func fuzzConfigOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzConfig.check(FuzzHarness.bytes(data, size))
    return 0
}

#if FUZZING
/// libFuzzer's entry point; only in the fuzzing build, as every fuzz target defines it and the
/// test build links them all.
@_cdecl("LLVMFuzzerTestOneInput")
public func llvmFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzConfigOneInput(data, size)
}

/// SwiftPM links an executable's entry point under this name, so with `-sanitize=fuzzer` it
/// hands control to libFuzzer's driver.
@_cdecl("FuzzConfig_main")
public func fuzzConfigMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzHarness.runDriver(argc, argv, fuzzConfigOneInput)
}
#else
/// Without libFuzzer: replays the files given as arguments (a corpus or a crash input).
@main
enum FuzzConfigReplay {
    static func main() { FuzzHarness.replay(CommandLine.arguments, FuzzConfig.check) }
}
#endif
