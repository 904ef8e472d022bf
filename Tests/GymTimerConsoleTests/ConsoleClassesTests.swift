import GymTimerConsole
import GymTimerCore
import GymTimerFleet
import Testing

/// The classes the console keeps per station (`ConsoleClasses`) and the retained record each
/// change becomes (`FleetClassRecord`): begun, paused, resumed and ended on the right stations,
/// a pause never doubled nor a resume without a pause, and the record read back as itself.
@Suite struct ConsoleClassesTests {
    @Test func aClassIsBegunPausedResumedAndEndedOnItsStations() {
        var classes = ConsoleClasses()
        let begun = classes.begin(id: "c-1", workBegins: 1000, on: ["rack-1", "rack-2"])
        #expect(begun == ["rack-1": FleetClassRecord(id: "c-1", workBegins: 1000), "rack-2": FleetClassRecord(id: "c-1", workBegins: 1000)])
        // rack-3 is in no class: a pause of it keeps nothing.
        let paused = classes.pause(["rack-1", "rack-2", "rack-3"], at: 1010)
        #expect(paused.keys.sorted() == ["rack-1", "rack-2"])
        #expect(paused["rack-1"]??.pauses == [.init(from: 1010, until: nil)])
        #expect(classes.pause(["rack-1"], at: 1011).isEmpty, "already paused: no second open pause")
        let resumed = classes.resume(["rack-1"], at: 1014)
        #expect(resumed["rack-1"]??.pauses == [.init(from: 1010, until: 1014)])
        #expect(classes.resume(["rack-1"], at: 1015).isEmpty, "nothing paused: nothing to resume")
        #expect(classes.records["rack-2"]?.isPaused == true, "rack-2 was not resumed")
        let ended = classes.end(["rack-1", "rack-3"])
        #expect(ended.count == 1 && ended["rack-1"] == .some(nil), "rack-1 cleared, rack-3 had nothing: \(ended)")
        #expect(classes.records.keys.sorted() == ["rack-2"])
    }

    @Test func aClassKeepsAtMostItsPausesLimit() {
        var classes = ConsoleClasses()
        _ = classes.begin(id: "c-1", workBegins: 0, on: ["rack-1"])
        for index in 0..<(ClassTimeline.maximumPauses + 5) {
            _ = classes.pause(["rack-1"], at: Double(2 * index))
            _ = classes.resume(["rack-1"], at: Double(2 * index + 1))
        }
        #expect(classes.records["rack-1"]?.pauses.count == ClassTimeline.maximumPauses)
    }

    @Test func theRecordReadsBackAsItselfAndAHostileOneIsRefusedNamingTheField() throws {
        let record = FleetClassRecord(id: "c-\"1", workBegins: 1_767_600_010.5, pauses: [.init(from: 1_767_600_020, until: 1_767_600_023.25), .init(from: 1_767_600_030, until: nil)])
        #expect(FleetClassRecord.parse(Array(record.json.utf8)) == .success(record), "\(record.json)")
        #expect(FleetClassRecord.parse([]) == .success(nil), "empty: the class is cleared")
        let hostile: [(String, String)] = [
            ("not json", "malformed"),
            ("[1]", "malformed"),
            (#"{"id":"c","at":1,"pauses":[],"extra":1}"#, "bad-field"),
            (#"{"at":1}"#, "bad-field"),
            (#"{"id":"","at":1}"#, "bad-field"),
            (#"{"id":"c\n","at":1}"#, "bad-field"),
            (#"{"id":"c","at":-5}"#, "bad-field"),
            (#"{"id":"c","at":"soon"}"#, "bad-field"),
            (#"{"id":"c","at":1,"pauses":[[1]]}"#, "bad-field"),
            (#"{"id":"c","at":1,"pauses":[[1,"x"]]}"#, "bad-field"),
            (#"{"id":"c","at":1,"pauses":{}}"#, "bad-field"),
            ("{\"id\":\"c\",\"at\":1,\"pauses\":[" + Array(repeating: "[1,2]", count: 101).joined(separator: ",") + "]}", "bad-field"),
            ("{\"id\":\"" + String(repeating: "x", count: 5000) + "\",\"at\":1}", "too-large"),
        ]
        for (payload, kind) in hostile {
            guard case .failure(let error) = FleetClassRecord.parse(Array(payload.utf8)) else {
                Issue.record("accepted: \(payload.prefix(80))")
                continue
            }
            #expect(error.kind == kind, "\(payload.prefix(80)): \(error)")
        }
        // Instants more than a day from now are no class of today's.
        let far = FleetClassRecord(id: "c", workBegins: 1_767_600_010 + 2 * 86_400)
        #expect(far.timeline(wall: .fixed(1_767_600_000), moment: { Moment(nanoseconds: Int64($0)) }) == nil)
        #expect(record.timeline(wall: .fixed(1_767_600_000), moment: { Moment(nanoseconds: Int64(($0 - 1_767_600_000) * 1e9)) })
                == ClassTimeline(workBegins: Moment(nanoseconds: 10_500_000_000), pauses: [
                    .init(from: Moment(nanoseconds: 20_000_000_000), until: Moment(nanoseconds: 23_250_000_000)),
                    .init(from: Moment(nanoseconds: 30_000_000_000), until: nil)]))
    }
}
