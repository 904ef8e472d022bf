import Foundation
import GymTimerBenchSupport
import GymTimerCore
import GymTimerCollector
import GymTimerFleetCommands
import GymTimerFleetLink
import GymTimerStationLink
import GymTimerUpgrade
import GymTimerHistory
import GymTimerSystem
import GymTimerTestSupport
import Testing

extension HeadlessStationTests {
    /// A station's data directory from before card pseudonyms — its history's row and its
    /// outbox's waiting record under a card's UID — started by the real binary with the gym's
    /// key: both files then hold the card's pseudonym and no byte of the UID, and each record
    /// reaches the collector once, under the pseudonym, as does a workout after a tap of the fob.
    @Test func aStationsFilesFromBeforePseudonymsAreCarriedAndEachRecordArrivesOnceUnderThePseudonym() throws {
        let uid = "04A1B2C3", card = TestCardKey.card(uid)
        let data = "\(directory)/rack-7"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let now = Date()
        func legacy(_ n: Int) -> StoredWorkout {
            StoredWorkout(
                id: "rest@\(n)", kind: .rest, sets: 2, durationMilliseconds: 60_000, calories: 0, exercises: [], preset: nil,
                completedAt: now.addingTimeInterval(Double(n - 10) * 60), localDay: LocalDay(now, in: .current), station: "rack-7",
                athlete: CardID(hex: uid))
        }
        // What an earlier release left: a row of its history, a record waiting in its outbox.
        do {
            let history = try HistoryStore(path: data + "/history.sqlite", faults: FaultLog(sink: { _ in }))
            try history.store([legacy(1)])
            let outbox = try FleetOutbox(path: data + "/outbox.sqlite")
            let waiting = FleetWorkoutMessage.encode(legacy(2), station: "rack-7")
            try outbox.add(id: waiting.id, payload: waiting.payload)
            #expect(waiting.payload.contains(#""athlete":"04A1B2C3""#), "the test's premise: \(waiting.payload)")
        }
        func holdsUID(_ file: String) -> Bool {
            guard let bytes = try? Data(contentsOf: URL(fileURLWithPath: file)) else { return false }
            return bytes.range(of: Data(uid.utf8)) != nil || bytes.range(of: Data([0x04, 0xA1, 0xB2, 0xC3])) != nil
        }
        #expect(holdsUID(data + "/history.sqlite") && holdsUID(data + "/outbox.sqlite"), "the test's premise: the files hold the UID")

        let (port, reservation) = try LocalBroker.reservedPort()
        let quick = "[rest]\ndefault_seconds = 1\nmin_seconds = 1\nstep_seconds = 1\nwarning_seconds = 0\n"
        let (broker, gym) = try brokerAndCollector(port: port, reservation: reservation)
        _ = broker
        let rack7 = try station("rack-7", port: port, extra: quick)
        #expect(eventually(30) {
            gym.step(timeout: .milliseconds(20))
            return gym.stored == 1
        }, "the waiting record arrives\n\(printed("rack-7"))")
        rack7.send("0 tap \(uid)")
        workout(rack7)
        #expect(eventually(30) {
            gym.step(timeout: .milliseconds(20))
            return gym.stored == 2
        }, "the tapped member's workout arrives\n\(printed("rack-7"))")
        rack7.send("0 end")
        #expect(rack7.wait(upTo: 20) == 0)
        for _ in 0..<10 { gym.step(timeout: .milliseconds(20)) }

        let stored = try gym.history!.workouts()
        #expect(stored.count == 2 && stored.allSatisfy { $0.athlete == card }, "once each, by the pseudonym: \(stored.map { "\($0.id) \(String(describing: $0.athlete))" })")
        #expect(stored.map(\.id).contains("rack-7/rest@2"))
        let own = try HistoryStore.reading(path: data + "/history.sqlite").workouts()
        #expect(own.count == 2 && own.allSatisfy { $0.athlete == card }, "the station's own history: \(own.map(\.athlete))")
        for file in ["history.sqlite", "outbox.sqlite", "state.journal"] {
            #expect(!holdsUID(data + "/" + file), "\(file) still holds the UID")
        }
        #expect(!holdsUID("\(directory)/gym.sqlite"), "the gym's database holds no UID")
        #expect(printed("rack-7").contains("1 waiting record(s) from before card pseudonyms now carry the card's pseudonym"), "\(printed("rack-7"))")
    }
}
