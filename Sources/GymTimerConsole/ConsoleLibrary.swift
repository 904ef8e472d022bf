import Foundation
import GymTimerCore
import GymTimerFleet
import GymTimerSystem
import Synchronization

/// The gym's programs, built in the console (a JSON file kept with the gym's data, beside the
/// collector's database): a class started with one of them carries its definition to every
/// station (`FleetClassProgram.defined`), so a new workout needs no TOML edit on any Pi. Each
/// definition, from the page or from the file, is checked as a station checks it
/// (`Program.parse(definition:)`): an entry a hand edit broke is left out and said so.
public final class ConsoleLibrary: Sendable {
    /// The programs and what went wrong with the file. Behind a `Mutex`, not in an actor: the
    /// server's handlers and the page's first frame read it synchronously, and a save is one
    /// small file write.
    private struct State {
        var programs: [Program] = []
        var problem: String?
    }

    private let state: Mutex<State>
    /// Where the library is kept; nil: only in memory (the page says so).
    public let path: String?
    /// What went wrong reading or writing the file, for the page and the log.
    public var problem: String? { state.withLock { $0.problem } }

    /// The most programs a library holds (the page lists them all).
    public static let maximumPrograms = 100

    public init(path: String?) {
        self.path = path
        state = Mutex(path.map(Self.read) ?? State())
    }

    /// The library in the file at `path`, and what is wrong with it.
    private static func read(_ path: String) -> State {
        guard let data = FileManager.default.contents(atPath: path) else {
            return State(problem: FileManager.default.fileExists(atPath: path) ? "\(path) cannot be read" : nil)
        }
        guard data.count <= 1 << 20, case .array(let entries)? = JSONValue.parse(Array(data)) else {
            return State(problem: "\(path) is not a JSON list of programs: the console starts with none (the file is kept until a save)")
        }
        var read = State()
        var skipped = 0
        for entry in entries.prefix(Self.maximumPrograms) {
            guard case .object(let definition) = entry, case .success(let program) = Program.parse(definition: definition),
                  !read.programs.contains(where: { $0.name == program.name })
            else { skipped += 1; continue }
            read.programs.append(program)
        }
        skipped += max(0, entries.count - Self.maximumPrograms)
        if skipped > 0 { read.problem = "\(path): \(skipped) entr\(skipped == 1 ? "y is" : "ies are") not a valid program and left out" }
        return read
    }

    /// The programs, in the order they were first saved.
    public var all: [Program] { state.withLock { $0.programs } }

    /// The program named `name`, if the library has one.
    public func program(named name: String) -> Program? { all.first { $0.name == name } }

    /// Saves `program` (replacing the one of the same name), or says why not.
    public func save(_ program: Program) -> Result<Void, ConsolePIN.Problem> {
        state.withLock { state in
            var next = state.programs
            if let index = next.firstIndex(where: { $0.name == program.name }) {
                next[index] = program
            } else {
                guard next.count < Self.maximumPrograms else {
                    return .failure(.init(description: "the library holds \(Self.maximumPrograms) programs: delete one first"))
                }
                next.append(program)
            }
            return store(next, in: &state)
        }
    }

    /// Deletes the program named `name`, or says why not.
    public func delete(named name: String) -> Result<Void, ConsolePIN.Problem> {
        state.withLock { state in
            guard state.programs.contains(where: { $0.name == name }) else {
                return .failure(.init(description: "the library has no program named \(FleetCell.quoted(name, width: 30))"))
            }
            return store(state.programs.filter { $0.name != name }, in: &state)
        }
    }

    /// Writes `next` (atomically: a power cut leaves the old file or the new one), then keeps it
    /// in `state` (whose lock the caller holds).
    private func store(_ next: [Program], in state: inout State) -> Result<Void, ConsolePIN.Problem> {
        if let path {
            do {
                try SafeFiles.replace(path, with: Array(Self.json(next).utf8), mode: 0o644)
            } catch {
                return .failure(.init(description: "the library could not be saved: \(error)"))
            }
        }
        state.programs = next
        state.problem = nil
        return .success(())
    }

    /// The programs as a JSON list of definitions (the file, and the page's `programs` event).
    public static func json(_ programs: [Program]) -> String { FleetJSONEncoder().text(programs.map(ProgramDefinition.init)) }

    /// The page's `programs` event: the library, and where it is kept or what is wrong with it.
    public var event: String {
        let note = problem ?? (path == nil ? "kept in memory only: start the console with --library FILE to keep it" : nil)
        return FleetJSONEncoder().text(Event(library: all.map(ProgramDefinition.init), note: note))
    }

    /// The `programs` event's payload: `{"library":[…],"note":…}` (`null` when there is no note).
    private struct Event: Encodable {
        let library: [ProgramDefinition]
        let note: String?

        private enum CodingKeys: String, CodingKey {
            case library, note
        }

        func encode(to encoder: Encoder) throws {
            var fields = encoder.container(keyedBy: CodingKeys.self)
            try fields.encode(library, forKey: .library)
            try fields.encode(note, forKey: .note)
        }
    }
}
