import Foundation
import GymTimerCore
import GymTimerCollector
import GymTimerFleetCommands
import GymTimerFleetLink
import GymTimerStationLink
import GymTimerUpgrade
import GymTimerHistory
import Testing
import GymTimerTestSupport
import GymTimerSystem

/// A fleet record says whether its date came from a synchronised clock (`clock_synchronised`,
/// optional): the collector stores it, and reads records of stations that do not send it
/// (earlier releases) as unknown.
@Suite struct FleetRecordClockTests {
    static let receivedAt = Date(timeIntervalSince1970: 1_767_700_000)

    func workout(_ synchronised: Bool?) -> StoredWorkout {
        StoredWorkout(
            id: "rest@1", kind: .rest, sets: 3, durationMilliseconds: 180_000, calories: 0, exercises: [], preset: nil,
            completedAt: Date(timeIntervalSince1970: 1_767_600_000), localDay: LocalDay(year: 2026, month: 1, day: 5),
            clockSynchronised: synchronised)
    }

    @Test(arguments: [false, true])
    func theMarkTravelsAndIsStored(synchronised: Bool) throws {
        let payload = FleetWorkoutMessage.encode(workout(synchronised), station: "rack-1").payload
        #expect(payload.contains("\"clock_synchronised\":\(synchronised)"), "\(payload)")
        let decoded = try FleetWorkoutMessage.decode(Array(payload.utf8), station: "rack-1", receivedAt: Self.receivedAt).get()
        #expect(decoded.clockSynchronised == synchronised)

        let directory = testDirectory("fleet-clock")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let gym = try HistoryStore(path: directory + "/gym.sqlite", faults: FaultLog { _ in })
        #expect(try gym.store([decoded]) == 1)
        #expect(try gym.workouts().map(\.clockSynchronised) == [synchronised])
    }

    /// A record from a station of an earlier release: no field, accepted, unknown.
    @Test func aRecordWithoutTheFieldIsAcceptedAsUnknown() throws {
        let old = #"{"id":"rack-1/rest@1","kind":"rest","sets":3,"duration_ms":180000,"calories":0,"exercises":[],"completed_at":"2026-01-05T08:00:00.000Z","local_day":"2026-01-05","station":"rack-1"}"#
        let decoded = try FleetWorkoutMessage.decode(Array(old.utf8), station: "rack-1", receivedAt: Self.receivedAt).get()
        #expect(decoded.clockSynchronised == nil)
        let payload = FleetWorkoutMessage.encode(workout(nil), station: "rack-1").payload
        #expect(!payload.contains("clock_synchronised"), "unknown is left out, as an earlier release sends it: \(payload)")
    }
}
