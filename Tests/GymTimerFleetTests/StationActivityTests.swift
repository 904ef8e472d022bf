import Foundation
import GymTimerCore
import GymTimerCollector
import GymTimerFleetCommands
import GymTimerFleetLink
import GymTimerStationLink
import GymTimerUpgrade
import GymTimerHistory
import GymTimerSetup
import GymTimerSystem
import GymTimerTestSupport
import Testing

/// What the upgrade agent reads of the kiosk's real journal file: a rest counting down is under
/// way, an idle station is not, and reading moves nothing aside.
@Suite struct StationActivityTests {
    let data = testDirectory("station-activity")

    func save(_ kiosk: Kiosk) {
        let history = HistoryStore.opening(path: data + "/history.sqlite", faults: FaultLog { _ in })
        KioskStore(directory: data, history: history, faults: FaultLog { _ in }).save(kiosk: kiosk, held: [:], at: Moment(.seconds(10)))
    }

    var activity: StationActivity { StationActivity(journalPath: data + "/" + KioskStore<HistoryStore>.journalName) }

    @Test func aRestCountingDownIsUnderWayAndAnIdleStationIsNot() throws {
        #expect(activity.underWay() == nil, "no journal yet: never ran")
        var kiosk = Kiosk(settings: KioskSettings())
        _ = kiosk.start(at: Moment(.seconds(0)))
        save(kiosk)
        #expect(activity.underWay() == nil)
        _ = kiosk.handle(.pressed(.start), at: Moment(.seconds(1)))
        _ = kiosk.handle(.released(.start), at: Moment(.seconds(1.1)))
        try #require(!kiosk.isIdle)
        save(kiosk)
        #expect(activity.underWay() == "a rest is counting down")
        let files = try FileManager.default.contentsOfDirectory(atPath: data).sorted()
        #expect(files.filter { $0.contains("journal") } == ["state.journal"], "nothing moved aside: \(files)")
    }

    @Test func aSaveThatIsNotAKiosksCountsAsUnderWay() throws {
        let journal = KioskJournal<[String]>(path: data + "/state.journal")
        try journal.save(["not", "a", "kiosk"])
        #expect(activity.underWay() == "the station's saved state (\(data)/state.journal) cannot be read")
    }

    @Test func progressInWords() {
        var progress = KioskProgress(mode: .init(kind: .interval))
        #expect(progress.underWay == nil)
        progress.mode.run = .init(planDigest: "d", startedAt: Moment(.seconds(1)))
        #expect(progress.underWay == "an interval is running")
        progress.mode.run?.finishedAt = Moment(.seconds(60))
        #expect(progress.underWay == nil, "a finished run's results are shown again after a restart")
        progress.mode = .init(kind: .rest)
        progress.mode.sets = 2
        #expect(progress.underWay == "a workout's sets are being counted")
        progress.mode.alarmSince = Moment(.seconds(5))
        #expect(progress.underWay == "the rest's alarm sounds")
    }
}
