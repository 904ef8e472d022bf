import Foundation
import GymTimerCore
import GymTimerFleet
import Hummingbird
import HTTPTypes
import NIOCore

extension ConsoleServer {
    /// The pages: the console's own (signed in or not), the TV's, the stations' health, an
    /// athlete's, and the files they load.
    func addPageRoutes(_ router: Router<ConsoleRequestContext>) {
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
    }
}
