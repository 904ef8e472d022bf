import Foundation
import GymTimerCore
import GymTimerFleet
import GymTimerSystem
import Hummingbird
import HTTPTypes
import Logging
import NIOCore
import ServiceLifecycle

/// The console's HTTP side (Hummingbird): the page, its live updates (Server-Sent Events), the
/// login, and the actions, which go to the MQTT thread (`ConsoleLink`) through its queue, never
/// touching the broker from the server's event loop.
public struct ConsoleServer: Sendable {
    public let link: ConsoleLink
    public let broadcast: ConsoleBroadcast
    public let gate: ConsoleGate
    public let title: String
    /// The names and addresses it answers to (every request's `Host` is checked).
    public let hosts: ConsoleHosts
    public let connections: ConsoleConnectionLimit
    /// The gym's programs (the builder's), offered beside each station's own.
    public let library: ConsoleLibrary
    public let wall: WallClock

    /// The session cookie's name.
    public static let cookie = "gymtimer_console"
    /// The largest request body read (a login, an action): anything bigger is refused unread.
    public static let maximumBody = 16 * 1024
    /// A connection with no request in progress for this long is closed (one that never sends
    /// its request's head included), so idle and slow sockets do not pile up.
    public static let idleSeconds: Int64 = 5
    /// How long a request's body may take to arrive once its head has.
    public static let bodySeconds: Int64 = 5
    /// The most connections open at once (pages' live updates included: `ConsoleStreamLimit`
    /// allows fewer), well under the process's 1,024 open files.
    public static let maximumConnections = 256

    public init(
        link: ConsoleLink, broadcast: ConsoleBroadcast, gate: ConsoleGate, hosts: ConsoleHosts,
        connections: ConsoleConnectionLimit = ConsoleConnectionLimit(maximum: ConsoleServer.maximumConnections),
        library: ConsoleLibrary = ConsoleLibrary(path: nil),
        title: String = "GymTimer · Coach's console", wall: WallClock = .system
    ) {
        self.link = link
        self.broadcast = broadcast
        self.gate = gate
        self.hosts = hosts
        self.connections = connections
        self.library = library
        self.title = title
        broadcast.publish(event: "programs", data: library.event)
        self.wall = wall
    }

    /// The headers every response carries: no framing by another site, no sniffing, and a
    /// policy that runs only the console's own script and style.
    static func secured(_ headers: HTTPFields = [:]) -> HTTPFields {
        var headers = headers
        headers[.contentSecurityPolicy] = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
        headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        headers[HTTPField.Name("Referrer-Policy")!] = "same-origin"
        headers[.cacheControl] = "no-store"
        return headers
    }

    static func text(_ status: HTTPResponse.Status, _ body: String, type: String) -> Response {
        Response(
            status: status, headers: secured([.contentType: type]),
            body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }

    /// `{"message": …}` with `status`.
    static func json(_ status: HTTPResponse.Status, message: String) -> Response {
        let encoded = (try? JSONEncoder().encode(["message": message])).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return text(status, encoded, type: "application/json")
    }

    /// `value` as the page's JSON (sorted keys).
    static func encoded(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// The body of `request` (at most `maximumBody` bytes) if it has arrived within
    /// `bodySeconds`; nil when it is bigger or slower: a client sending a byte now and then
    /// must not hold its connection, which the idle time-out does not cover once a request has
    /// begun.
    static func body(of request: Request) async -> ByteBuffer? {
        await withTaskGroup(of: ByteBuffer?.self) { group in
            group.addTask {
                var request = request
                return try? await request.collectBody(upTo: maximumBody)
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(bodySeconds))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    /// The cookie a request carries, if any.
    static func sessionID(_ request: Request) -> String? {
        request.cookies[cookie]?.value
    }

    /// An action's body, or the response that refuses the request.
    enum Checked {
        case body(ByteBuffer)
        case refused(Response)
    }

    /// The router: every path the console answers, added by area (each in its own file).
    public func router() -> Router<ConsoleRequestContext> {
        let router = Router(context: ConsoleRequestContext.self)
        // First: the middleware applies to the routes added after it.
        router.add(middleware: ConsoleHostCheck(hosts: hosts))
        addPageRoutes(router)
        addEventRoutes(router)
        addSessionRoutes(router)
        addProgramRoutes(router)
        addAthleteRoutes(router)
        addStationRoutes(router)
        return router
    }

    /// The page for `request`'s session.
    func page(_ request: Request, message: String?, status: HTTPResponse.Status) -> Response {
        let lock: ConsolePage.Lock
        if gate.pin == nil {
            lock = .noPIN
        } else if let session = gate.session(Self.sessionID(request)) {
            lock = .unlocked(csrf: session.csrf)
        } else {
            lock = .locked(message: message)
        }
        return Self.text(status, ConsolePage.html(title: title, lock: lock), type: "text/html; charset=utf-8")
    }

    /// Serves on `listen` until SIGINT or SIGTERM; `ready` is called once it listens. The
    /// console's one lifecycle: one `ServiceGroup` holds the HTTP server and `sides` (the
    /// MQTT link, the score reader, `ConsoleThreadService`), and a stop signal shuts them down
    /// in reverse order: the server first (every page's event stream ends), then the sides.
    /// A server that fails cancels the group, which stops the sides too, and the error is thrown.
    public func run(
        listen: ConsoleListen, sides: [ConsoleThreadService] = [], ready: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws {
        var logger = Logger(label: "gymtimer-console")
        logger.logLevel = .warning
        let connections = connections
        let app = Application(
            router: router(),
            server: .http1(configuration: .init(
                additionalChannelHandlers: [connections.handler()], idleTimeout: .seconds(Self.idleSeconds))),
            configuration: ApplicationConfiguration(address: .hostname(listen.host, port: listen.port), serverName: nil),
            onServerRunning: { channel in await ready(channel.localAddress?.port ?? listen.port) },
            logger: logger)
        let services = sides.map { ServiceGroupConfiguration.ServiceConfiguration(service: $0, serviceName: $0.name) }
            + [.init(service: app, successTerminationBehavior: .gracefullyShutdownGroup, serviceName: "http")]
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }
}
