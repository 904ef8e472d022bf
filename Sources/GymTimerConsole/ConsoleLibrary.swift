import Foundation
import GymTimerCore
import GymTimerFleet
import GymTimerSystem

/// The gym's programs, built in the console (a JSON file kept with the gym's data, beside the
/// collector's database): a class started with one of them carries its definition to every
/// station (`FleetClassProgram.defined`), so a new workout needs no TOML edit on any Pi. Each
/// definition, from the page or from the file, is checked as a station checks it
/// (`Program.parse(definition:)`): an entry a hand edit broke is left out and said so.
///
/// `@unchecked Sendable` is safe: `programs` and `storedProblem` are read and written only
/// while `lock` is held (or in `init`, before the library is shared); the rest is `let`.
public final class ConsoleLibrary: @unchecked Sendable {
    // A lock, not an actor: the server's handlers and the page's first frame read it
    // synchronously, and a save is one small file write.
    private let lock = NSLock()
    private var programs: [Program] = []
    /// Where the library is kept; nil: only in memory (the page says so).
    public let path: String?
    private var storedProblem: String?
    /// What went wrong reading or writing the file, for the page and the log.
    public var problem: String? {
        lock.lock()
        defer { lock.unlock() }
        return storedProblem
    }

    /// The most programs a library holds (the page lists them all).
    public static let maximumPrograms = 100

    public init(path: String?) {
        self.path = path
        guard let path else { return }
        guard let data = FileManager.default.contents(atPath: path) else {
            if FileManager.default.fileExists(atPath: path) { storedProblem = "\(path) cannot be read" }
            return
        }
        guard data.count <= 1 << 20, case .array(let entries)? = JSONValue.parse(Array(data)) else {
            storedProblem = "\(path) is not a JSON list of programs: the console starts with none (the file is kept until a save)"
            return
        }
        var skipped = 0
        for entry in entries.prefix(Self.maximumPrograms) {
            guard case .object(let definition) = entry, case .success(let program) = Program.parse(definition: definition),
                  !programs.contains(where: { $0.name == program.name })
            else { skipped += 1; continue }
            programs.append(program)
        }
        skipped += max(0, entries.count - Self.maximumPrograms)
        if skipped > 0 { storedProblem = "\(path): \(skipped) entr\(skipped == 1 ? "y is" : "ies are") not a valid program and left out" }
    }

    /// The programs, in the order they were first saved.
    public var all: [Program] {
        lock.lock()
        defer { lock.unlock() }
        return programs
    }

    /// The program named `name`, if the library has one.
    public func program(named name: String) -> Program? { all.first { $0.name == name } }

    /// Saves `program` (replacing the one of the same name), or says why not.
    public func save(_ program: Program) -> Result<Void, ConsolePIN.Problem> {
        lock.lock()
        defer { lock.unlock() }
        var next = programs
        if let index = next.firstIndex(where: { $0.name == program.name }) {
            next[index] = program
        } else {
            guard next.count < Self.maximumPrograms else {
                return .failure(.init(description: "the library holds \(Self.maximumPrograms) programs: delete one first"))
            }
            next.append(program)
        }
        return store(next)
    }

    /// Deletes the program named `name`, or says why not.
    public func delete(named name: String) -> Result<Void, ConsolePIN.Problem> {
        lock.lock()
        defer { lock.unlock() }
        guard programs.contains(where: { $0.name == name }) else {
            return .failure(.init(description: "the library has no program named \(FleetCell.quoted(name, width: 30))"))
        }
        return store(programs.filter { $0.name != name })
    }

    /// Writes `next` (atomically: a power cut leaves the old file or the new one), then keeps it.
    private func store(_ next: [Program]) -> Result<Void, ConsolePIN.Problem> {
        if let path {
            do {
                try SafeFiles.replace(path, with: Array(Self.json(next).utf8), mode: 0o644)
            } catch {
                return .failure(.init(description: "the library could not be saved: \(error)"))
            }
        }
        programs = next
        storedProblem = nil
        return .success(())
    }

    /// The programs as a JSON list of definitions (the file, and the page's `programs` event).
    public static func json(_ programs: [Program]) -> String { "[" + programs.map(\.definitionJSON).joined(separator: ",") + "]" }

    /// The page's `programs` event: the library, and where it is kept or what is wrong with it.
    public var event: String {
        let note = problem ?? (path == nil ? "kept in memory only: start the console with --library FILE to keep it" : nil)
        return #"{"library":"# + Self.json(all) + #","note":"# + (note.map { JSONValue.quoted($0) } ?? "null") + "}"
    }
}
