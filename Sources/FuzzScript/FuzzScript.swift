import GymTimerSimulation
#if !FUZZING
import Foundation
#endif

/// Fuzz target for the simulation script parser: any bytes must give a script or a
/// `ScriptError`, never a crash, and an accepted script must keep its promises (times in
/// order, nothing after `end`).
enum FuzzScript {
    static func check(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let script = try? ScriptParser().parse(text) else { return }
        var last = Duration.zero
        for step in script.steps {
            precondition(step.time >= last, "accepted a script with decreasing times")
            last = step.time
        }
        precondition(script.end >= last, "accepted a script whose end comes before its steps")
    }
}

/// One input, as libFuzzer gives it (and the corpus replay test).
public func fuzzScriptOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzScript.check(size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : [])
    return 0
}

#if FUZZING
/// libFuzzer's entry point (built with `-sanitize=fuzzer`, see scripts/fuzz.sh); only then, as
/// every fuzz target defines it and the test build links them all.
@_cdecl("LLVMFuzzerTestOneInput")
public func llvmFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzScriptOneInput(data, size)
}

/// SwiftPM links an executable's entry point under this name (`main` is an alias for it), so
/// with `-sanitize=fuzzer` it hands control to libFuzzer's driver.
@_cdecl("FuzzScript_main")
public func fuzzScriptMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, fuzzScriptOneInput)
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt
#else
/// Without libFuzzer: replays the files given as arguments (a corpus or a crash input).
@main
enum FuzzScriptReplay {
    static func main() {
        for path in CommandLine.arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("cannot read \(path)\n".utf8))
                continue
            }
            FuzzScript.check([UInt8](data))
        }
    }
}
#endif
