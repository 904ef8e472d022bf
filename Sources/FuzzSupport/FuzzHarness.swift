import Foundation

/// What every fuzz target shares: turning libFuzzer's buffer into bytes, handing control to
/// libFuzzer's driver (when built with `-sanitize=fuzzer -DFUZZING`, see scripts/fuzz.sh), and,
/// built normally, replaying the files named on the command line (a corpus or a crash input).
/// Each target keeps only its check and the two entry points whose names must be its own.
public enum FuzzHarness {
    /// The input libFuzzer (or the replay test) hands over, as bytes.
    public static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
        size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
    }

    /// Runs `check` on each file named in `arguments` (after the program name).
    public static func replay(_ arguments: [String], _ check: ([UInt8]) -> Void) {
        for path in arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("cannot read \(path)\n".utf8))
                continue
            }
            check([UInt8](data))
        }
    }

    #if FUZZING
    /// Hands control to libFuzzer's driver with `test` as the target.
    public static func runDriver(
        _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
        _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) -> CInt {
        var argc = argc
        var argv = argv
        return LLVMFuzzerRunDriver(&argc, &argv, test)
    }
    #endif
}

#if FUZZING
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt
#endif
