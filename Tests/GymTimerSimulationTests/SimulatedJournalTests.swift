import Foundation
import GymTimerCore
@testable import GymTimerHistory
import GymTimerRuntime
import Testing
@testable import GymTimerBenchmark
@testable import GymTimerSimulator
import GymTimerSystem

/// The scripted simulator keeps its journal in memory when the user gave no data directory:
/// a simulated gym day writes no journal file (each save was a `pwrite` and an `fdatasync`,
/// which made a day take minutes instead of moments), yet behaves as with the file.
@Suite struct SimulatedJournalTests {
    /// Two days with restarts, so controllers are rebuilt from what the journal holds.
    static let script = GymDayScript(openHours: 17...19, bounces: true, restarts: true).make(days: 2, seed: 0x5EED)

    @Test func aGymDayWithoutADataDirectoryWritesNoJournalFile() throws {
        var lines = 0
        let simulation = try ScriptedSimulation(script: Self.script, settings: KioskSettings(), write: { _ in lines += 1 })
        try simulation.run()
        let memory = try #require(simulation.journalMemory)
        #expect(!FileManager.default.fileExists(atPath: simulation.statePath), "the journal must not be a file")
        #expect(memory.writes > 100, "every change of state is still saved, in memory")
        // Saves follow changes of state, not the clock: O(script), not O(virtual time).
        #expect(memory.writes < 20 * Self.script.steps.count)
        #expect(memory.asides == 0)
        #expect(lines > 1000)
        // The run's own temporary history is not synced either (SQLite synced every record).
        // (`HistoryStoreTests.aHistoryOpenedNotDurableSkipsSQLitesSyncs` checks what that means.)
        #expect(!simulation.store.durable)
    }

    @Test func theTraceWithTheJournalInMemoryIsTheTraceWithTheFile() throws {
        #expect(Self.script.steps.contains { $0.action == .restart })
        var inMemory: [String] = []
        try ScriptedSimulation(script: Self.script, settings: KioskSettings(), write: { inMemory.append($0) }).run()
        let files = try ScratchDirectory()
        var onFile: [String] = []
        let simulation = try ScriptedSimulation(
            script: Self.script, settings: KioskSettings(), dataDirectory: files.path, write: { onFile.append($0) })
        #expect(simulation.journalMemory == nil, "a data directory of the user's keeps the real journal")
        try simulation.run()
        #expect(FileManager.default.fileExists(atPath: simulation.statePath))
        #expect(simulation.store.durable, "a data directory of the user's is synced as the kiosk's")
        #expect(inMemory.count > 1000)
        #expect(inMemory == onFile)
        #expect(simulation.history.records.count > 5)
    }

    @Test func aJournalInMemoryGivesBackTheLastSaveToTheNextController() throws {
        let memory = JournalMemory()
        let first = KioskJournal<[String]>(path: "/nowhere/state.journal", slotSize: 4096, memory: memory)
        #expect(try first.load() == nil)
        try first.save(["a"])
        try first.save(["a", "b"])
        let next = KioskJournal<[String]>(path: "/nowhere/state.journal", slotSize: 4096, memory: memory)
        #expect(try next.load() == ["a", "b"])
        try next.save(["c"])
        #expect(try KioskJournal<[String]>(path: "/nowhere/state.journal", slotSize: 4096, memory: memory).load() == ["c"])
        #expect(memory.writes == 3)
        #expect(!FileManager.default.fileExists(atPath: "/nowhere/state.journal"))
        #expect(throws: KioskJournalError.self) { try next.save([String(repeating: "x", count: 5000)]) }
    }
}
