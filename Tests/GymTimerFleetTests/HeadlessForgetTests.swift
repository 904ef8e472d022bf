import Foundation
import Glibc
import GymTimerBenchSupport
import GymTimerCore
import GymTimerFleet
import GymTimerCollector
import GymTimerFleetCommands
import GymTimerFleetLink
import GymTimerStationLink
import GymTimerUpgrade
import GymTimerHistory
import GymTimerMQTT
import Testing
import GymTimerTestSupport
import GymTimerSystem

/// Issue 33's erasure, end to end with real processes: a Mosquitto, `gymtimer collect`, two
/// `gymtimer simulate --headless` stations and the CLI's `gymtimer athletes`. Athletes tap in and
/// train; the collector tells each station of the cards tapped on it (short name, bests); `athletes forget` one of them
/// while a station is away; once the collector says every station answered, no file of either
/// station's data directory, no byte of the gym's database (its WAL and journal included) and no
/// retained message names her (UID, name, short name), nor the broker's persistence file once the
/// shipped broker configuration has saved it, while the other athlete's records stay.
@Suite(.serialized) struct HeadlessForgetTests {
    let directory: String
    let gymtimer = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("gymtimer").path
    /// Their fobs' UIDs, which the stations read, and the pseudonyms everything else knows them by.
    static let anna = "04A1B2C3"
    static let ben = "0B0E0B0E"
    static let annaID = TestCardKey.hex(anna), benID = TestCardKey.hex(ben)
    /// A two-second program, so a class's result has a score (and so a best) in real time.
    static let programs = """
        [[programs]]
        name = "Sprint"
        label = "SPr"
        kind = "intervals"
        lead_in_seconds = 0
        rounds = 2
        work_seconds = 1
        rest_seconds = 0

        """

    init() throws {
        directory = testDirectory("fleet-forget")
        TestCardKey.file(in: directory)
    }

    /// The shipped broker configuration's `autosave_interval` line (deploy/server/mosquitto-gymtimer.conf):
    /// how soon a cleared retained message leaves the broker's disk (docs/history.md says a minute).
    static func shippedAutosave() throws -> (line: String, seconds: Int?) {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let shipped = try String(contentsOf: root.appendingPathComponent("deploy/server/mosquitto-gymtimer.conf"), encoding: .utf8)
        let line = shipped.split(separator: "\n").first { $0.hasPrefix("autosave_interval ") }.map(String.init) ?? ""
        return (line, Int(line.dropFirst("autosave_interval ".count)))
    }

    var database: String { "\(directory)/gym.sqlite" }

    func station(_ name: String, port: Int, output: String? = nil) throws -> RunningProcess {
        let config = "\(directory)/\(name).toml"
        try "\(Self.programs)[athletes]\ncard_key = \"\(directory)/card.key\"\n[fleet]\nbroker = \"mqtt://127.0.0.1:\(port)\"\nstation = \"\(name)\"\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let output = "\(directory)/\(output ?? name)"
        return try RunningProcess(
            gymtimer, ["simulate", "--headless", "--config", config, "--data-dir", "\(directory)/\(name)"],
            stdout: "\(output).jsonl", stderr: "\(output).log", pipeInput: true)
    }

    /// Runs the CLI to its end: its status and output.
    func cli(_ arguments: [String]) throws -> (status: Int32?, stdout: String, stderr: String) {
        let out = "\(directory)/cli.out", err = "\(directory)/cli.err"
        let process = try RunningProcess(gymtimer, arguments, stdout: out, stderr: err)
        let status = process.wait(upTo: 20)
        return (status, (try? String(contentsOfFile: out, encoding: .utf8)) ?? "", (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
    }

    func text(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    func eventually(_ seconds: Double = 30, _ condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if condition() { return true }
            var none = pollfd()
            _ = poll(&none, 0, 50)
        }
        return condition()
    }

    /// The gym's stored records' athletes (read as the console reads it, without writing).
    func storedAthletes() -> [String] {
        ((try? HistoryStore.reading(path: database).workouts()) ?? []).map { $0.athlete?.hex ?? "guest" }
    }

    /// Sends `command` to `station` as the coach would and waits for the broker to take it.
    func command(_ coach: MQTTClient, _ station: String, _ json: String) throws {
        let mid = try coach.publish(MQTTMessage(topic: "gymtimer/\(station)/cmd", text: json, qos: 1))
        _ = pump([coach]) { $0[0]?.contains(.delivered(mid: mid)) == true }
    }

    /// `card` taps in at `station`, which then runs the Sprint class to its end.
    func train(_ process: RunningProcess, _ station: String, _ card: String, _ coach: MQTTClient) throws {
        try command(coach, station, #"{"do":"dismiss"}"#)
        process.send("0 tap \(card)")
        try command(coach, station, #"{"do":"select","mode":"program","name":"Sprint"}"#)
        try command(coach, station, #"{"do":"start"}"#)
    }

    /// Every retained message on the broker, read by a new subscriber to `#`.
    func retained(port: Int) throws -> [MQTTMessage] {
        let reader = try observer(port: port, ["#"])
        let events = pump([reader], timeout: 3) { _ in false }
        return (events[0] ?? []).compactMap { if case .message(let message) = $0, message.retain { message } else { nil } }
    }

    /// The files under `path` (every one, at any depth).
    func files(under path: String) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: path)
        var found: [String] = []
        while let name = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let full = path + "/" + name
            if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue { found.append(full) }
        }
        return found
    }

    @Test func aForgottenAthleteLeavesNoRowFileOrRetainedMessageNamingThem() throws {
        // The broker keeps its state on disk as the gym's server's does (its shipped autosave).
        let autosave = try Self.shippedAutosave()
        #expect(autosave.seconds.map { (1...60).contains($0) } == true, "the shipped broker saves within a minute: \(autosave.line)")
        let broker = try LocalBroker(persistence: true, extraConfig: autosave.line + "\n")
        let url = "mqtt://127.0.0.1:\(broker.port)"
        let collector = try RunningProcess(
            gymtimer, ["collect", "--broker", url, "--db", database], stdout: "\(directory)/collect.out", stderr: "\(directory)/collect.log")
        defer { collector.signal(SIGKILL); _ = collector.wait() }
        // The collector makes the database; the roster is added to it as a coach would.
        #expect(eventually { (try? cli(["athletes", "--db", database, "add", "Anna Berg", "--card", Self.anna, "--card-key", "\(directory)/card.key"]))?.status == 0 })
        let ben = try cli(["athletes", "--db", database, "add", "Ben Ohl", "--card", Self.benID])
        #expect(ben.status == 0, "\(ben.stderr)")

        let watcher = try observer(port: broker.port, ["gymtimer/+/status", "gymtimer/+/card", "gymtimer/all/athletes/+"])
        let rack1 = try station("rack-1", port: broker.port)
        var rack2 = try station("rack-2", port: broker.port)
        var seen: [MQTTMessage] = []
        func heard(_ seconds: Double = 20, until done: ([MQTTMessage]) -> Bool) -> Bool {
            let end = Date().addingTimeInterval(seconds)
            while Date() < end, !done(seen) {
                let events = pump([watcher], timeout: 0.2, until: { _ in false })
                for case .message(let message) in events[0] ?? [] { seen.append(message) }
            }
            return done(seen)
        }
        func latest(_ topic: String) -> String? { seen.last { $0.topic == topic }?.text }
        /// The collector's last answer to `station` about `card`.
        func told(_ station: String, _ card: String) -> String? {
            seen.last { $0.topic == "gymtimer/\(station)/card" && FleetCardAnswer.parse($0.payload)?.card.hex == card }?.text
        }
        #expect(heard { _ in latest("gymtimer/rack-1/status") == "online" && latest("gymtimer/rack-2/status") == "online" })

        // Anna trains on rack-1, Ben on rack-2; then the other way round.
        let coach = try MQTTClient(.init(clientID: "coach", host: "127.0.0.1", port: broker.port))
        try coach.connect()
        _ = pump([coach]) { $0[0]?.contains(.connected) == true }
        try train(rack1, "rack-1", Self.anna, coach)
        try train(rack2, "rack-2", Self.ben, coach)
        #expect(eventually { storedAthletes().sorted() == [Self.annaID, Self.benID].sorted() }, "\(storedAthletes()) \(text("\(directory)/collect.log"))")

        // rack-2's account files 99 rounds under Anna's card, never tapped there yet: kept as a guest's, and said.
        let now = Date()
        let forged = StoredWorkout(
            id: "program@1", kind: .program, sets: 1, durationMilliseconds: 60_000, calories: 1, exercises: [], preset: "Sprint",
            completedAt: now.addingTimeInterval(-30), localDay: LocalDay(now, in: .current), score: ProgramScore(rounds: 99).description,
            station: "rack-2", athlete: CardID(hex: Self.annaID), division: .rx)
        let mid = try coach.publish(MQTTMessage(topic: "gymtimer/rack-2/workout", text: FleetWorkoutMessage.encode(forged, station: "rack-2").payload, qos: 1))
        _ = pump([coach]) { $0[0]?.contains(.delivered(mid: mid)) == true }
        #expect(eventually { storedAthletes().count == 3 }, "\(storedAthletes())")
        #expect(storedAthletes().filter { $0 == "guest" }.count == 1, "\(storedAthletes())")
        #expect(text("\(directory)/collect.log").contains("collect: rack-2 filed rack-2/program@1 for a card it did not ask for around that run; stored as a guest's result"),
                "\(text("\(directory)/collect.log"))")

        try train(rack1, "rack-1", Self.ben, coach)
        try train(rack2, "rack-2", Self.anna, coach)
        #expect(eventually { storedAthletes().count == 5 }, "\(storedAthletes())")

        // Their cards, told to the stations they tapped: the short name and the best of each
        // program, on each station's own topic; none retained, none on a topic every station reads.
        let annaCard = #"{"athlete":{"bests":[{"division":"rx","program":"Sprint","score":"2 rounds"}],"short":"AnnA"},"card":"\#(Self.annaID)"}"#
        let benCard = #"{"athlete":{"bests":[{"division":"rx","program":"Sprint","score":"2 rounds"}],"short":"bEno"},"card":"\#(Self.benID)"}"#
        #expect(heard { _ in ["rack-1", "rack-2"].allSatisfy { told($0, Self.annaID) == annaCard && told($0, Self.benID) == benCard } },
                "\(seen.map { "\($0.topic) \($0.text)" })")
        #expect(!seen.contains { $0.topic.contains("/athletes/") && !$0.payload.isEmpty }, "no card retained for every station")

        // The test's premise: once the broker has saved, its file holds her card and her name.
        func brokerHolds(_ trace: String) -> Bool {
            (try? Data(contentsOf: URL(fileURLWithPath: broker.persistenceFile)))?.range(of: Data(trace.utf8)) != nil
        }
        #expect(broker.save(), "the broker wrote its persistence file")
        #expect(brokerHolds(Self.annaID) && brokerHolds("Anna"), "the broker's saved state names her before the forget")

        // rack-2 (Anna still on it) goes away; she is forgotten meanwhile; rack-1 answers at once.
        rack2.send("0 end")
        #expect(rack2.wait(upTo: 20) == 0)
        // The test's premise: both stations hold her card (history rows; rack-2's journal: she is on it).
        func holds(_ file: String) -> Bool { (try? Data(contentsOf: URL(fileURLWithPath: file)))?.range(of: Data(Self.annaID.utf8)) != nil }
        #expect(holds("\(directory)/rack-1/history.sqlite") && holds("\(directory)/rack-2/history.sqlite"))
        #expect(holds("\(directory)/rack-2/state.journal"), "Anna is on rack-2 when it goes")
        let forget = try cli(["athletes", "--db", database, "forget", "Anna Berg"])
        #expect(forget.status == 0 && forget.stdout.contains("The collector now tells every station"), "\(forget.stderr)")
        #expect(heard { _ in told("rack-1", Self.annaID) == #"{"athlete":null,"card":"\#(Self.annaID)"}"# }, "rack-1 is told the gym no longer knows her card")
        #expect(eventually { (try? HistoryStore.reading(path: database).workouts())?.count == 3 }, "Ben's two and the guest's")
        func requests() -> [ForgetRequest] { (try? HistoryStore.reading(path: database).forgetRequests()) ?? [] }
        #expect(eventually { requests().map(\.answered) == [["rack-1"]] }, "the request waits for rack-2: \(requests())")

        // rack-2 comes back: told on its return, it answers, and the request is done.
        rack2 = try station("rack-2", port: broker.port, output: "rack-2-back")
        #expect(eventually(60) { text("\(directory)/collect.log").contains("forget-1 done") }, "\(text("\(directory)/collect.log"))")
        for process in [rack1, rack2] {
            process.send("0 end")
            #expect(process.wait(upTo: 20) == 0)
        }
        collector.signal(SIGTERM)
        #expect(collector.wait(upTo: 20) == 0)

        // No file names her: the stations' data directories, the gym's database with its WAL and journal.
        let traces = [Self.annaID, Self.anna, "Anna", "AnnA"].map { Data($0.utf8) } + [Data([0x04, 0xA1, 0xB2, 0xC3])]
        let checked = files(under: "\(directory)/rack-1") + files(under: "\(directory)/rack-2")
            + [database, database + "-wal", database + "-journal", database + "-shm"].filter { FileManager.default.fileExists(atPath: $0) }
        #expect(checked.contains { $0.hasSuffix("rack-1/history.sqlite") } && checked.contains { $0.hasSuffix("rack-2/state.journal") })
        for file in checked {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
            for trace in traces { #expect(bytes.range(of: trace) == nil, "\(file) holds \(String(decoding: trace, as: UTF8.self))") }
        }
        // No retained message names her, and none lists the gym's cards.
        let messages = try retained(port: broker.port)
        #expect(!messages.contains { $0.topic.contains("/athletes/") }, "\(messages.map(\.topic))")
        for message in messages {
            for trace in [Self.annaID, Self.anna, "Anna", "AnnA"] {
                #expect(!message.topic.contains(trace) && !message.text.contains(trace), "\(message.topic): \(message.text)")
            }
        }
        // Nor does the broker's disk, once it has saved (what its autosave_interval does within a
        // minute), once the test's own watcher has taken what was sent to it.
        _ = heard(1) { _ in false }
        #expect(broker.save(), "the broker wrote its persistence file")
        for trace in [Self.annaID, Self.anna, "Anna", "AnnA"] {
            let bytes = (try? Data(contentsOf: URL(fileURLWithPath: broker.persistenceFile))) ?? Data()
            let around = bytes.range(of: Data(trace.utf8)).map { String(decoding: bytes[max(0, $0.lowerBound - 120)..<min(bytes.count, $0.upperBound + 60)].map { $0 < 32 || $0 > 126 ? 46 : $0 }, as: UTF8.self) } ?? ""
            #expect(!brokerHolds(trace), "the broker's persistence file holds \(trace): \(around)")
        }
        #expect(brokerHolds("bEno") || brokerHolds("Ben"), "Ben is still saved (in today's scores): the file checked is the broker's state")
        // Ben's records are intact: two in the gym's database, one in each station's history.
        #expect(storedAthletes().sorted() == [Self.benID, Self.benID, "guest"].sorted(), "\(storedAthletes())")
        for rack in ["rack-1", "rack-2"] {
            let theirs = try HistoryStore.reading(path: "\(directory)/\(rack)/history.sqlite").workouts()
            #expect(theirs.map { $0.athlete?.hex } == [Self.benID], "\(rack): \(theirs)")
        }
        let log = text("\(directory)/collect.log") + text("\(directory)/rack-1.log") + text("\(directory)/rack-2-back.log")
        #expect(!log.contains(Self.annaID) && !log.contains(Self.anna), "no log line names her card: \(log)")
    }
}
