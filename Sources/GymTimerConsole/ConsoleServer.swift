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

    /// The router: every path the console answers.
    public func router() -> Router<ConsoleRequestContext> {
        let router = Router(context: ConsoleRequestContext.self)
        // First: the middleware applies to the routes added after it.
        router.add(middleware: ConsoleHostCheck(hosts: hosts))
        router.get("/") { request, _ -> Response in
            page(request, message: nil, status: .ok)
        }
        router.get("/tv") { _, _ -> Response in
            Self.text(.ok, ConsolePage.html(title: title, lock: .noPIN, view: .tv), type: "text/html; charset=utf-8")
        }
        // The stations' health (versions, faults, Wi-Fi) is the coach's, not the guests' on the
        // gym's Wi-Fi: with a PIN, a signed-out request gets the sign-in page.
        // Signed in, the view carries the session's token for its upgrade buttons (`/api/upgrade`).
        router.get("/health") { request, _ -> Response in
            let session = gate.session(Self.sessionID(request))
            if gate.pin != nil, session == nil {
                return page(request, message: "Sign in to see the stations' health.", status: .unauthorized)
            }
            return Self.text(
                .ok, ConsoleHealthPage.html(title: title, stations: link.healthSnapshot(), csrf: session?.csrf),
                type: "text/html; charset=utf-8")
        }
        router.get("/health.js") { _, _ in Self.text(.ok, ConsolePage.healthScript, type: "text/javascript; charset=utf-8") }
        router.get("/console.css") { _, _ in Self.text(.ok, ConsolePage.css, type: "text/css; charset=utf-8") }
        router.get("/console.js") { _, _ in Self.text(.ok, ConsolePage.script, type: "text/javascript; charset=utf-8") }
        // A page's live updates: a signed-out address holds at most a few, and room is kept for
        // the coach's session (ConsoleStreamLimit), counted by the TCP peer's address. Without
        // a PIN nobody signs in: everyone is signed out, and no room is kept.
        router.get("/events") { request, context -> Response in
            let signedIn = gate.pin != nil && gate.session(Self.sessionID(request)) != nil
            let listener: ConsoleBroadcast.Listener
            // Without a PIN every page is the coach's (docs/console.md); with one, a signed-out
            // page gets the guests' version of each update: display names, no card.
            let audience: ConsoleAudience = gate.pin == nil || signedIn ? .coach : .guest
            switch broadcast.listen(
                signedIn ? .coach : .guest(address: context.clientAddress), keepingRoom: gate.pin != nil, audience: audience) {
            case .success(let listening): listener = listening
            case .failure(let refusal):
                return Self.text(.init(code: refusal.status), "\(refusal)", type: "text/plain; charset=utf-8")
            }
            // A closed page's room is free at once, not at the next update it fails to get.
            ConsoleConnectionLimit.whenClientGone(of: context.channel) { listener.end() }
            let stream = listener.frames
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
        router.post("/login") { request, context -> Response in
            guard ConsoleRequestCheck.sameOrigin(origin: request.headers[.origin], referer: request.headers[.referer], host: request.head.authority) else {
                return Self.text(.forbidden, "refused: the request did not come from this console's page", type: "text/plain; charset=utf-8")
            }
            guard let body = await Self.body(of: request) else {
                return Self.text(.contentTooLarge, "request too large or too slow", type: "text/plain; charset=utf-8")
            }
            let pin = ConsoleForm.value("pin", in: String(buffer: body)) ?? ""
            switch gate.login(pin, from: context.clientAddress) {
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
            let body = await Self.body(of: request).map { String(buffer: $0) } ?? ""
            let session = gate.session(Self.sessionID(request))
            // Without the page's token (a link on another site, a forged form) nothing changes:
            // neither the session nor the cookie.
            if let refusal = ConsoleRequestCheck.check(
                session: session, token: ConsoleForm.value("csrf", in: body), origin: request.headers[.origin],
                referer: request.headers[.referer], host: request.head.authority) {
                return Self.text(.forbidden, "\(refusal)", type: "text/plain; charset=utf-8")
            }
            gate.logout(session?.id)
            var headers = Self.secured([.location: "/"])
            headers[.setCookie] = "\(Self.cookie)=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0"
            return Response(status: .seeOther, headers: headers)
        }
        /// An action's body, once its session, token and origin are the page's; else the refusal.
        @Sendable func checkedBody(_ request: Request) async -> Checked {
            let session = gate.session(Self.sessionID(request))
            if let refusal = ConsoleRequestCheck.check(
                session: session, token: request.headers[HTTPField.Name("X-CSRF-Token")!], origin: request.headers[.origin],
                referer: request.headers[.referer], host: request.head.authority) {
                return .refused(Self.json(refusal == .notLoggedIn ? .unauthorized : .forbidden, message: "\(refusal)"))
            }
            guard let body = await Self.body(of: request) else {
                return .refused(Self.json(.contentTooLarge, message: "request too large or too slow"))
            }
            return .body(body)
        }
        // The program builder: a definition checked as a station checks it, saved in the library.
        router.post("/api/program") { request, _ -> Response in
            let body: ByteBuffer
            switch await checkedBody(request) {
            case .body(let read): body = read
            case .refused(let refusal): return refusal
            }
            guard case .object(let definition)? = JSONValue.parse(Array(buffer: body)) else {
                return Self.json(.badRequest, message: "the request is not the JSON the page sends")
            }
            let program: Program
            switch Program.parse(definition: definition) {
            case .success(let parsed): program = parsed
            case .failure(let problem): return Self.json(.badRequest, message: "Not saved: \(problem)")
            }
            if case .failure(let problem) = library.save(program) { return Self.json(.conflict, message: "Not saved: \(problem)") }
            broadcast.publish(event: "programs", data: library.event)
            return Self.json(.ok, message: "Saved \(program.name) in the gym's programs")
        }
        router.post("/api/program-delete") { request, _ -> Response in
            let body: ByteBuffer
            switch await checkedBody(request) {
            case .body(let read): body = read
            case .refused(let refusal): return refusal
            }
            guard case .object(let fields)? = JSONValue.parse(Array(buffer: body)), let name = fields["name"]?.string else {
                return Self.json(.badRequest, message: "the request is not the JSON the page sends")
            }
            if case .failure(let problem) = library.delete(named: name) { return Self.json(.conflict, message: "Not deleted: \(problem)") }
            broadcast.publish(event: "programs", data: library.event)
            return Self.json(.ok, message: "Deleted \(name) from the gym's programs")
        }
        // The roster as the coach's page shows it (names, cards, the cards not yet named): the
        // coach's only, as card UIDs open doors.
        router.get("/api/roster") { request, _ -> Response in
            guard gate.session(Self.sessionID(request)) != nil else {
                return Self.json(.unauthorized, message: "\(ConsoleRequestCheck.Refusal.notLoggedIn)")
            }
            var onStations: [String: String] = [:]
            for tile in link.snapshot().tiles { if let card = tile.athlete { onStations[tile.name] = card } }
            switch await link.askDesk(.roster, { $0.onStations = onStations }) {
            case .success(let answer) where answer.done:
                return Self.text(.ok, Self.encoded(answer.roster ?? GymRoster(athletes: [])), type: "application/json")
            case .success(let answer): return Self.json(.serviceUnavailable, message: answer.said ?? "refused")
            case .failure(let refusal): return Self.json(.serviceUnavailable, message: "\(refusal)")
            }
        }
        // The roster's edits and a result's Rx/Scaled: the coach's session, token and origin, as actions.
        for kind in ConsoleRosterEdit.Kind.allCases {
            router.post("/api/\(kind.rawValue)") { request, _ -> Response in
                let body: ByteBuffer
                switch await checkedBody(request) {
                case .body(let read): body = read
                case .refused(let refusal): return refusal
                }
                let edit: ConsoleRosterEdit
                switch ConsoleRosterEdit.parse(kind, body: Array(buffer: body)) {
                case .success(let parsed): edit = parsed
                case .failure(let problem): return Self.json(.badRequest, message: "\(problem)")
                }
                // The collector does it (it alone writes the gym's database) and says what it did.
                switch await link.askDesk(edit.ask, edit.fill) {
                case .success(let answer): return Self.json(answer.done ? .ok : .conflict, message: answer.said ?? "")
                case .failure(let refusal): return Self.json(.serviceUnavailable, message: "\(refusal)")
                }
            }
        }
        // The class list: each station its athlete (or nobody), each answering its own command.
        router.post("/api/class-list") { request, _ -> Response in
            let body: ByteBuffer
            switch await checkedBody(request) {
            case .body(let read): body = read
            case .refused(let refusal): return refusal
            }
            let athletes: [GymRoster.Athlete]
            switch await link.askDesk(.athletes) {
            case .success(let answer) where answer.done: athletes = answer.roster?.athletes ?? []
            case .success(let answer): return Self.json(.serviceUnavailable, message: answer.said ?? "refused")
            case .failure(let refusal): return Self.json(.serviceUnavailable, message: "\(refusal)")
            }
            let list: ConsoleClassList
            switch ConsoleClassList.parse(Array(buffer: body), athletes: athletes) {
            case .success(let parsed): list = parsed
            case .failure(let problem): return Self.json(.badRequest, message: "\(problem)")
            }
            var sent: [String: [String]] = [:]
            var offline: [String] = []
            var notSent: [String: String] = [:]
            for line in list.lines {
                switch link.send({ [line.command] }, to: [line.station]) {
                case .success(let queued):
                    sent[line.station] = queued.ids
                    offline += queued.offline
                case .failure(let refusal): notSent[line.station] = "\(refusal)"
                }
            }
            // Every station's answer awaited at once: a silent one costs the wait once, not once each.
            var answers: [String: FleetAnswers] = [:]
            for answer in await link.awaitAnswers(sent.values.flatMap { $0 }) {
                if let station = sent.first(where: { $0.value.contains(answer.id) })?.key { answers[station] = answer }
            }
            let done = notSent.isEmpty && offline.isEmpty && list.lines.allSatisfy { answers[$0.station]?.succeeded == true }
            return Self.json(done ? .ok : .conflict, message: list.report(answers: answers, offline: offline, notSent: notSent))
        }
        // An athlete's page: the coach's when the console has a PIN (it is a person's training).
        router.get("/athlete/:id") { request, context -> Response in
            if gate.pin != nil, gate.session(Self.sessionID(request)) == nil {
                return Self.text(.unauthorized, "not logged in: enter the PIN on the console's page first", type: "text/plain; charset=utf-8")
            }
            guard let id = context.parameters.get("id").flatMap(Int64.init) else {
                return Self.text(.notFound, "no such athlete", type: "text/plain; charset=utf-8")
            }
            switch await link.askDesk(.summary, { $0.athlete = id }) {
            case .success(let answer) where answer.done:
                guard let summary = answer.summary else { return Self.text(.notFound, "no such athlete", type: "text/plain; charset=utf-8") }
                return Self.text(.ok, ConsoleAthletePage.html(title: title, summary: summary), type: "text/html; charset=utf-8")
            case .success(let answer): return Self.text(.serviceUnavailable, answer.said ?? "refused", type: "text/plain; charset=utf-8")
            case .failure(let refusal): return Self.text(.serviceUnavailable, "\(refusal)", type: "text/plain; charset=utf-8")
            }
        }
        for verb in ConsoleAction.Verb.allCases {
            router.post("/api/\(verb.rawValue)") { request, _ -> Response in
                let body: ByteBuffer
                switch await checkedBody(request) {
                case .body(let read): body = read
                case .refused(let refusal): return refusal
                }
                var action: ConsoleAction
                switch ConsoleAction.parse(verb, body: Array(buffer: body)) {
                case .success(let parsed): action = parsed
                case .failure(let problem): return Self.json(.badRequest, message: "\(problem)")
                }
                // A program of the gym's library goes out as its definition; any other by name.
                action.definition = action.program.flatMap(library.program(named:))
                var sentAt = wall.now
                let result: Result<ConsoleLink.Sent, ConsoleLink.Refusal>
                switch action.verb {
                case .repeat:
                    guard let schedule = action.schedule(now: sentAt) else {
                        return Self.json(.badRequest, message: "nothing would repeat: the last start must come after the second one (the first start plus one period) and within a day; an end time already past is refused, not taken for tomorrow")
                    }
                    result = link.repeatClass(schedule)
                case .stopRepeating:
                    result = .success(.init(ids: [], offline: []))
                    if link.stopRepeating() == 0 { return Self.json(.ok, message: "No class was repeating") }
                default:
                    result = link.send({
                        sentAt = wall.now
                        return action.commands(now: sentAt)
                    }, to: action.stations)
                }
                switch result {
                case .success(let sent):
                    // Each station's answer, within a few seconds: the page says what each did, and
                    // a refusal or a silence is never shown as done (a 409: the page shows it in red).
                    let answers = await link.awaitAnswers(sent.ids)
                    let done = answers.count == sent.ids.count && answers.allSatisfy(\.succeeded)
                    // A class starts on every station chosen or on none (unless the coach chose
                    // the ready ones): where it was scheduled, it is called off.
                    var calledOff: FleetAnswers?
                    if !done, action.verb == .class, !action.startReady, let scheduled = answers.last?.done, !scheduled.isEmpty,
                       case .success(let cancel) = link.send({ [.cancel] }, to: scheduled) {
                        calledOff = await link.awaitAnswers(cancel.ids).first
                    }
                    // The class's instants, kept and retained for its stations (a station that is
                    // offline now, or restarts, follows them when it is back).
                    let acted = (answers.first?.done ?? []) + sent.offline
                    switch action.verb {
                    // A class with a program (its work begins at the instant; a plain start's
                    // own lead-in would come after it, so it has no such instants to follow).
                    case .class, .repeat:
                        guard calledOff == nil, action.runs != nil else { break }
                        let started = answers.last?.done ?? []
                        link.keepClasses { $0.begin(id: sent.ids.last ?? "", workBegins: sentAt + action.lead, on: started) }
                    case .pause: link.keepClasses { $0.pause(acted, at: sentAt) }
                    case .resume: link.keepClasses { $0.resume(acted, at: sentAt) }
                    case .reset, .callOff: link.keepClasses { $0.end(action.stations) }
                    default: break
                    }
                    return Self.json(
                        done ? .ok : .conflict,
                        message: action.report(at: sentAt, answers: answers, offline: sent.offline, calledOff: calledOff))
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
