import Foundation
import GymTimerCore
import GymTimerFleet
import Hummingbird
import HTTPTypes
import NIOCore

extension ConsoleServer {
    /// Signing in with the PIN and out with the page's token.
    func addSessionRoutes(_ router: Router<ConsoleRequestContext>) {
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
    }

    /// An action's body, once its session, token and origin are the page's; else the refusal.
func checkedBody(_ request: Request) async -> Checked {
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

    /// A POST action at `path`: `handle` gets its body once `checkedBody` lets the request
    /// through (the coach's session, the page's token, the console's own origin); a refused
    /// request is answered with why, and `handle` never sees it.
    func action(_ router: Router<ConsoleRequestContext>, _ path: String, _ handle: @escaping @Sendable (ByteBuffer) async -> Response) {
        router.post(RouterPath(path)) { request, _ -> Response in
            switch await checkedBody(request) {
            case .body(let body): return await handle(body)
            case .refused(let refusal): return refusal
            }
        }
    }
}
