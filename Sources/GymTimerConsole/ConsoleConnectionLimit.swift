import NIOCore
import Synchronization

/// A cap on the console's open connections, shared by all of them: one past `maximum` is
/// closed as soon as it is accepted. With the idle timeout (`ConsoleServer.idleSeconds`) it
/// keeps a flood of sockets from another machine of the gym's Wi-Fi from using up the
/// process's open files (1,024 by default), which took the page down for everyone. The count
/// is a `Mutex`'s: the server's event loops admit and release at once.
public final class ConsoleConnectionLimit: Sendable {
    public let maximum: Int
    private let open = Mutex(0)

    public init(maximum: Int) {
        self.maximum = maximum
    }

    /// Counts a new connection in; false (not counted) when the cap is reached.
    func admit() -> Bool {
        open.withLock { open in
            guard open < maximum else { return false }
            open += 1
            return true
        }
    }

    func release() {
        open.withLock { $0 -= 1 }
    }

    /// The handler each connection's pipeline gets (`HTTP1Channel`'s additional handlers).
    func handler() -> Handler { Handler(limit: self) }

    /// Calls `gone` once the client of `channel` has gone, or at once if it has already: its
    /// side of the connection closed (a closed or reloaded page sends its FIN at once, but the
    /// server keeps half-closed connections open, so an idle page's stream would not notice
    /// until a write failed), or the connection closed.
    static func whenClientGone(of channel: any Channel, _ gone: @escaping @Sendable () -> Void) {
        channel.eventLoop.execute {
            guard let handler = try? channel.pipeline.syncOperations.handler(type: Handler.self) else { return gone() }
            handler.whenClientGone(gone)
        }
    }

    /// Admits its connection when added to the pipeline or closes it; releases it when removed.
    /// Tells what waits for it (`whenClientGone`) when the client's side closes.
    final class Handler: ChannelDuplexHandler, RemovableChannelHandler {
        typealias InboundIn = NIOAny
        typealias OutboundIn = NIOAny
        private let limit: ConsoleConnectionLimit
        private var admitted = false
        private var clientGone = false
        private var waiting: [@Sendable () -> Void] = []

        init(limit: ConsoleConnectionLimit) {
            self.limit = limit
        }

        func handlerAdded(context: ChannelHandlerContext) {
            admitted = limit.admit()
            if !admitted { context.channel.close(promise: nil) }
        }

        func handlerRemoved(context: ChannelHandlerContext) {
            if admitted { limit.release() }
            admitted = false
            goneNow()
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if event as? ChannelEvent == .inputClosed { goneNow() }
            context.fireUserInboundEventTriggered(event)
        }

        func channelInactive(context: ChannelHandlerContext) {
            goneNow()
            context.fireChannelInactive()
        }

        /// Calls `gone` when the client goes (on the channel's event loop), or now if it has.
        func whenClientGone(_ gone: @escaping @Sendable () -> Void) {
            if clientGone { gone() } else { waiting.append(gone) }
        }

        private func goneNow() {
            clientGone = true
            let all = waiting
            waiting = []
            for gone in all { gone() }
        }
    }
}
