import Foundation
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
    public let now: @Sendable () -> Double

    /// The session cookie's name.
    public static let cookie = "gymtimer_console"
    /// The largest request body read (a login, an action): anything bigger is refused unread.
    public static let maximumBody = 16 * 1024

    public init(
        link: ConsoleLink, broadcast: ConsoleBroadcast, gate: ConsoleGate, title: String = "GymTimer · Coach's console",
        now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) {
        self.link = link
        self.broadcast = broadcast
        self.gate = gate
        self.title = title
        self.now = now
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

    /// The cookie a request carries, if any.
    static func sessionID(_ request: Request) -> String? {
        request.cookies[cookie]?.value
    }

    /// The router: every path the console answers.
    public func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/") { request, _ -> Response in
            page(request, message: nil, status: .ok)
        }
        router.get("/console.css") { _, _ in Self.text(.ok, ConsolePage.css, type: "text/css; charset=utf-8") }
        router.get("/console.js") { _, _ in Self.text(.ok, ConsolePage.script, type: "text/javascript; charset=utf-8") }
        router.get("/events") { _, _ -> Response in
            guard let stream = broadcast.listen() else {
                return Self.text(.serviceUnavailable, "too many pages open", type: "text/plain; charset=utf-8")
            }
            return Response(
                status: .ok, headers: Self.secured([.contentType: "text/event-stream"]),
                body: ResponseBody { writer in
                    // A page stays open for hours: on SIGTERM/SIGINT every page's stream ends,
                    // so the server's graceful shutdown does not wait for them.
                    try await withGracefulShutdownHandler {
                        for await frame in stream { try await writer.write(ByteBuffer(string: frame)) }
                    } onGracefulShutdown: {
                        broadcast.finish()
                    }
                    try await writer.finish(nil)
                })
        }
        router.post("/login") { request, _ -> Response in
            var request = request
            guard ConsoleRequestCheck.sameOrigin(origin: request.headers[.origin], referer: request.headers[.referer], host: request.head.authority) else {
                return Self.text(.forbidden, "refused: the request did not come from this console's page", type: "text/plain; charset=utf-8")
            }
            guard let body = try? await request.collectBody(upTo: Self.maximumBody) else {
                return Self.text(.contentTooLarge, "request too large", type: "text/plain; charset=utf-8")
            }
            let pin = ConsoleForm.value("pin", in: String(buffer: body)) ?? ""
            switch gate.login(pin) {
            case .opened(let session):
                var headers = Self.secured([.location: "/"])
                headers[.setCookie] = "\(Self.cookie)=\(session.id); Path=/; HttpOnly; SameSite=Strict; Max-Age=\(Int(ConsoleSessions.lifetime))"
                return Response(status: .seeOther, headers: headers)
            case .wrongPIN:
                let message = gate.pin == nil ? "This console has no PIN: it only shows the floor." : "Wrong PIN: the console stays locked."
                return page(request, message: message, status: .unauthorized)
            case .lockedOut(let seconds):
                return page(request, message: "Too many wrong PINs: try again in \(seconds) s.", status: .tooManyRequests)
            }
        }
        router.post("/logout") { request, _ -> Response in
            var request = request
            let body = (try? await request.collectBody(upTo: Self.maximumBody)).map { String(buffer: $0) } ?? ""
            let session = gate.session(Self.sessionID(request))
            if ConsoleRequestCheck.check(
                session: session, token: ConsoleForm.value("csrf", in: body), origin: request.headers[.origin],
                referer: request.headers[.referer], host: request.head.authority) == nil {
                gate.logout(session?.id)
            }
            var headers = Self.secured([.location: "/"])
            headers[.setCookie] = "\(Self.cookie)=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0"
            return Response(status: .seeOther, headers: headers)
        }
        for verb in ConsoleAction.Verb.allCases {
            router.post("/api/\(verb.rawValue)") { request, _ -> Response in
                var request = request
                let session = gate.session(Self.sessionID(request))
                if let refusal = ConsoleRequestCheck.check(
                    session: session, token: request.headers[HTTPField.Name("X-CSRF-Token")!], origin: request.headers[.origin],
                    referer: request.headers[.referer], host: request.head.authority) {
                    return Self.json(refusal == .notLoggedIn ? .unauthorized : .forbidden, message: "\(refusal)")
                }
                guard let body = try? await request.collectBody(upTo: Self.maximumBody) else {
                    return Self.json(.contentTooLarge, message: "request too large")
                }
                let action: ConsoleAction
                switch ConsoleAction.parse(verb, body: Array(buffer: body)) {
                case .success(let parsed): action = parsed
                case .failure(let problem): return Self.json(.badRequest, message: "\(problem)")
                }
                var sentAt = now()
                let result: Result<[String], ConsoleLink.Refusal>
                switch action.verb {
                case .repeat:
                    guard let schedule = action.schedule(now: sentAt) else {
                        return Self.json(.badRequest, message: "the repeats must end after the first start and within a day")
                    }
                    result = link.repeatClass(schedule)
                case .stopRepeating:
                    result = .success([])
                    if link.stopRepeating() == 0 { return Self.json(.ok, message: "No class was repeating") }
                default:
                    result = link.send({
                        sentAt = now()
                        return action.commands(now: sentAt)
                    }, to: action.stations)
                }
                switch result {
                case .success(let offline): return Self.json(.ok, message: action.confirmation(at: sentAt, offline: offline))
                case .failure(let refusal): return Self.json(.conflict, message: "\(refusal)")
                }
            }
        }
        return router
    }

    /// The page for `request`'s session.
    private func page(_ request: Request, message: String?, status: HTTPResponse.Status) -> Response {
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

    /// Serves on `listen` until SIGINT or SIGTERM; `ready` is called once it listens.
    public func run(listen: ConsoleListen, ready: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        var logger = Logger(label: "gymtimer-console")
        logger.logLevel = .warning
        let app = Application(
            router: router(),
            configuration: ApplicationConfiguration(address: .hostname(listen.host, port: listen.port), serverName: nil),
            onServerRunning: { channel in await ready(channel.localAddress?.port ?? listen.port) },
            logger: logger)
        try await app.runService()
    }
}
