import Foundation
import ServiceLifecycle

/// The console's blocking side, the broker's link (`ConsoleLink`), as a `Service` in the
/// console's one `ServiceGroup` (`ConsoleServer.run`). It loops on a thread of its own (a poll
/// loop over libmosquitto's socket): it blocks, so it does not run on Swift's concurrency
/// threads. It is started before the group runs (a missing libmosquitto is refused before the
/// server binds); on the group's graceful shutdown (SIGTERM, SIGINT) or cancellation (the
/// server failed), `stop` wakes the loop through its own mechanism (a pipe) and joins its
/// thread, on a thread too, as no concurrency thread may block.
public struct ConsoleThreadService: Service {
    /// The side's name, for the group's log and the joining thread.
    public let name: String
    private let stop: @Sendable () -> Void

    public init(name: String, stop: @escaping @Sendable () -> Void) {
        self.name = name
        self.stop = stop
    }

    public func run() async {
        // Returns on a graceful shutdown, throws on cancellation: the side stops either way.
        try? await gracefulShutdown()
        let stop = stop
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let thread = Thread {
                stop()
                done.resume()
            }
            thread.name = "console-stop-\(name)"
            thread.start()
        }
    }
}
