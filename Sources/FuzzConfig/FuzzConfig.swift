import GymTimerConfig
#if !FUZZING
import Foundation
#endif

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
    FuzzConfig.check(size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : [])
    return 0
}

#if FUZZING
/// libFuzzer's entry point (built with `-sanitize=fuzzer`, see scripts/fuzz.sh); only then, as
/// every fuzz target defines it and the test build links them all.
@_cdecl("LLVMFuzzerTestOneInput")
public func llvmFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzConfigOneInput(data, size)
}

/// SwiftPM links an executable's entry point under this name (`main` is an alias for it), so
/// with `-sanitize=fuzzer` it hands control to libFuzzer's driver.
@_cdecl("FuzzConfig_main")
public func fuzzConfigMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, fuzzConfigOneInput)
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt
#else
/// Without libFuzzer: replays the files given as arguments (a corpus or a crash input).
@main
enum FuzzConfigReplay {
    static func main() {
        for path in CommandLine.arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("cannot read \(path)\n".utf8))
                continue
            }
            FuzzConfig.check([UInt8](data))
        }
    }
}
#endif
