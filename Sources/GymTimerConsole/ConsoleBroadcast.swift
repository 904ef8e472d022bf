import Foundation

/// Hands the page's live updates (Server-Sent Events) from the console's threads to every open
/// page: the latest of each kind is kept, so a page that connects gets the whole floor at once.
/// Each page has a small buffer of its own: a page that stops reading loses old updates, never
/// the console's memory.
///
/// `@unchecked Sendable` is safe: `latest`, `order` and `listeners` are read and written only
/// while `lock` is held; `maximumListeners` is `let`. (An `AsyncStream`'s continuation is
/// itself Sendable: a yield after the lock is released is fine.)
public final class ConsoleBroadcast: @unchecked Sendable {
    private let lock = NSLock()
    private var latest: [String: String] = [:]
    private var order: [String] = []
    private var listeners: [UUID: AsyncStream<String>.Continuation] = [:]
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
        lock.lock()
        defer { lock.unlock() }
        guard latest[event] != frame else { return false }
        if latest[event] == nil { order.append(event) }
        latest[event] = frame
        for listener in listeners.values { listener.yield(frame) }
        return true
    }

    /// The latest event of kind `event` as its frame, if any was published.
    public func latest(_ event: String) -> String? {
        lock.lock()
        defer { lock.unlock() }
        return latest[event]
    }

    /// A stream of frames for one page, starting with the latest of every kind; nil when
    /// `maximumListeners` pages are open already.
    public func listen() -> AsyncStream<String>? {
        lock.lock()
        defer { lock.unlock() }
        guard listeners.count < maximumListeners else { return nil }
        let id = UUID()
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(32))
        for event in order { if let frame = latest[event] { continuation.yield(frame) } }
        continuation.onTermination = { [weak self] _ in self?.remove(id) }
        listeners[id] = continuation
        return stream
    }

    /// Ends every page's stream (the console is stopping).
    public func finish() {
        lock.lock()
        let all = listeners.values
        listeners.removeAll()
        lock.unlock()
        for listener in all { listener.finish() }
    }

    public var listenerCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return listeners.count
    }

    private func remove(_ id: UUID) {
        lock.lock()
        listeners[id] = nil
        lock.unlock()
    }
}
