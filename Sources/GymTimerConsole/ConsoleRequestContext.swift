import Hummingbird
import NIOCore

/// What the console's routes know of a request beyond the request itself: the address of the
/// client that sent it, which the PIN's lock-outs count by (`ConsoleSessions`).
public struct ConsoleRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }

    /// The client's IP address as text ("" when unknown: all such clients count as one).
    public var clientAddress: String { remoteAddress?.ipAddress ?? "" }
}
