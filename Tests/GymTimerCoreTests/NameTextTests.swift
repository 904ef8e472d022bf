import Testing
@testable import GymTimerCore

/// The one check every name goes through (`NameText`): which characters it refuses, how it
/// names them (kind, code point, position in characters) and how it escapes a name it quotes;
/// and the program rules built on it (`Program.nameProblem`, a class program's definition at
/// the kiosk).
@Suite struct NameTextTests {
    @Test(arguments: [
        ("\u{202E}Fran", "a right-to-left override (U+202E)", 1),
        ("Fran\nRow", "a line break (U+000A)", 5),
        ("Fran\r\nRow", "a line break (U+000D)", 5),
        ("a\tb", "a tab (U+0009)", 2),
        ("a\u{1B}[2J", "an escape (U+001B)", 2),
        ("a\u{85}b", "a line break (U+0085)", 2),
        ("a\u{2028}b", "a line break (U+2028)", 2),
        ("a\u{2029}b", "a line break (U+2029)", 2),
        ("ab\u{200B}", "a zero-width space (U+200B)", 3),
        ("a\u{200C}b", "a zero-width non-joiner (U+200C)", 1),
        ("a\u{200E}b", "a left-to-right mark (U+200E)", 2),
        ("a\u{200F}b", "a right-to-left mark (U+200F)", 2),
        ("a\u{202A}b", "a left-to-right embedding (U+202A)", 2),
        ("a\u{202D}b", "a left-to-right override (U+202D)", 2),
        ("a\u{2066}b\u{2069}", "a left-to-right isolate (U+2066)", 2),
        ("a\u{2067}b", "a right-to-left isolate (U+2067)", 2),
        ("a\u{2068}b", "a first strong isolate (U+2068)", 2),
        ("ab\u{2069}", "a pop directional isolate (U+2069)", 3),
        ("\u{FEFF}ab", "a zero-width no-break space (U+FEFF)", 1),
        ("ab\u{AD}c", "a soft hyphen (U+00AD)", 3),
        ("a\u{E0041}", "a tag character (U+E0041)", 1),
        ("a\u{0}", "a null character (U+0000)", 2),
        ("a\u{7F}", "a delete character (U+007F)", 2),
        ("a\u{9B}", "a control character (U+009B)", 2),
        ("a\u{600}b", "a format character (U+0600)", 2),
    ])
    func aControlOrFormatCharacterIsNamedWithItsCodeAndPlace(text: String, kind: String, position: Int) throws {
        let problem = try #require(NameText.problem(text))
        #expect("\(problem.kind) (\(NameText.code(problem.scalar)))" == kind)
        #expect(problem.position == position)
        #expect(problem.description == "has \(kind) at character \(position): names may not hold control or format characters")
    }

    @Test func ordinaryNamesInAnyScriptPass() {
        for name in ["Anna Berg", "Ångström", "Zoë", "北京", "Ödön Lévai-Müller", "Δ Delta", "Кира", "تمرين", "💪", "Row 💪🏽", "5×5 @ 80%", "🇸🇪 Team", "1️⃣ Warm-up"] {
            #expect(NameText.problem(name) == nil, "\(name)")
            #expect(NameText.escaped(name) == name)
            #expect(Program.nameProblem(String(name.prefix(Program.maxNameLength))) == nil, "\(name)")
        }
    }

    /// A zero-width joiner is a format character: an emoji sequence built with one is refused
    /// (documented in `NameText`), its parts alone pass.
    @Test func anEmojiJoinedWithAZeroWidthJoinerIsRefused() throws {
        let problem = try #require(NameText.problem("Dev 👩‍💻"))
        #expect(problem.kind == "a zero-width joiner" && problem.position == 5)
        #expect(NameText.problem("Dev 👩💻") == nil)
    }

    @Test func aQuotedNameShowsEveryRefusedCharacterAsItsCode() {
        #expect(NameText.quoted("\u{202E}Fran\nRow") == #""\u{202E}Fran\u{000A}Row""#)
        #expect(NameText.escaped("tag\u{E0041}") == #"tag\u{E0041}"#)
        #expect(!NameText.quoted("\u{202E}\u{2066}\u{200B}\u{1B}x").unicodeScalars.contains(where: NameText.isRefused))
    }

    @Test func aProgramsNameAndLabelAreHeldToIt() {
        #expect(Program.nameProblem("\u{202E}Fran")
            == "has a right-to-left override (U+202E) at character 1: names may not hold control or format characters")
        #expect(Program.nameProblem("Fran\nRow") == "has a line break (U+000A) at character 5: names may not hold control or format characters")
        #expect(Program.nameProblem("") == "must not be empty")
        #expect(Program.nameProblem(String(repeating: "x", count: 25))?.hasPrefix("must be at most 24 characters") == true)
        #expect(Program.labelProblem("A\u{202E}") == "has a right-to-left override (U+202E) at character 2: names may not hold control or format characters")
        let hostile = Program(name: "\u{202E}Fran", label: "FrAn", leadInSeconds: 3, format: .forTime(capSeconds: 0))
        #expect(hostile.definitionProblem == "name has a right-to-left override (U+202E) at character 1: names may not hold control or format characters")
    }

    /// A station's kiosk refuses a class program so named, and a `select` naming one quotes the
    /// name escaped.
    @Test func theKioskRefusesSuchAProgramAndQuotesSuchANameEscaped() {
        var driver = Driver<Kiosk>.startedKiosk()
        let hostile = Program(name: "Fran\nRow", label: "FrAn", leadInSeconds: 3, format: .forTime(capSeconds: 0))
        let refused = driver.send(.command(.selectProgram(hostile)), at: at(1))
        #expect(refused.contains(.refused(KioskRefusal(
            "select", "the program's name has a line break (U+000A) at character 5: names may not hold control or format characters"))),
            "\(refused)")
        #expect(driver.machine.menu(at: at(2))?.programLabels == Program.builtIns.map(\.label), "nothing was added")
        guard case .failure(let unknown) = driver.machine.menuEntry(for: .program, named: "\u{202E}Fran") else {
            Issue.record("a program nobody has was found")
            return
        }
        #expect(unknown.reason == #"no program named "\u{202E}Fran""#)
    }
}
