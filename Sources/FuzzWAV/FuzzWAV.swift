import GymTimerDrivers
import Foundation

/// Fuzz target for the WAV reader: any bytes must decode or throw a `WAVError`, never crash;
/// decoded audio must be usable (samples present, a positive rate) and convertible to the
/// output rate.
enum FuzzWAV {
    static func check(_ bytes: [UInt8]) {
        guard let contents = try? WAVReader.decode(Data(bytes), file: "fuzz.wav") else { return }
        precondition(!contents.samples.isEmpty && contents.sampleRate > 0, "decoded unusable audio")
        _ = WAVReader.resample(contents.samples, from: contents.sampleRate, to: 48_000)
    }
}

/// One input, as libFuzzer gives it (and the corpus replay test).
public func fuzzWAVOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzWAV.check(size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : [])
    return 0
}

#if FUZZING
/// libFuzzer's entry point (built with `-sanitize=fuzzer`, see scripts/fuzz.sh); only then, as
/// every fuzz target defines it and the test build links them all.
@_cdecl("LLVMFuzzerTestOneInput")
public func llvmFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzWAVOneInput(data, size)
}

/// SwiftPM links an executable's entry point under this name (`main` is an alias for it), so
/// with `-sanitize=fuzzer` it hands control to libFuzzer's driver.
@_cdecl("FuzzWAV_main")
public func fuzzWAVMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, fuzzWAVOneInput)
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt
#else
/// Without libFuzzer: replays the files given as arguments (a corpus or a crash input).
@main
enum FuzzWAVReplay {
    static func main() {
        for path in CommandLine.arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("cannot read \(path)\n".utf8))
                continue
            }
            FuzzWAV.check([UInt8](data))
        }
    }
}
#endif
