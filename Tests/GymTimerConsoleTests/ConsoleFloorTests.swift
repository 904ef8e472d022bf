import Foundation
import GymTimerFleet
import GymTimerCollector
import GymTimerFleetCommands
import GymTimerFleetLink
import GymTimerStationLink
import GymTimerUpgrade
import GymTimerMQTT
import GymTimerCore
import Testing
@testable import GymTimerConsole

@Suite struct ConsoleFloorTests {
    func message(_ topic: String, _ text: String) -> MQTTMessage { MQTTMessage(topic: topic, text: text, qos: 1, retain: true) }

    /// A scheduled class's instant and a finished program's score reach the tile from the state;
    /// an instant that is no time a station counts (NaN, beyond a day) is left out.
    @Test func aScheduledStartAndAFinishedScoreReachTheTile() {
        var floor = ConsoleFloor(prefix: "gymtimer")
        _ = floor.apply(message("gymtimer/rack-1/status", "online"))
        _ = floor.apply(message("gymtimer/rack-1/state", #"{"mode":"program","phase":"idle","starts_at":1010.25,"t":990}"#))
        #expect(floor.tiles(now: 990)[0].startsAt == 1010.25)
        _ = floor.apply(message("gymtimer/rack-1/state", #"{"mode":"program","phase":"finished","result":"12:34, 3 rounds","starts_at":1e300,"t":991}"#))
        let tile = floor.tiles(now: 991)[0]
        #expect(tile.startsAt == nil && tile.result == "12:34, 3 rounds")
    }

    @Test func aStationsRetainedTopicsBecomeItsTile() throws {
        var floor = ConsoleFloor(prefix: "gymtimer")
        let applied = [
            floor.apply(message("gymtimer/rack-1/status", "online")),
            floor.apply(message(
                "gymtimer/rack-1/state",
                #"{"mode":"program","phase":"running","program":"AMRAP 12","display":"11:59","deadline":1000.5,"remaining":null,"round":2,"sets":0,"rest_seconds":null,"t":990}"#)),
            floor.apply(message("gymtimer/all/status", "online")),
            floor.apply(message("other/rack-2/status", "online")),
            floor.apply(message("gymtimer/rack-2/status", "offline")),
        ]
        #expect(applied == [true, true, false, false, true])
        let tiles = floor.tiles(now: 990)
        #expect(tiles.map(\.name) == ["rack-1", "rack-2"])
        #expect(tiles[0] == ConsoleTile(
            name: "rack-1", online: true, mode: "program", program: "AMRAP 12", phase: "running", deadline: 1000.5,
            remaining: nil, display: "11:59", round: 2, sets: 0))
        #expect(tiles[1] == ConsoleTile(
            name: "rack-2", online: false, mode: "-", program: nil, phase: "-", deadline: nil, remaining: nil, display: nil,
            round: nil, sets: nil))
        // The page reads this JSON: the field names are the page's.
        let json = ConsoleFloorEvent(now: 990, connected: true, broker: "mqtt://127.0.0.1:1883", problem: nil, tiles: [tiles[0]]).json
        #expect(json.contains(#""deadline":1000.5"#))
        #expect(json.contains(#""name":"rack-1""#))
        #expect(json.contains(#""now":990"#))
        #expect(json.contains(#""online":true"#))
    }

    @Test func aStationsRefusalShowsOnItsTileForAMinute() {
        var floor = ConsoleFloor(prefix: "gymtimer")
        // An event from a station never seen is no tile of its own.
        let unknown = floor.apply(message("gymtimer/rack-9/event", #"{"t":1000,"event":"error","kind":"not-allowed","reason":"x"}"#))
        _ = floor.apply(message("gymtimer/rack-1/status", "online"))
        let press = floor.apply(message("gymtimer/rack-1/event", #"{"t":1000,"event":"pressed-start"}"#))
        let refusal = floor.apply(message(
            "gymtimer/rack-1/event", #"{"t":1000,"event":"error","kind":"not-allowed","reason":"\"select\" not allowed now: not idle"}"#))
        #expect([unknown, press, refusal] == [false, false, true])
        #expect(floor.tiles(now: 1030).first?.refusal == #""select" not allowed now: not idle"#)
        #expect(floor.tiles(now: 1061).first?.refusal == nil)
        #expect(floor.tiles(now: 1030).map(\.name) == ["rack-1"])
    }

    @Test func hostileStateIsBoundedAndStripped() {
        let tile = ConsoleTile.make(
            name: "rack-1", status: "online",
            state: JSONValue.parse(Array(#"{"mode":"\u001b[2Jx","phase":"\#(String(repeating: "p", count: 500))","deadline":1e300,"round":1e300,"sets":-5}"#.utf8)),
            now: 1000)
        #expect(tile.mode == "?[2Jx")
        #expect(tile.phase.count == 16 && tile.phase.hasSuffix("…"))
        #expect(tile.deadline == nil)
        #expect(tile.round == nil)
        #expect(tile.sets == -5)
    }

    @Test func anOfflineStationShowsNoCountdown() {
        let tile = ConsoleTile.make(name: "a", status: "offline", state: JSONValue.parse(Array(#"{"deadline":1005}"#.utf8)), now: 1000)
        #expect(tile.deadline == nil)
        #expect(!tile.online)
    }

    @Test func aClassIsOneProgramPickAndOneStartAtTheSameInstant() throws {
        let body = Array(#"{"stations":["rack-1","rack-2"],"program":"AMRAP 12","lead":10}"#.utf8)
        let action = try ConsoleAction.parse(.class, body: body).get()
        #expect(action.commands(now: 1000) == [.classStart(at: 1010, runs: .named(mode: "program", name: "AMRAP 12"))])
        #expect(action.commands(now: 1000).map(\.json).last == #"{"do":"start","at":1010.000,"mode":"program","name":"AMRAP 12"}"#)
        let pause = try ConsoleAction.parse(.pause, body: Array(#"{"stations":["rack-1"]}"#.utf8)).get()
        #expect(pause.commands(now: 5) == [.pause])
        for bad in [#"{"stations":[]}"#, #"{"stations":["a","a"]}"#, #"{"stations":["a/b"]}"#, #"{"stations":["a"],"lead":1}"#, "nope",
                    #"{"stations":["a"],"lead":1e400}"#] {
            #expect(throws: ConsolePIN.Problem.self, "\(bad)") { try ConsoleAction.parse(.class, body: Array(bad.utf8)).get() }
        }
    }

    @Test func aMessageTheLockAndBrightnessAreCheckedAndBecomeTheirCommands() throws {
        func parse(_ verb: ConsoleAction.Verb, _ body: String) -> Result<ConsoleAction, ConsolePIN.Problem> {
            ConsoleAction.parse(verb, body: Array(body.utf8))
        }
        let say = try parse(.message, #"{"stations":["rack-1"],"text":"HYdrAtE","seconds":5}"#).get()
        #expect(say.commands(now: 0) == [.message(text: "HYdrAtE", seconds: 5)])
        #expect(try parse(.message, #"{"stations":["rack-1"],"text":"GO"}"#).get().commands(now: 0) == [.message(text: "GO", seconds: 10)])
        #expect(try parse(.lock, #"{"stations":["rack-1"]}"#).get().commands(now: 0) == [.lock])
        #expect(try parse(.unlock, #"{"stations":["rack-1"]}"#).get().commands(now: 0) == [.unlock])
        #expect(try parse(.brightness, #"{"stations":["rack-1"],"percent":30}"#).get().commands(now: 0) == [.brightness(percent: 30)])
        for bad in [#"{"stations":["a"]}"#, #"{"stations":["a"],"text":"KILL"}"#, #"{"stations":["a"],"text":"GO","seconds":61}"#,
                    #"{"stations":["a"],"text":"GO","seconds":1e300}"#, #"{"stations":["a"],"text":"<script>"}"#] {
            #expect(throws: ConsolePIN.Problem.self, "\(bad)") { try parse(.message, bad).get() }
        }
        for bad in [#"{"stations":["a"]}"#, #"{"stations":["a"],"percent":101}"#, #"{"stations":["a"],"percent":2.5}"#] {
            #expect(throws: ConsolePIN.Problem.self, "\(bad)") { try parse(.brightness, bad).get() }
        }
        let tile = ConsoleTile.make(name: "rack-1", status: "online", state: JSONValue.parse(Array(#"{"locked":true}"#.utf8)), now: 0)
        #expect(tile.locked)
    }

    @Test func aSleepWindowIsCheckedBecomesItsCommandAndShowsOnTheTile() throws {
        func parse(_ body: String) -> Result<ConsoleAction, ConsolePIN.Problem> { ConsoleAction.parse(.sleep, body: Array(body.utf8)) }
        let night = try SleepWindow.parse(from: "22:00", until: "06:00").get()
        let set = try parse(#"{"stations":["rack-1"],"sleepFrom":"22:00","sleepUntil":"06:00"}"#).get()
        #expect(set.commands(now: 0) == [.sleep(night)])
        #expect(set.confirmation(at: 0, on: ["rack-1"]) == "Displays sleep 22:00–06:00 (station time) on rack-1")
        #expect(try parse(#"{"stations":["rack-1"],"sleepOff":true}"#).get().commands(now: 0) == [.sleep(nil)])
        for bad in [#"{"stations":["a"]}"#, #"{"stations":["a"],"sleepFrom":"22:00"}"#, #"{"stations":["a"],"sleepFrom":"25:00","sleepUntil":"06:00"}"#,
                    #"{"stations":["a"],"sleepFrom":"06:00","sleepUntil":"06:00"}"#, #"{"stations":["a"],"sleepFrom":"<b>","sleepUntil":"06:00"}"#] {
            #expect(throws: ConsolePIN.Problem.self, "\(bad)") { try parse(bad).get() }
        }
        let state = #"{"sleep":{"from":"22:00","until":"06:00"},"asleep":true}"#
        let tile = ConsoleTile.make(name: "rack-1", status: "online", state: JSONValue.parse(Array(state.utf8)), now: 0)
        #expect(tile.sleep == "22:00–06:00" && tile.asleep)
        let hostile = #"{"sleep":{"from":"<script>","until":"06:00"},"asleep":true}"#
        let offline = ConsoleTile.make(name: "rack-1", status: "offline", state: JSONValue.parse(Array(hostile.utf8)), now: 0)
        #expect(offline.sleep == nil && !offline.asleep, "only a checked window is shown; an offline station is not said asleep")
    }

    @Test func aTileCarriesTheStationsOwnProgramsOnlyAsValidNamesAndAtMostFifty() {
        let state = #"{"programs":["Row 4","Tabata",7,"","bad\u0007name",{"x":1}]}"#
        let tile = ConsoleTile.make(name: "rack-1", status: "online", state: JSONValue.parse(Array(state.utf8)), now: 0)
        #expect(tile.programs == ["Row 4", "Tabata"], "\(tile.programs)")
        let many = "{\"programs\":[" + (1...80).map { "\"P \($0)\"" }.joined(separator: ",") + "]}"
        let crowded = ConsoleTile.make(name: "rack-1", status: "online", state: JSONValue.parse(Array(many.utf8)), now: 0)
        #expect(crowded.programs.count == ConsoleTile.maximumPrograms && crowded.programs.first == "P 1")
        #expect(ConsoleTile.make(name: "rack-1", status: "online", state: JSONValue.parse(Array(#"{"programs":"Tabata"}"#.utf8)), now: 0).programs == [])
    }

    @Test func theBroadcastGivesANewPageTheLatestOfEachKind() async {
        let broadcast = ConsoleBroadcast(limit: ConsoleStreamLimit(maximum: 1, keptForTheCoach: 0))
        #expect(broadcast.publish(event: "floor", data: "1"))
        #expect(!broadcast.publish(event: "floor", data: "1"))
        broadcast.publish(event: "scores", data: "{}")
        broadcast.publish(event: "floor", data: "2")
        guard case .success(let listener) = broadcast.listen(.guest(address: "192.168.1.20")) else {
            Issue.record("the first page is served")
            return
        }
        #expect(throws: ConsoleStreamLimit.Refusal.full(limit: 1)) { try broadcast.listen(.guest(address: "192.168.1.21")).get() }
        var iterator = listener.frames.makeAsyncIterator()
        #expect(await iterator.next() == "event: floor\ndata: 2\n\n")
        #expect(await iterator.next() == "event: scores\ndata: {}\n\n")
        broadcast.publish(event: "floor", data: "3")
        #expect(await iterator.next() == "event: floor\ndata: 3\n\n")
    }

    /// The page's line after the stations answered: the action only on those that did every
    /// command (a class: the program chosen and the start scheduled), each refusal with its
    /// reason, silence and offline said; never "Paused" on a station that refused.
    @Test func theReportNamesWhatEachStationDidAndNeverCallsARefusalDone() throws {
        func event(_ name: String, _ id: String, reason: String? = nil) -> [UInt8] {
            Array((#"{"event":""# + name + #"","id":""# + id + "\"" + (reason.map { #","reason":""# + $0 + "\"" } ?? "") + "}").utf8)
        }
        let pause = ConsoleAction(verb: .pause, stations: ["rack-1", "rack-2", "rack-3", "rack-4"])
        var answers = FleetAnswers(id: "p", asked: ["rack-1", "rack-2", "rack-3"], offline: ["rack-4"])
        answers.take(event: event("command", "p"), from: "rack-1")
        answers.take(event: event("error", "p", reason: "already paused"), from: "rack-2")
        #expect(pause.report(at: 0, answers: [answers], offline: ["rack-4"])
            == "Paused rack-1; refused on rack-2: already paused; no answer from rack-3; offline, will not get it: rack-4")
        let all = ConsoleAction(verb: .pause, stations: ["rack-1"])
        var fine = FleetAnswers(id: "q", asked: ["rack-1"], offline: [])
        fine.take(event: event("command", "q"), from: "rack-1")
        #expect(all.report(at: 0, answers: [fine], offline: []) == "Paused rack-1")

        // A class: rack-2 has no such program and refuses it; chosen "start on the ready ones",
        // it starts on rack-1 and the line says why not on rack-2. Else it is called off on rack-1.
        var lesson = ConsoleAction(verb: .class, stations: ["rack-1", "rack-2"], program: "AMRAP 12", lead: 10)
        lesson.startReady = true
        var start = FleetAnswers(id: "t", asked: ["rack-1", "rack-2"], offline: [])
        start.take(event: event("scheduled", "t"), from: "rack-1")
        start.take(event: event("error", "t", reason: "no program named AMRAP 12"), from: "rack-2")
        #expect(lesson.report(at: 0, answers: [start], offline: [])
            == "Class (AMRAP 12) starts in 10 s on rack-1; refused on rack-2: no program named AMRAP 12")
        lesson.startReady = false
        var cancel = FleetAnswers(id: "c", asked: ["rack-1"], offline: [])
        cancel.take(event: event("command", "c"), from: "rack-1")
        #expect(lesson.report(at: 0, answers: [start], offline: [], calledOff: cancel)
            == "Class not started: not every station was ready (tick \"start on the ready ones\" to start without them); "
            + "refused on rack-2: no program named AMRAP 12; called off on rack-1")
        var none = FleetAnswers(id: "u", asked: ["rack-1"], offline: [])
        none.take(event: event("error", "u", reason: "busy"), from: "rack-1")
        #expect(all.report(at: 0, answers: [none], offline: []) == "Not done anywhere; refused on rack-1: busy")
    }

    /// A station is live once it speaks since the console connected (its answer to the ping, a
    /// state change): only then does the page tick it for a class. A name known only from
    /// retained messages, however "online" they say it is, stays unticked; so does one offline.
    @Test func onlyAStationHeardLiveIsTickedForAClass() {
        var floor = ConsoleFloor(prefix: "gymtimer")
        for station in ["rack-1", "ghost-1", "rack-3"] {
            _ = floor.apply(message("gymtimer/\(station)/status", "online"))
            _ = floor.apply(message("gymtimer/\(station)/state", #"{"mode":"rest","phase":"idle"}"#))
        }
        #expect(floor.tiles(now: 0).filter(\.live).isEmpty, "retained only: nobody is live yet")
        let pong = MQTTMessage(topic: "gymtimer/rack-1/event", text: #"{"t":1,"event":"command","do":"ping","id":"p"}"#, qos: 1)
        let changed = floor.apply(pong)
        #expect(changed, "a tile changed: rack-1 is live")
        let change = MQTTMessage(topic: "gymtimer/rack-3/state", text: #"{"mode":"rest","phase":"resting"}"#, qos: 1)
        _ = floor.apply(change)
        _ = floor.apply(MQTTMessage(topic: "gymtimer/rack-3/status", text: "offline", qos: 1))
        let live = Dictionary(uniqueKeysWithValues: floor.tiles(now: 0).map { ($0.name, $0.live) })
        #expect(live == ["rack-1": true, "ghost-1": false, "rack-3": false], "rack-3 spoke, then went offline: \(live)")
    }
}
