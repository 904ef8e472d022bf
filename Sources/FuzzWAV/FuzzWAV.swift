import FuzzSupport
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
    FuzzWAV.check(FuzzHarness.bytes(data, size))
    return 0
}

#if FUZZING
/// libFuzzer's entry point; only in the fuzzing build, as every fuzz target defines it and the
/// test build links them all.
@_cdecl("LLVMFuzzerTestOneInput")
public func llvmFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzWAVOneInput(data, size)
}

/// SwiftPM links an executable's entry point under this name, so with `-sanitize=fuzzer` it
/// hands control to libFuzzer's driver.
@_cdecl("FuzzWAV_main")
public func fuzzWAVMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzHarness.runDriver(argc, argv, fuzzWAVOneInput)
}
#else
/// Without libFuzzer: replays the files given as arguments (a corpus or a crash input).
@main
enum FuzzWAVReplay {
    static func main() { FuzzHarness.replay(CommandLine.arguments, FuzzWAV.check) }
}
#endif
