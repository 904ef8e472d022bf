import Foundation
import GymTimerConsole
import GymTimerCore
import GymTimerFleet
import Testing

/// The gym's programs (`ConsoleLibrary`) on a real file: saved, replaced by name, deleted and
/// read back by the next console; a hand-broken entry left out and said so; and a class with
/// one of them carries its definition to the stations.
@Suite struct ConsoleLibraryTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("library-\(UUID().uuidString)").path
    var path: String { folder + "/programs.json" }
    let row = Program(name: "Row 3 x 4", label: "ro 3", leadInSeconds: 2, format: .intervals(rounds: 3, workSeconds: 4, restSeconds: 2))
    let amrap = Program(name: "AMRAP 9", label: "A 9", format: .amrap(timeSeconds: 540))

    init() throws { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }

    @Test func savedProgramsAreReadBackByTheNextConsole() throws {
        let library = ConsoleLibrary(path: path)
        #expect(library.problem == nil && library.all.isEmpty)
        #expect(throws: Never.self) { try library.save(row).get() }
        #expect(throws: Never.self) { try library.save(amrap).get() }
        let faster = Program(name: "AMRAP 9", label: "A 9", format: .amrap(timeSeconds: 300))
        #expect(throws: Never.self) { try library.save(faster).get() }
        #expect(ConsoleLibrary(path: path).all == [row, faster], "replaced by name, in the order first saved")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == #"[{"name":"Row 3 x 4","label":"ro 3","kind":"intervals","rounds":3,"work_seconds":4,"rest_seconds":2,"lead_in_seconds":2},"#
            + #"{"name":"AMRAP 9","label":"A 9","kind":"amrap","time_seconds":300,"lead_in_seconds":10}]"#)
        #expect(throws: Never.self) { try library.delete(named: "Row 3 x 4").get() }
        #expect(ConsoleLibrary(path: path).all == [faster])
        guard case .failure(let problem) = library.delete(named: "Nope") else { Issue.record("deleted what is not there"); return }
        #expect(problem.description == #"the library has no program named "Nope""#)
    }

    @Test func aHandBrokenEntryIsLeftOutAndSaidSo() throws {
        try #"[{"name":"Row 3 x 4","label":"ro 3","kind":"intervals","rounds":3,"work_seconds":4,"rest_seconds":2,"lead_in_seconds":2},"#
            .appending(#"{"name":"Bad","label":"A","kind":"amrap","time_seconds":1e300}, 7]"#).write(toFile: path, atomically: true, encoding: .utf8)
        let library = ConsoleLibrary(path: path)
        #expect(library.all == [row])
        #expect(library.problem == "\(path): 2 entries are not a valid program and left out")
        try "not json".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(ConsoleLibrary(path: path).problem?.hasSuffix("is not a JSON list of programs: the console starts with none (the file is kept until a save)") == true)
    }

    @Test func aLibraryThatCannotBeWrittenSaysSoAndKeepsWhatItHad() throws {
        let library = ConsoleLibrary(path: folder + "/missing-folder/programs.json")
        guard case .failure(let problem) = library.save(row) else { Issue.record("saved into a missing folder"); return }
        #expect(problem.description.hasPrefix("the library could not be saved: "), "\(problem)")
        #expect(library.all.isEmpty)
    }

    @Test func aClassWithALibraryProgramCarriesItsDefinition() throws {
        var action = try ConsoleAction.parse(.class, body: Array(#"{"stations":["rack-1"],"program":"Row 3 x 4","lead":5}"#.utf8)).get()
        #expect(action.commands(now: 1000) == [.classStart(at: 1005, runs: .named(mode: "program", name: "Row 3 x 4"))])
        action.definition = row
        #expect(action.commands(now: 1000) == [.classStart(at: 1005, runs: .defined(row))])
    }
}
