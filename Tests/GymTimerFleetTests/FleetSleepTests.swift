import Foundation
import GymTimerCore
@testable import GymTimerFleet
import GymTimerCollector
import GymTimerFleetCommands
import GymTimerFleetLink
import GymTimerStationLink
import GymTimerUpgrade
import Testing

/// The fleet's `sleep` command (`{"do":"sleep","from":"22:00","until":"06:00"}`, `{"do":"sleep","off":true}`)
/// and the state a sleeping station publishes.
@Suite struct FleetSleepTests {
    static func parse(_ text: String) -> Result<FleetCommand, FleetCommandError> { FleetCommand.parse(Array(text.utf8)) }
    let night = try! SleepWindow.parse(from: "22:00", until: "06:00").get()

    @Test func aWindowAndOffParseAndReadBackFromWhatTheToolsPublish() {
        #expect(Self.parse(#"{"do": "sleep", "from": "22:00", "until": "06:00"}"#) == .success(.sleep(night)))
        #expect(Self.parse(#"{"do": "sleep", "off": true}"#) == .success(.sleep(nil)))
        #expect(FleetCommand.sleep(night).json == #"{"do":"sleep","from":"22:00","until":"06:00"}"#)
        #expect(FleetCommand.sleep(nil).json == #"{"do":"sleep","off":true}"#)
        for command in [FleetCommand.sleep(night), .sleep(nil)] {
            #expect(FleetCommand.parse(Array(command.json.utf8)) == .success(command))
        }
    }

    @Test(arguments: [
        (#"{"do": "sleep"}"#, FleetCommandError.missing("from")),
        (#"{"do": "sleep", "from": "22:00"}"#, .missing("until")),
        (#"{"do": "sleep", "from": "24:00", "until": "06:00"}"#, .wrongType(field: "from", expected: "a time HH:MM, 00:00 to 23:59")),
        (#"{"do": "sleep", "from": "22:00", "until": 6}"#, .wrongType(field: "until", expected: "a time HH:MM, 00:00 to 23:59")),
        (#"{"do": "sleep", "from": "7:00", "until": "06:00"}"#, .wrongType(field: "from", expected: "a time HH:MM, 00:00 to 23:59")),
        (#"{"do": "sleep", "from": "06:00", "until": "06:00"}"#, .wrongType(field: "until", expected: "a time other than from")),
        (#"{"do": "sleep", "off": false}"#, .wrongType(field: "off", expected: "true")),
        (#"{"do": "sleep", "off": true, "from": "22:00"}"#, .unexpected(field: "from", command: "sleep")),
        (#"{"do": "sleep", "from": "22:00", "until": "06:00", "zone": "CET"}"#, .unexpected(field: "zone", command: "sleep")),
    ])
    func hostileWindowsAreRefusedWithAReason(text: String, error: FleetCommandError) {
        #expect(Self.parse(text) == .failure(error))
        #expect(!error.description.isEmpty)
    }

    @Test func theStateCarriesTheWindowAndWhetherTheDisplaySleeps() {
        var kiosk = Kiosk(settings: KioskSettings())
        _ = kiosk.start(at: .origin)
        let unix = { (moment: Moment) in 1_767_225_600 + Double(moment.nanoseconds) / 1e9 }
        let before = FleetStateReport(kiosk).json(display: "0130", at: 1, unix: unix)
        #expect(!before.contains("sleep"), "a station that never had a window reports as before: \(before)")
        _ = kiosk.handle(.command(.setSleepWindow(night)), at: Moment(.seconds(1)))
        let lit = FleetStateReport(kiosk)
        #expect(lit.json(display: "0130", at: 1, unix: unix).contains(#""sleep":{"from":"22:00","until":"06:00"},"asleep":false,"#))
        _ = kiosk.handle(.command(.sleep), at: Moment(.seconds(2)))
        let dark = FleetStateReport(kiosk)
        #expect(dark != lit, "falling asleep is a change of state, published")
        #expect(dark.json(display: "    ", at: 2, unix: unix).contains(#""asleep":true,"#))
    }
}
