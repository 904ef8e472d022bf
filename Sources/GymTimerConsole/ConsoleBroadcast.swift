import Foundation
import Synchronization

/// Hands the page's live updates (Server-Sent Events) from the console's threads to every open
/// page: the latest of each kind is kept, so a page that connects gets the whole floor at once.
/// Each page has a small buffer of its own: a page that stops reading loses old updates, never
/// the console's memory; how many pages it serves, per address and in all, is its
/// `ConsoleStreamLimit`'s. An update may have a guest's version (`ConsoleAudience`: display names,
/// no card), which the pages opened for a guest get instead. What it keeps is behind one `Mutex`.
public final class ConsoleBroadcast: Sendable {
    /// The latest frame of each kind for each audience (in the order the kinds first came) and
    /// the open pages.
    private struct State {
        var latest: [ConsoleAudience: [String: String]] = [:]
        var order: [String] = []
        var listeners: [UUID: Page] = [:]
        var limit: ConsoleStreamLimit
    }

    private let state: Mutex<State>

    /// An open page: its stream, whom it counts as, and whose version of each update it gets.
    private struct Page {
        var continuation: AsyncStream<String>.Continuation
        var client: ConsoleStreamLimit.Client
        var audience: ConsoleAudience
    }

    /// `limit`: how many pages are served at once, per address and in all, and how many of
    /// them are kept for the coach.
    public init(limit: ConsoleStreamLimit = ConsoleStreamLimit()) {
        state = Mutex(State(limit: limit))
    }

    /// One page's stream: its frames, and how to end it when its client has gone.
    public struct Listener: Sendable {
        public let frames: AsyncStream<String>
        fileprivate let continuation: AsyncStream<String>.Continuation

        /// Ends the frames (the page's connection closed): its room is released.
        public func end() { continuation.finish() }
    }

    /// One Server-Sent Event: `event` named, `data` on one line (the JSON has no newline).
    public static func frame(event: String, data: String) -> String {
        "event: \(event)\ndata: \(data.replacingOccurrences(of: "\n", with: " "))\n\n"
    }

    /// Sends `data` as event `event` to every page (`guestData` instead to a guest's, when the
    /// update has a guest's version), and keeps it for pages that open later. Says whether it
    /// differs from the last one of its kind (an equal one is not sent again to anyone).
    @discardableResult
    public func publish(event: String, data: String, guestData: String? = nil) -> Bool {
        let frames: [ConsoleAudience: String] = [
            .coach: Self.frame(event: event, data: data), .guest: Self.frame(event: event, data: guestData ?? data),
        ]
        return state.withLock { state in
            let changed = frames.filter { state.latest[$0.key]?[event] != $0.value }
            guard !changed.isEmpty else { return false }
            if state.latest[.coach]?[event] == nil { state.order.append(event) }
            for (audience, frame) in frames { state.latest[audience, default: [:]][event] = frame }
            for page in state.listeners.values {
                if let frame = changed[page.audience] { page.continuation.yield(frame) }
            }
            return true
        }
    }

    /// The latest event of kind `event` as `audience`'s frame, if any was published.
    public func latest(_ event: String, for audience: ConsoleAudience = .coach) -> String? {
        state.withLock { $0.latest[audience]?[event] }
    }

    /// A stream of frames for one page of `client`, starting with the latest of every kind, in
    /// `audience`'s version, or why it is refused (`ConsoleStreamLimit`; `keepingRoom` false: no
    /// room is kept for the coach). Its room is released when the stream ends.
    public func listen(
        _ client: ConsoleStreamLimit.Client, keepingRoom: Bool = true, audience: ConsoleAudience = .coach
    ) -> Result<Listener, ConsoleStreamLimit.Refusal> {
        let id = UUID()
        return state.withLock { state in
            if let refusal = state.limit.admit(client, keepingRoom: keepingRoom) { return .failure(refusal) }
            let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(32))
            for event in state.order { if let frame = state.latest[audience]?[event] { continuation.yield(frame) } }
            continuation.onTermination = { [weak self] _ in self?.remove(id) }
            state.listeners[id] = Page(continuation: continuation, client: client, audience: audience)
            return .success(Listener(frames: stream, continuation: continuation))
        }
    }

    /// Ends every page's stream (the console is stopping).
    public func finish() {
        // Outside the lock: each stream's end releases its room, which takes the lock.
        let all = state.withLock { $0.listeners.values.map(\.continuation) }
        for listener in all { listener.finish() }
    }

    public var listenerCount: Int {
        state.withLock { $0.listeners.count }
    }

    /// The streams counted now: who holds how many.
    public var limit: ConsoleStreamLimit {
        state.withLock { $0.limit }
    }

    private func remove(_ id: UUID) {
        state.withLock { state in
            guard let removed = state.listeners.removeValue(forKey: id) else { return }
            state.limit.release(removed.client)
        }
    }
}
