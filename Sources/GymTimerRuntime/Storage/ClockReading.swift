import Glibc
import GymTimerHAL

/// What the kernel says of the clocks at a save: the boot, the time since it, and whether the
/// wall clock is synchronised. Stored with the journal (`StoredKiosk.clock`).
public struct ClockReading: Codable, Hashable, Sendable {
    /// The kernel's boot id (/proc/sys/kernel/random/boot_id): new at every boot; empty if unreadable.
    public var bootID: String
    /// CLOCK_BOOTTIME: monotonic, counts suspend, from the boot.
    public var sinceBoot: Duration
    /// Whether adjtimex said the wall clock was synchronised (STA_UNSYNC clear, not TIME_ERROR).
    public var synchronised: Bool

    public init(bootID: String, sinceBoot: Duration, synchronised: Bool) {
        self.bootID = bootID
        self.sinceBoot = sinceBoot
        self.synchronised = synchronised
    }

    /// The kernel's boot id, read once per process.
    public static let currentBootID: String = {
        guard let file = fopen("/proc/sys/kernel/random/boot_id", "r") else { return "" }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 64)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return "" }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.filter { !$0.isWhitespace }
    }()

    /// The clocks now.
    public static func now() -> ClockReading {
        var spec = timespec()
        clock_gettime(CLOCK_BOOTTIME, &spec)
        let status = try? SystemCall.clockStatus()
        let unsynchronisedFlag: Int32 = 0x0040, timeError: Int32 = 5
        let synchronised = status.map { $0.status & unsynchronisedFlag == 0 && $0.state != timeError } ?? false
        return ClockReading(
            bootID: currentBootID, sinceBoot: .seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec), synchronised: synchronised)
    }
}
