import Hummingbird
import NIOCore

/// What the console's routes know of a request beyond the request itself: the address of the
/// client that sent it (the TCP peer's, never a header's), which the PIN's lock-outs and the
/// pages' streams count by (`ConsoleSessions`, `ConsoleStreamLimit`), and its connection.
public struct ConsoleRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?
    /// The request's connection: a page's stream ends when its client goes.
    public let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        channel = source.channel
    }

    /// The client's IP address as text ("" when unknown: all such clients count as one).
    public var clientAddress: String { remoteAddress?.ipAddress ?? "" }
}
