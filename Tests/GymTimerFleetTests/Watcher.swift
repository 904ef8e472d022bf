import Foundation
import GymTimerFleet
import GymTimerMQTT

/// A subscriber on a real broker that keeps everything it saw, for the end-to-end tests: each
/// wait is for what the test needs next (with a bound that holds on a loaded machine), and
/// what came before it is still there to assert on.
final class Watcher {
    let client: MQTTClient
    private(set) var seen: [MQTTMessage] = []

    init(port: Int, _ topics: [String]) throws { client = try observer(port: port, topics) }

    /// Pumps until `done` holds for everything seen (or `seconds` pass); whether it holds.
    @discardableResult
    func wait(_ seconds: Double = 10, until done: ([MQTTMessage]) -> Bool) -> Bool {
        let before = seen
        _ = pump([client], timeout: seconds) { events in
            seen = before + (events[0] ?? []).compactMap { if case .message(let message) = $0 { message } else { nil } }
            return done(seen)
        }
        return done(seen)
    }

    var states: [[String: JSONValue]] { seen.filter { $0.topic.hasSuffix("/state") }.map { Self.object($0.text) } }
    var events: [[String: JSONValue]] { seen.filter { $0.topic.hasSuffix("/event") }.map { Self.object($0.text) } }
    func errors(_ kind: String) -> [[String: JSONValue]] {
        events.filter { $0["event"]?.string == "error" && $0["kind"]?.string == kind }
    }

    static func object(_ text: String) -> [String: JSONValue] {
        if case .object(let object)? = JSONValue.parse(Array(text.utf8)) { return object }
        return [:]
    }
}
