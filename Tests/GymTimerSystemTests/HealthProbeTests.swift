import Foundation
import GymTimerSystem
import Testing

@Suite struct HealthProbeTests {
    static let wireless = """
        Inter-| sta-|   Quality        |   Discarded packets               | Missed | WE
         face | tus | link level noise |  nwid  crypt   frag  retry   misc | beacon | 22
         wlan0: 0000   49.  -61.  -256        0      0      0      0      0        0

        """

    @Test func parsesTheKernelsTexts() {
        #expect(HealthReadings.thermal("48500\n") == 48.5)
        #expect(HealthReadings.thermal("81234") == 81.234)
        #expect(HealthReadings.thermal("") == nil)
        #expect(HealthReadings.thermal("9999999999") == nil)
        #expect(HealthReadings.wirelessSignal(Self.wireless) == -61)
        #expect(HealthReadings.wirelessSignal(" wlan0: 0000   60.  195.  0  0 0 0 0 0 0") == -61)
        // The header alone: no Wi-Fi interface.
        #expect(HealthReadings.wirelessSignal(String(Self.wireless.split(separator: "\n").prefix(2).joined(separator: "\n"))) == nil)
        #expect(HealthReadings.wirelessSignal(" wlan0: garbage") == nil)
    }

    @Test func readsDiskAndClockFigures() throws {
        let free = try #require(HealthReadings.diskFree(available: 600, total: 10000, fragmentSize: 1_048_576))
        #expect(free.mb == 600 && free.percent == 6)
        #expect(HealthReadings.diskFree(available: 1, total: 0, fragmentSize: 4096) == nil)
        #expect(HealthReadings.clock(state: 0, status: 0x0001, offset: 1200) == (true, 1.2))
        #expect(HealthReadings.clock(state: 0, status: 0x2000, offset: 1_500_000) == (true, 1.5))
        #expect(HealthReadings.clock(state: 5, status: 0x0001, offset: 0).synchronised == false)
        #expect(HealthReadings.clock(state: 0, status: 0x0040, offset: 0).synchronised == false)
    }

    /// The boot clock is what /proc/uptime says (which the installed unit cannot read).
    @Test func theTimeSinceBootIsTheKernelsUptime() throws {
        let text = try String(contentsOfFile: "/proc/uptime", encoding: .utf8)
        let proc = try #require(text.split(separator: " ").first.flatMap { Double($0) })
        let boot = try #require(SystemHealthProbe.secondsSinceBoot())
        #expect(abs(Double(boot) - proc) < 5, "CLOCK_BOOTTIME \(boot) s, /proc/uptime \(proc) s")
    }

    @Test func theRealProbeReadsFixtureFilesAndFailsSoft() throws {
        let root = NSTemporaryDirectory() + "health-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        for (path, text) in [
            "/sys/class/thermal/thermal_zone0/temp": "81000\n",
            "/proc/net/wireless": Self.wireless,
        ] {
            try FileManager.default.createDirectory(
                atPath: root + (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: root + path, atomically: true, encoding: .utf8)
        }
        let sample = SystemHealthProbe(
            dataDirectory: root, root: root, clock: { (0, 0x0040, 0) }, uptime: { 86400 }).sample()
        #expect(sample.uptime == 86400 && sample.cpuTemp == 81 && sample.wifiDbm == -61)
        #expect(sample.clockSynchronised == false && sample.clockOffsetMs == 0)
        #expect(sample.diskFreeMB != nil && sample.diskFreePercent.map { (0...100).contains($0) } == true)
        // Nothing readable: every figure nil, no trap.
        let none = SystemHealthProbe(
            dataDirectory: root + "/missing", root: root + "/missing", clock: { nil }, uptime: { nil }).sample()
        #expect(none == HealthSample())
    }
}
