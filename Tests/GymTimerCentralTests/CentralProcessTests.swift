import Foundation
import GymTimerBenchSupport
import GymTimerCentral
import GymTimerCore
import GymTimerCollector
import GymTimerFleetCommands
import GymTimerFleetLink
import GymTimerStationLink
import GymTimerUpgrade
import GymTimerMQTT
import GymTimerSystem
import GymTimerTestSupport
import Testing

/// The built programs as processes: `gymtimer collect --db postgresql://…` runs gymtimer-central
/// beside it, which takes a gym's record off a real Mosquitto into a real PostgreSQL; `gymtimer
/// history --db postgresql://…` reads it back; SIGTERM stops the collector cleanly.
@Suite(.serialized) struct CentralProcessTests {
    /// The programs built beside these tests (the test bundle's folder: debug or release).
    static let built = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
        .deletingLastPathComponent()
    static let gymtimer = built.appendingPathComponent("gymtimer").path

    @Test func gymtimerCollectWithAPostgresURLRunsTheCentralCollector() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.gymtimer), "build first: swift build")
        let server = try LocalPostgres()
        let broker = try LocalBroker()
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("central-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let collector = try RunningProcess(
            Self.gymtimer, ["collect", "--db", server.url, "--broker", "mqtt://127.0.0.1:\(broker.port)", "--chain", "gyms", "--client-id", "central-1"],
            stderr: log)
        defer { collector.signal(SIGKILL); _ = collector.wait(upTo: 5) }
        let record = PostgresRecordStoreTests.record(nil, "bench-1", minutes: 7).workout
        let (id, payload) = FleetWorkoutMessage.encode(record, station: "bench-1")
        // The gym's station as the bridge delivers it: sent again until acknowledged (the
        // collector may not have subscribed yet), the ack on the gym's ack topic.
        let station = try MQTTClient(MQTTClient.Options(clientID: "north-bench-1", host: "127.0.0.1", port: broker.port))
        defer { station.disconnect() }
        try station.connect()
        _ = station.pump(for: 10) { $0.contains(.connected) }
        _ = try station.subscribe("gyms/north/bench-1/ack")
        let deadline = ContinuousClock.now + .seconds(30)
        var acknowledged = false
        while !acknowledged, ContinuousClock.now < deadline {
            _ = try station.publish(MQTTMessage(topic: "gyms/north/bench-1/workout", text: payload, qos: 1))
            let events = station.pump(for: 1) { events in events.contains { if case .message = $0 { true } else { false } } }
            acknowledged = events.contains { if case .message(let ack) = $0 { ack.topic == "gyms/north/bench-1/ack" } else { false } }
        }
        let stored = try PostgresRecordStoreTests.store(server).records()
        let said = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(acknowledged, "no ack from the central collector: \(said)")
        #expect(stored.map(\.gym) == ["north"], "\(said)")
        #expect(stored.map(\.workout.id) == [id], "\(said)")
        #expect(stored.first?.workout.station == "bench-1")
        collector.signal(SIGTERM)
        #expect(collector.wait(upTo: 10) == 0, "\(said)")

        let history = try run(["history", "--db", server.url, "--gym", "north", "--json"])
        #expect(history.status == 0, "\(history.stderr)")
        #expect(history.stdout.contains("\"gym\" : \"north\"") && history.stdout.contains("\"id\" : \"\(id)\""), "\(history.stdout)")
        let stats = try run(["stats", "--db", server.url, "--gym", "north", "--json"])
        #expect(stats.status == 0, "\(stats.stderr)")
        #expect(stats.stdout.contains("\"workouts\" : 1") && stats.stdout.contains("\"calories\" : 42"), "\(stats.stdout)")
        let nobody = try run(["stats", "--db", server.url, "--athlete", "04A1B2C3", "--json"])
        #expect(nobody.stdout.contains("\"workouts\" : 0"), "\(nobody.stdout)")
        // --void names the gym's result; a rest has none to void, and the answer says so in one line.
        let gymless = try run(["history", "--db", server.url, "--void", id])
        #expect(gymless.status == 2 && gymless.stderr.contains("--void needs --gym"), "\(gymless)")
        let rest = try run(["history", "--db", server.url, "--gym", "north", "--void", id])
        #expect(rest.status == 1 && rest.stderr.contains("Not voided: no such result counts") && rest.stderr.filter { $0 == "\n" }.count == 1, "\(rest)")
        let none = try run(["history", "--db=\(server.url)", "--gym", "south", "--json"])
        #expect(none.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[\n\n]" || none.stdout.contains("[]"), "\(none.stdout)")
    }

    /// `gymtimer athletes --db postgresql://…` runs gymtimer-central's roster: the lines one
    /// gym's `gymtimer athletes` prints, its refusals (exit 2), the rows it leaves, and `stats
    /// --athlete NAME` over every card of theirs in every gym.
    @Test func gymtimerAthletesWithAPostgresURLEditsTheChainsRoster() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.gymtimer), "build first: swift build")
        let server = try LocalPostgres()
        let shown = "postgresql://gymtimer@127.0.0.1:\(server.port)/postgres"
        let files = testDirectory("central-roster-key")
        defer { try? FileManager.default.removeItem(atPath: files) }
        let key = TestCardKey.file(in: files)
        // The chain's roster stores cards by pseudonym: the owner types a UID with the chain's key.
        let (anna, fob, other) = (TestCardKey.hex("04A1B2C3"), TestCardKey.hex("04FFEE01"), TestCardKey.hex("0A0B0C0D"))
        let both = [anna, fob].sorted().joined(separator: ", ")
        let empty = try run(["athletes", "--db", server.url, "list"])
        #expect(empty.status == 0 && empty.stdout == "No athletes in the roster of \(shown).\n", "\(empty)")
        let added = try run(["athletes", "--db", server.url, "add", "Anna Berg", "--card", "04a1b2c3", "--short", "AnnA", "--card-key", key])
        #expect(added.status == 0 && added.stdout == "Added Anna Berg (AnnA), card \(anna).\n", "\(added)")
        let card = try run(["athletes", "--db=\(server.url)", "card", "Anna Berg", "--add", "04FFEE01", "--card-key", key])
        #expect(card.status == 0 && card.stdout == "Anna Berg (AnnA), cards \(both).\n", "\(card)")
        let taken = try run(["athletes", "--db", server.url, "add", "Bo", "--card", fob])
        #expect(taken.status == 2, "\(taken)")
        #expect(taken.stderr == "gymtimer: card \(fob) is already \"Anna Berg\"'s (gymtimer athletes merge joins two athletes who are one person)\n", "\(taken)")
        let renamed = try run(["athletes", "--db", server.url, "rename", "anna berg", "--to", "Anna B"])
        #expect(renamed.status == 0 && renamed.stdout == "Now Anna B (AnnA), cards \(both).\n", "\(renamed)")
        let unknown = try run(["athletes", "--db", server.url, "forget", "Cy"])
        #expect(unknown.status == 2 && unknown.stderr.contains("no athlete named \"Cy\" in the roster"), "\(unknown)")
        let list = try run(["athletes", "--db", server.url, "list"])
        let rows = list.stdout.split(separator: "\n")
        #expect(rows.count == 2 && rows[0].hasPrefix("Name    Short  Cards") && rows[1].hasPrefix("Anna B  AnnA   \(both)  "), "\(list.stdout)")
        #expect(try server.query("SELECT a.name, a.short_name, c.card FROM athletes a JOIN athlete_cards c ON c.athlete_id = a.id ORDER BY c.card")
            == [anna, fob].sorted().map { ["Anna B", "AnnA", $0] })

        let store = try PostgresRecordStoreTests.store(server)
        let records = [
            PostgresRecordStoreTests.record("north", "bench-1", minutes: 1, athlete: CardID(hex: anna)),
            PostgresRecordStoreTests.record("south", "rower", minutes: 2, athlete: CardID(hex: fob)),
            PostgresRecordStoreTests.record("south", "rower", minutes: 3, athlete: CardID(hex: other)),
        ]
        #expect(try store.store(records) == 3)
        let stats = try run(["stats", "--db", server.url, "--athlete", "anna b", "--json"])
        #expect(stats.status == 0 && stats.stdout.contains("\"workouts\" : 2"), "\(stats)")
        let byCard = try run(["stats", "--db", server.url, "--athlete", fob, "--json"])
        #expect(byCard.stdout.contains("\"workouts\" : 2"), "\(byCard)")
        let nobody = try run(["stats", "--db", server.url, "--athlete", "Cy"])
        #expect(nobody.status == 2 && nobody.stderr.contains("not a card either"), "\(nobody)")

        let forgot = try run(["athletes", "--db", server.url, "forget", "Anna B"])
        #expect(forgot.status == 0 && forgot.stdout.hasPrefix("Forgot Anna B: 2 cards and 2 workouts removed from \(shown).\n"), "\(forgot)")
        #expect(try server.query("SELECT gym, athlete FROM workouts") == [["south", other]])
        #expect(try server.query("SELECT count(*) FROM athletes") == [["0"]])
    }

    /// A typo in the URL: one line from gymtimer-central, exit 2, nothing started.
    @Test func aBadURLIsOneUsageLine() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.gymtimer), "build first: swift build")
        let outcome = try run(["history", "--db", "postgresql://u:secret@h:70000/d"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr == "gymtimer: --db: bad database URL: the port 70000 is not a number from 1 to 65535 (expected postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=MODE&sslrootcert=FILE])\n")
    }

    /// gymtimer alone in a scratch directory (a hard link when it can, so /proc/self/exe names
    /// that directory), with `central` (a script) beside it as gymtimer-central, if given.
    private func lone(central: String?) throws -> (directory: URL, gymtimer: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("central-lone-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let copy = directory.appendingPathComponent("gymtimer").path
        do {
            try FileManager.default.linkItem(atPath: Self.gymtimer, toPath: copy)
        } catch {
            try FileManager.default.copyItem(atPath: Self.gymtimer, toPath: copy)
        }
        if let central {
            let stub = directory.appendingPathComponent("gymtimer-central").path
            try central.write(toFile: stub, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: stub)
        }
        return (directory, copy)
    }

    /// Every argument reaches gymtimer-central unchanged, the command's name first; a --db that
    /// is a file (SQLite, one gym) stays gymtimer's own.
    @Test func aPostgresDatabaseHandsEveryArgumentToGymtimerCentral() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.gymtimer), "build first: swift build")
        let (directory, gymtimer) = try lone(central: "#!/bin/sh\nprintf '[%s]\\n' \"$@\"\nexit 7\n")
        defer { try? FileManager.default.removeItem(at: directory) }
        for arguments in [
            ["collect", "--broker", "mqtt://h:1883", "--db", "postgres://u@h/d", "--shared", "central", "two words", ""],
            ["history", "--json", "--db=postgresql://u:p@h/d", "--help"],
        ] {
            let outcome = try run(arguments, executable: gymtimer)
            #expect(outcome.status == 7, "\(outcome.stderr)")
            #expect(outcome.stdout == arguments.map { "[\($0)]\n" }.joined(), "\(outcome.stdout)")
        }
        let sqlite = try run(["history", "--db", directory.appendingPathComponent("none.db").path], executable: gymtimer)
        #expect(sqlite.status != 7 && !sqlite.stdout.contains("["), "\(sqlite.stdout)")
    }

    @Test func aMissingGymtimerCentralIsOneLineNamingItsPath() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.gymtimer), "build first: swift build")
        let (directory, gymtimer) = try lone(central: nil)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try run(["collect", "--db", "postgresql://u@h/d", "--broker", "mqtt://h:1883"], executable: gymtimer)
        #expect(outcome.status == 1)
        #expect(outcome.stderr.split(separator: "\n").count == 1, "\(outcome.stderr)")
        #expect(outcome.stderr.hasPrefix("gymtimer: collect: \(directory.path)/gymtimer-central is missing"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("install the gymtimer package"), "\(outcome.stderr)")
    }

    /// `gymtimer ARGUMENTS` to its end: exit status, stdout, stderr.
    private func run(_ arguments: [String], executable: String = gymtimer) throws -> (status: Int32, stdout: String, stderr: String) {
        let files = FileManager.default.temporaryDirectory.appendingPathComponent("central-run-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: files) }
        let process = try RunningProcess(executable, arguments, stdout: files.path + ".out", stderr: files.path + ".err")
        let status = process.wait()
        defer { try? FileManager.default.removeItem(atPath: files.path + ".out"); try? FileManager.default.removeItem(atPath: files.path + ".err") }
        let out = (try? String(contentsOfFile: files.path + ".out", encoding: .utf8)) ?? ""
        let err = (try? String(contentsOfFile: files.path + ".err", encoding: .utf8)) ?? ""
        return (status, out, err)
    }
}
