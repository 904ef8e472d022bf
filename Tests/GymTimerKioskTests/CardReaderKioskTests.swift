import Foundation
import GymTimerConfig
import GymTimerCore
import GymTimerDrivers
import GymTimerHAL
import GymTimerHardware
import GymTimerRuntime
import GymTimerSimulation
import Testing
@testable import GymTimerKiosk
import GymTimerSystem

/// The reader `[hardware] nfc` names, opened by the kiosk through the real libnfc (pn532_uart)
/// against the simulated PN532 on a pseudo-terminal, heard by the kiosk's loop through its one
/// blocking point: a tap puts the card's athlete on the station and says who on the display;
/// a reader that goes away is one logged fault while the timer goes on.
@Suite(.serialized) struct CardReaderKioskTests {
    /// A kiosk on fakes for every GPIO device, the reader at `address`, and its loop on the real
    /// clock, waiting in poll on the reader's pipe.
    func kiosk(reader address: String, log: @escaping (String) -> Void) throws -> (HardwareKiosk, KioskRuntime<ContinuousClock>) {
        var settings = HardwareSettings()
        settings.nfc = NFCReaderAddress(address)
        let hardware = try HardwareKiosk(settings: settings, opener: HardwareKioskTests.Opener().devices)
        var leds: [StatusLED: any DigitalOutput] = [:]
        for led in StatusLED.allCases { leds[led] = SimulatedLine(name: "led-\(led.rawValue)") }
        let devices = KioskDevices(
            waiter: GPIOInputWaiter(inputs: [], sources: hardware.cards.map { [$0] } ?? []), inputs: [:],
            display: SimulatedSegmentDisplay(), buzzer: SimulatedLine(name: "buzzer"), leds: leds, sound: SimulatedSoundPlayer(),
            cards: hardware.cards)
        let clock = ContinuousClock()
        let runtime = KioskRuntime(
            kiosk: Kiosk(settings: KioskSettings()), clock: clock, origin: clock.now, devices: devices,
            history: InMemoryHistory(), faults: FaultLog(sink: log))
        runtime.cardKey = .success(Self.key)
        runtime.start()
        return (hardware, runtime)
    }

    /// The gym's card key of these tests, and the pseudonym of the UID 04A1B2C3D4E5F6 under it.
    static let key = CardKey(secret: Array(repeating: 0x42, count: 32))!
    static let pseudonym = CardID(hex: "512CAE2F467914AB1D1E147C")!

    /// Steps the loop until `done` or 30 s (a loaded machine); returns whether `done` came.
    func step(_ runtime: KioskRuntime<ContinuousClock>, until done: () -> Bool) throws -> Bool {
        let end = runtime.now + .seconds(30)
        while !done(), runtime.now < end { try runtime.step(notAfter: runtime.now + .milliseconds(500)) }
        return done()
    }

    @Test func aTapThroughTheRealLibnfcPutsItsAthleteOnTheStation() throws {
        let twin = try PN532SerialTwin()
        twin.start()
        defer { twin.stop() }
        var lines: [String] = []
        let (hardware, runtime) = try kiosk(reader: "pn532_uart:\(twin.path)") { lines.append($0) }
        defer { hardware.shutDown() }
        #expect(hardware.cards?.name == "pn532_uart:\(twin.path)")
        twin.field = [[0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6]]
        #expect(try step(runtime) { runtime.kiosk.athlete != nil })
        // The UID went no further than the loop: the athlete is the card's pseudonym (HMAC-SHA-256
        // under the key, its first 12 bytes; Python's hmac gives the same), whose last four
        // digits a card with no name shows.
        #expect(runtime.kiosk.athlete?.card == Self.pseudonym)
        #expect(runtime.shownDisplay == DisplayContent(text: "147C"), "a card with no name shows its pseudonym's last four digits")
        // Held on: no second tap (which would tap the athlete out).
        let wakeups = runtime.wakeups
        try runtime.run(until: runtime.now + .seconds(1))
        #expect(runtime.kiosk.athlete?.card == Self.pseudonym)
        #expect(runtime.wakeups - wakeups <= 4, "a held card wakes the loop for the notice's end, not per read")
        #expect(twin.violations.isEmpty, "\(twin.violations)")
        #expect(lines.isEmpty, "\(lines)")
    }

    /// A station whose card key cannot be read (a missing file, one open to every user) refuses
    /// taps, said once in the log with why (not once per tap), and the timer runs on: nobody's
    /// UID is kept instead.
    @Test func withoutItsCardKeyAStationRefusesTapsSayingWhyAndTheTimerRuns() throws {
        let twin = try PN532SerialTwin()
        twin.start()
        defer { twin.stop() }
        var lines: [String] = []
        let (hardware, runtime) = try kiosk(reader: "pn532_uart:\(twin.path)") { lines.append($0) }
        defer { hardware.shutDown() }
        let problem = CardKeyFile.Problem(path: "/etc/gymtimer/card.key", detail: "cannot be read: No such file or directory")
        runtime.cardKey = .failure(problem)
        let before = runtime.shownDisplay
        twin.field = [[0x04, 0xA1, 0xB2, 0xC3]]
        #expect(try step(runtime) { !lines.isEmpty })
        #expect(runtime.kiosk.athlete == nil)
        #expect(lines == ["fault: card key: a card was tapped but the station has no card key (\(problem)); nobody taps in until it has one"], "\(lines)")
        #expect(lines.first?.contains("card key /etc/gymtimer/card.key: cannot be read: No such file or directory") == true)
        #expect(!lines.joined().contains("04A1B2C3"), "the log names no UID")
        #expect(before != nil && runtime.shownDisplay == before, "the timer is as it was")
        // Another card: refused too, and not another line.
        twin.field = []
        try runtime.run(until: runtime.now + .seconds(1))
        twin.field = [[0x0A, 0x0B, 0x0C, 0x0D]]
        try runtime.run(until: runtime.now + .seconds(1))
        #expect(runtime.kiosk.athlete == nil && lines.count == 1, "\(lines)")
        #expect(runtime.faultLog.isFailing("card key"), "the station's health says so")
    }

    @Test func aReaderAbsentAtBootIsOneFaultAndTheTimerRuns() throws {
        var lines: [String] = []
        let (hardware, runtime) = try kiosk(reader: "pn532_uart:/dev/null") { lines.append($0) }
        defer { hardware.shutDown() }
        #expect(try step(runtime) { !lines.isEmpty })
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("fault: pn532_uart:/dev/null: ") == true, "\(lines)")
        runtime.inject(.command(.press(.start)), at: runtime.now)
        #expect(runtime.shownDisplay == .time(seconds: 90), "the rest runs")
    }
}
