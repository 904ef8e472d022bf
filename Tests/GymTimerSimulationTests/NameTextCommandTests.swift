import Foundation
import GymTimerCore
import GymTimerHistory
import GymTimerSystem
import GymTimerTestSupport
import Testing

/// The real `gymtimer` binary refuses a name holding a control or format character
/// (`NameText`) where a person types one: `check-config` on a config whose program is so named
/// (a newline used to pass, and broke `history`'s table), `athletes add` and `athletes rename`.
/// Each says why in one line on stderr, exits non-zero, and prints no refused character.
@Suite struct NameTextCommandTests {
    static let rule = "names may not hold control or format characters"

    func expectSafe(_ outcome: GymtimerBinary.Outcome, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!(outcome.stdout + outcome.stderr).unicodeScalars.contains { NameText.isRefused($0) && $0 != "\n" },
                "\((outcome.stdout + outcome.stderr).debugDescription)", sourceLocation: sourceLocation)
    }

    @Test func checkConfigRefusesAProgramNameWithANewlineOrARightToLeftOverride() throws {
        try #require(GymtimerBinary.isBuilt, "build first: swift build")
        let files = try ScratchDirectory()
        for (escaped, words) in [(#"Fran\nRow"#, "has a line break (U+000A) at character 5"), (#"\u202EFran"#, "has a right-to-left override (U+202E) at character 1")] {
            let config = files.path + "/config.toml"
            try """
                mode = "program"
                [[programs]]
                name = "\(escaped)"
                label = "FrAn"
                kind = "for-time"
                """.write(toFile: config, atomically: true, encoding: .utf8)
            let checked = try GymtimerBinary.run(["check-config", config])
            #expect(checked.status != 0 && checked.stdout.isEmpty, "\(checked)")
            let lines = checked.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].contains(#"programs[1].name = "\#(escaped)": \#(words): \#(Self.rule)"#), "\(checked.stderr)")
            expectSafe(checked)
        }
        let config = files.path + "/fine.toml"
        try "[[programs]]\nname = \"Zoë 北京 💪\"\nlabel = \"FrAn\"\nkind = \"for-time\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let fine = try GymtimerBinary.run(["check-config", config])
        #expect(fine.status == 0 && fine.stdout == "\(config): ok\n", "\(fine)")
    }

    @Test func athletesAddAndRenameRefuseSuchANameInOneLine() throws {
        try #require(GymtimerBinary.isBuilt, "build first: swift build")
        let files = try ScratchDirectory()
        let db = files.path + "/gym.sqlite"
        _ = try HistoryStore(path: db, faults: FaultLog(sink: { _ in }))
        let add = try GymtimerBinary.run(["athletes", "--db", db, "add", "\u{202E}Anna Berg", "--card", TestCardKey.hex("04A1B2C3")])
        #expect(add.status != 0 && add.stdout.isEmpty, "\(add)")
        #expect(add.stderr == #"gymtimer: bad athlete name "\u{202E}Anna Berg": has a right-to-left override (U+202E) at character 1: "# + Self.rule + "\n",
                "\(add.stderr.debugDescription)")
        expectSafe(add)
        let added = try GymtimerBinary.run(["athletes", "--db", db, "add", "Zoë Ångström", "--card", TestCardKey.hex("04A1B2C3")])
        #expect(added.status == 0, "\(added)")
        let rename = try GymtimerBinary.run(["athletes", "--db", db, "rename", "Zoë Ångström", "--to", "Zoë\nÅngström"])
        #expect(rename.status != 0 && rename.stdout.isEmpty, "\(rename)")
        #expect(rename.stderr == #"gymtimer: bad athlete name "Zoë\u{000A}Ångström": has a line break (U+000A) at character 4: "# + Self.rule + "\n",
                "\(rename.stderr.debugDescription)")
        let list = try GymtimerBinary.run(["athletes", "--db", db, "list"])
        #expect(list.stdout.contains("Zoë Ångström"), "the old name stays: \(list.stdout)")
    }
}
