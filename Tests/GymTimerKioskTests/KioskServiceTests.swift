import Foundation
import GymTimerConfig
import GymTimerHAL
import GymTimerRuntime
import GymTimerSetup
import Testing
@testable import GymTimerKiosk

@Suite struct KioskServiceTests {
    /// A second controller on a data directory in use is refused by name before it opens any
    /// device, so it is not mistaken for a busy GPIO line.
    @Test func aDataDirectoryInUseIsRefusedBeforeAnyDeviceIsOpened() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gymtimer-service-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try DataDirectoryLock(directory: directory)
        defer { withExtendedLifetime(first) {} }

        var opened: [String] = []
        let refusing = DeviceOpener(
            chip: { (chip) throws(HALError) in
                opened.append(chip)
                throw .noSuchDevice(device: chip, hint: "")
            },
            pwm: { (_, _, _) throws(HALError) in throw .noSuchDevice(device: "pwm", hint: "") },
            i2c: { (_) throws(HALError) in throw .noSuchDevice(device: "i2c", hint: "") },
            spi: { (_) throws(HALError) in throw .noSuchDevice(device: "spi", hint: "") })
        let configuration = GymTimerConfiguration(history: HistorySettings(path: directory + "/history.sqlite"))
        #expect(throws: KioskStartError.refused(
            "\(directory) is in use by gymtimer process \(getpid()); stop it first (only one controller may use a data directory)")) {
            try KioskService.run(configuration: configuration, log: { _ in }, opener: refusing)
        }
        #expect(opened.isEmpty)
    }
}
