#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// CPU time and peak resident memory from `getrusage(2)`, for the idle-cost and memory figures.
public struct ResourceUsage: Hashable, Sendable {
    /// User plus system CPU time.
    public var cpu: Duration
    /// Peak resident set size in bytes (`ru_maxrss`).
    public var peakResidentBytes: Int

    public init(cpu: Duration, peakResidentBytes: Int) {
        self.cpu = cpu
        self.peakResidentBytes = peakResidentBytes
    }

    /// This process image's own peak resident set in bytes (Linux: `VmHWM` in /proc/self/status),
    /// or nil where there is no such file. Unlike `ru_maxrss` it starts afresh at exec: a
    /// spawned child's `ru_maxrss` carries its parent's peak (the kernel keeps the larger of
    /// the replaced image's and the new one's), so a big parent would hide a small child.
    public static func imagePeakResidentBytes() -> Int? {
        #if os(Linux)
        guard let file = fopen("/proc/self/status", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard text.hasPrefix("VmHWM:") else { continue }
            // "VmHWM:\t   15360 kB"
            let kilobytes = text.dropFirst(6).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap { Int($0) }
            return kilobytes.map { $0 * 1024 }
        }
        return nil
        #else
        return nil
        #endif
    }

    /// The whole process so far.
    public static func process() -> ResourceUsage { measure(who: 0) } // RUSAGE_SELF

    /// The calling thread only (the event loop's), where the OS can tell; else the process.
    public static func thread() -> ResourceUsage {
        #if os(Linux)
        measure(who: 1) // RUSAGE_THREAD, which Glibc's module does not export
        #else
        measure(who: 0)
        #endif
    }

    /// Converts a `rusage` (e.g. a child's from `wait4`).
    public init(_ usage: rusage) {
        let user = Duration.seconds(usage.ru_utime.tv_sec) + .microseconds(usage.ru_utime.tv_usec)
        let system = Duration.seconds(usage.ru_stime.tv_sec) + .microseconds(usage.ru_stime.tv_usec)
        cpu = user + system
        #if os(Linux)
        peakResidentBytes = Int(usage.ru_maxrss) * 1024 // kilobytes on Linux
        #else
        peakResidentBytes = Int(usage.ru_maxrss) // bytes on macOS
        #endif
    }

    private static func measure(who: Int32) -> ResourceUsage {
        var usage = rusage()
        #if os(Linux)
        _ = getrusage(__rusage_who_t(who), &usage)
        #else
        _ = getrusage(who, &usage)
        #endif
        return ResourceUsage(usage)
    }
}
