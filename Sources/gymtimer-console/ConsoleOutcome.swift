import Foundation

/// Why the server stopped, handed from its task to the waiting thread.
final class ConsoleOutcome: @unchecked Sendable {
    private let lock = NSLock()
    private var message: String?

    func fail(_ text: String) {
        lock.lock()
        message = text
        lock.unlock()
    }

    var failure: String? {
        lock.lock()
        defer { lock.unlock() }
        return message
    }
}
