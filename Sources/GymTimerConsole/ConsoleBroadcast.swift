import Foundation
import Synchronization

/// Hands the page's live updates (Server-Sent Events) from the console's threads to every open
/// page: the latest of each kind is kept, so a page that connects gets the whole floor at once.
/// Each page has a small buffer of its own: a page that stops reading loses old updates, never
/// the console's memory. What it keeps is behind one `Mutex`.
public final class ConsoleBroadcast: Sendable {
    /// The latest frame of each kind (in the order the kinds first came) and the open pages.
    private struct State {
        var latest: [String: String] = [:]
        var order: [String] = []
        var listeners: [UUID: AsyncStream<String>.Continuation] = [:]
    }

    private let state = Mutex(State())
    /// The most pages served at once; one more is refused (HTTP 503).
    public let maximumListeners: Int

    public init(maximumListeners: Int = 64) { self.maximumListeners = maximumListeners }

    /// One Server-Sent Event: `event` named, `data` on one line (the JSON has no newline).
    public static func frame(event: String, data: String) -> String {
        "event: \(event)\ndata: \(data.replacingOccurrences(of: "\n", with: " "))\n\n"
    }

    /// Sends `data` as event `event` to every page, and keeps it for pages that open later.
    /// Says whether it differs from the last one of its kind (an equal one is not sent).
    @discardableResult
    public func publish(event: String, data: String) -> Bool {
        let frame = Self.frame(event: event, data: data)
        return state.withLock { state in
            guard state.latest[event] != frame else { return false }
            if state.latest[event] == nil { state.order.append(event) }
            state.latest[event] = frame
            for listener in state.listeners.values { listener.yield(frame) }
            return true
        }
    }

    /// The latest event of kind `event` as its frame, if any was published.
    public func latest(_ event: String) -> String? {
        state.withLock { $0.latest[event] }
    }

    /// A stream of frames for one page, starting with the latest of every kind; nil when
    /// `maximumListeners` pages are open already.
    public func listen() -> AsyncStream<String>? {
        let id = UUID()
        return state.withLock { state in
            guard state.listeners.count < maximumListeners else { return nil }
            let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(32))
            for event in state.order { if let frame = state.latest[event] { continuation.yield(frame) } }
            continuation.onTermination = { [weak self] _ in self?.remove(id) }
            state.listeners[id] = continuation
            return stream
        }
    }

    /// Ends every page's stream (the console is stopping).
    public func finish() {
        let all = state.withLock { state in
            defer { state.listeners.removeAll() }
            return Array(state.listeners.values)
        }
        for listener in all { listener.finish() }
    }

    public var listenerCount: Int {
        state.withLock { $0.listeners.count }
    }

    private func remove(_ id: UUID) {
        state.withLock { $0.listeners[id] = nil }
    }
}
