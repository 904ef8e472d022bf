import Foundation
import GymTimerCore
import GymTimerFleet
import Hummingbird
import HTTPTypes
import NIOCore

extension ConsoleServer {
    /// The program builder: a definition checked as a station checks it, saved in the gym's
    /// library, or deleted from it.
    func addProgramRoutes(_ router: Router<ConsoleRequestContext>) {
        // The program builder: a definition checked as a station checks it, saved in the library.
        action(router, "/api/program") { body -> Response in
            guard case .object(let definition)? = JSONValue.parse(Array(buffer: body)) else {
                return Self.json(.badRequest, message: "the request is not the JSON the page sends")
            }
            let program: Program
            switch Program.parse(definition: definition) {
            case .success(let parsed): program = parsed
            case .failure(let problem): return Self.json(.badRequest, message: "Not saved: \(problem)")
            }
            if case .failure(let problem) = library.save(program) { return Self.json(.conflict, message: "Not saved: \(problem)") }
            broadcast.publish(event: "programs", data: library.event)
            return Self.json(.ok, message: "Saved \(program.name) in the gym's programs")
        }
        action(router, "/api/program-delete") { body -> Response in
            guard case .object(let fields)? = JSONValue.parse(Array(buffer: body)), let name = fields["name"]?.string else {
                return Self.json(.badRequest, message: "the request is not the JSON the page sends")
            }
            if case .failure(let problem) = library.delete(named: name) { return Self.json(.conflict, message: "Not deleted: \(problem)") }
            broadcast.publish(event: "programs", data: library.event)
            return Self.json(.ok, message: "Deleted \(name) from the gym's programs")
        }
    }
}
