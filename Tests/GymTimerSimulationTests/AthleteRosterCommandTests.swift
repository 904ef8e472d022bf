import Foundation
import GymTimerCore
import GymTimerHistory
import Testing
import GymTimerSystem
import GymTimerTestSupport

/// `gymtimer athletes --db PATH …`, the real binary on a real gym's database: the roster's
/// commands as the README shows them, `history` / `stats --athlete NAME`, and one-line errors
/// with a non-zero exit for a typo'd name, a bad UID and a missing database. The owner types
/// cards' UIDs with the gym's card key; only their pseudonyms are stored and printed.
@Suite struct AthleteRosterCommandTests {
    /// The pseudonyms of Anna's two cards and Ben's, under the tests' key.
    static let anna = TestCardKey.hex("04A1B2C3"), annaFob = TestCardKey.hex("04D4E5F6A1B2C3"), ben = TestCardKey.hex("04B2C3D4")

    /// A gym's database: Anna's card on two stations, her second fob once, Ben's card once, a guest.
    func database(in files: ScratchDirectory) throws -> String {
        let path = files.path + "/gym.sqlite"
        let store = try HistoryStore(path: path, faults: FaultLog(sink: { _ in }))
        let start = Date(timeIntervalSince1970: 1_767_600_000)
        let entries: [(String, String?)] = [("rack-1", "04A1B2C3"), ("rack-2", "04A1B2C3"), ("rack-1", "04D4E5F6A1B2C3"), ("rack-2", "04B2C3D4"), ("rack-1", nil)]
        try store.store(entries.enumerated().map { n, entry in
            let date = start.addingTimeInterval(Double(n) * 3600)
            return StoredWorkout(
                id: "\(entry.0)/rest@\(n)", kind: .rest, sets: 3, durationMilliseconds: 300_000, calories: 0, exercises: [],
                preset: nil, completedAt: date, localDay: LocalDay(date, in: .current), station: entry.0,
                athlete: entry.1.map(TestCardKey.card))
        })
        return path
    }

    func run(_ arguments: [String]) throws -> GymtimerBinary.Outcome {
        let outcome = try GymtimerBinary.run(arguments)
        return outcome
    }

    @Test func theRosterFromAddToForget() throws {
        try #require(GymtimerBinary.isBuilt, "build first: swift build")
        let files = try ScratchDirectory()
        let db = try database(in: files)
        let key = TestCardKey.file(in: files.path)
        let (anna, annaFob, ben) = (Self.anna, Self.annaFob, Self.ben)

        let empty = try run(["athletes", "--db", db, "list"])
        #expect(empty.status == 0 && empty.stdout == "No athletes in the roster of \(db).\n", "\(empty.stderr)")
        let add = try run(["athletes", "--db", db, "add", "Anna Berg", "--card", "04a1b2c3", "--card-key", key])
        #expect(add.status == 0 && add.stdout == "Added Anna Berg (AnnA), card \(anna).\n", "\(add.stderr)")
        #expect(try run(["athletes", "--db", db, "add", "Anna B.", "--card", "04D4E5F6A1B2C3", "--short", "AnnB", "--card-key", key]).status == 0)
        #expect(try run(["athletes", "--db", db, "add", "Ben", "--card", "04B2C3D4", "--card-key", key]).status == 0)
        let taken = try run(["athletes", "--db", db, "add", "Carla", "--card", ben])
        #expect(taken.status == 2 && taken.stdout.isEmpty)
        #expect(taken.stderr.hasPrefix("gymtimer: card \(ben) is already \"Ben\"'s") && taken.stderr.split(separator: "\n").count == 1)

        // Before the merge, her name answers for her first card only.
        let before = try run(["history", "--db", db, "--json", "--athlete", "Anna Berg"])
        #expect(try ids(before.stdout) == ["rack-1/rest@0", "rack-2/rest@1"], "\(before.stderr)")
        let merge = try run(["athletes", "--db", db, "merge", "Anna B.", "--into", "Anna Berg"])
        #expect(merge.status == 0 && merge.stdout == "Merged Anna B. into Anna Berg (AnnA), cards \([anna, annaFob].sorted().joined(separator: ", ")).\n", "\(merge.stderr)")
        for athlete in ["Anna Berg", "anna berg", anna, annaFob] {
            let history = try run(["history", "--db", db, "--json", "--athlete", athlete])
            #expect(try ids(history.stdout) == ["rack-1/rest@0", "rack-2/rest@1", "rack-1/rest@2"], "\(athlete): \(history.stderr)")
        }
        let stats = try run(["stats", "--db", db, "--json", "--athlete", "Anna Berg"])
        let numbers = try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any]
        #expect(numbers?["workouts"] as? Int == 3 && numbers?["points"] as? Int == 150, "\(stats.stdout)\(stats.stderr)")

        // The table names her by her roster name, for both her cards; no UID or pseudonym of hers is shown.
        let table = try run(["history", "--db", db, "--athlete", "Anna Berg"])
        let rows = table.stdout.split(separator: "\n").map(String.init)
        #expect(rows.first?.contains("Athlete") == true && rows.filter { $0.contains("Anna Berg") }.count == 3, "\(table.stdout)")
        #expect(!table.stdout.contains("04A1B2C3") && !table.stdout.contains(anna) && !table.stdout.contains(annaFob), "\(table.stdout)")

        let rename = try run(["athletes", "--db", db, "rename", "Anna Berg", "--to", "Anna Nilsson", "--short", "AnnN"])
        #expect(rename.status == 0 && rename.stdout == "Now Anna Nilsson (AnnN), cards \([anna, annaFob].sorted().joined(separator: ", ")).\n", "\(rename.stderr)")
        let shown = try run(["athletes", "--db", db, "public", "anna nilsson", "short"])
        #expect(shown.status == 0 && shown.stdout == "Signed out, Anna Nilsson is shown as AnnN.\n", "\(shown)")
        let full = try run(["athletes", "--db", db, "public", "Anna Nilsson", "full"])
        #expect(full.status != 0 && full.stderr.contains("initial, short or guest"), "\(full)")
        let card = try run(["athletes", "--db", db, "card", "Ben", "--add", "0E", "--card-key", key])
        #expect(card.status == 0 && card.stdout == "Ben (bEn), cards \([ben, TestCardKey.hex("0E")].sorted().joined(separator: ", ")).\n", "\(card.stderr)")
        let list = try run(["athletes", "--db", db, "list"])
        let lines = list.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3 && lines[0].hasPrefix("Name          Short  Cards"), "\(list.stdout)")
        #expect(lines[1].hasPrefix("Anna Nilsson  AnnN   \([anna, annaFob].sorted().joined(separator: ", "))  20"), "\(list.stdout)")

        let json = try run(["athletes", "--db", db, "export", "Anna Nilsson"])
        let export = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect((export?["athlete"] as? [String: Any])?["name"] as? String == "Anna Nilsson")
        #expect((export?["workouts"] as? [[String: Any]])?.count == 3)
        let csv = try run(["athletes", "--db", db, "export", "Anna Nilsson", "--csv"])
        #expect(csv.stdout.hasPrefix("name,short_name,created_at,cards\nAnna Nilsson,AnnN,"), "\(csv.stdout)")
        #expect(csv.stdout.split(separator: "\n").count == 2 + 1 + 3)

        let forget = try run(["athletes", "--db", db, "forget", "Anna Nilsson"])
        #expect(forget.status == 0 && forget.stdout.hasPrefix("Forgot Anna Nilsson: 2 cards and 3 workouts removed from \(db).\n"), "\(forget.stderr)")
        #expect(forget.stdout.contains("The collector now tells every station"), "\(forget.stdout)")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: db))
        #expect(bytes.range(of: Data("Anna".utf8)) == nil, "her name goes at once")
        // Her cards wait in the forget requests until the collector has told every station.
        let store = try HistoryStore(path: db, faults: FaultLog(sink: { _ in }))
        let requests = try store.forgetRequests()
        #expect(Set(requests.map(\.card.hex)) == [anna, annaFob])
        for request in requests { try store.completeForget(request: request.id) }
        bytes = try Data(contentsOf: URL(fileURLWithPath: db))
        for trace in ["Anna", anna, annaFob] { #expect(bytes.range(of: Data(trace.utf8)) == nil, "\(trace)") }
        #expect(!FileManager.default.fileExists(atPath: db + "-wal"))
        let rest = try run(["history", "--db", db, "--json"])
        #expect(try ids(rest.stdout) == ["rack-2/rest@3", "rack-1/rest@4"])
        // Her card, now nobody's, is a card with no records.
        let gone = try run(["history", "--db", db, "--athlete", anna])
        #expect(gone.status == 0 && gone.stdout == "No workouts recorded.\n")
    }

    @Test func mistakesAreOneLineErrors() throws {
        try #require(GymtimerBinary.isBuilt, "build first: swift build")
        let files = try ScratchDirectory()
        let db = try database(in: files)
        let key = TestCardKey.file(in: files.path)
        #expect(try run(["athletes", "--db", db, "add", "Anna Berg", "--card", "04A1B2C3", "--card-key", key]).status == 0)
        let cases: [([String], String)] = [
            (["athletes", "--db", db, "forget", "Ana Berg"],
             "gymtimer: no athlete named \"Ana Berg\" in the roster (gymtimer athletes --db PATH list shows who is)"),
            (["athletes", "--db", db, "export", "Ana"],
             "gymtimer: no athlete named \"Ana\" in the roster (gymtimer athletes --db PATH list shows who is)"),
            (["athletes", "--db", db, "add", "Ben", "--card", "04B2C3Z4"],
             "gymtimer: bad card for --card: \"04B2C3Z4\" (expected a card's UID in hex, 1 to 10 bytes, e.g. 04A1B2C3, or its 24-digit pseudonym as `athletes list` prints it)"),
            (["athletes", "--db", db, "add", "Ben", "--card", "04B2C3D4"],
             "gymtimer: --card 04B2C3D4 is a card's UID: give the gym's card key (--card-key FILE, the stations' [athletes] card_key), which turns it into the card's pseudonym"),
            (["athletes", "--db", db, "add", "Ben", "--card", "04B2C3D4", "--card-key", files.path + "/no.key"],
             "gymtimer: card key \(files.path)/no.key: cannot be read: No such file or directory (the gym's card key, 32 bytes of hex on one line, the same on every station and server of the gym; docs/security.md)"),
            (["athletes", "--db", db, "card", "Anna Berg", "--add", "123"],
             "gymtimer: bad card for --add: \"123\" (expected a card's UID in hex, 1 to 10 bytes, e.g. 04A1B2C3, or its 24-digit pseudonym as `athletes list` prints it)"),
            (["athletes", "--db", db, "merge", "Anna Berg", "--into", "anna berg"],
             "gymtimer: cannot merge \"Anna Berg\" into themselves: name two different athletes"),
            (["athletes", "--db", files.path + "/typo.sqlite", "list"],
             "gymtimer: no gym database at \(files.path)/typo.sqlite: the roster is kept in the collector's database (gymtimer collect --db \(files.path)/typo.sqlite creates it); check the path"),
            (["athletes", "--db", files.path + "/typo.sqlite", "add", "Ben", "--card", Self.ben],
             "gymtimer: no gym database at \(files.path)/typo.sqlite: the roster is kept in the collector's database (gymtimer collect --db \(files.path)/typo.sqlite creates it); check the path"),
            (["history", "--db", files.path + "/typo.sqlite", "--athlete", "Anna Berg"],
             "gymtimer: no history database at \(files.path)/typo.sqlite"),
            (["stats", "--db", db, "--athlete", "Ana Berg"],
             "gymtimer: no athlete named Ana Berg in the roster of \(db), and not a card either (its pseudonym as `athletes list` prints it)"),
        ]
        for (arguments, message) in cases {
            let outcome = try run(arguments)
            #expect(outcome.status == 2, "\(arguments)")
            #expect(outcome.stdout.isEmpty, "\(arguments)")
            #expect(outcome.stderr == message + "\n", "\(arguments)")
        }
        #expect(!FileManager.default.fileExists(atPath: files.path + "/typo.sqlite"))
    }

    /// The `id`s of a `history --json` output.
    func ids(_ json: String) throws -> [String] {
        let records = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]]
        return records?.compactMap { $0["id"] as? String } ?? []
    }
}
