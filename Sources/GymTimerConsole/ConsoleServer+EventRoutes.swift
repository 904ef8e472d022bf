import Foundation
import GymTimerCore
import GymTimerFleet
import Hummingbird
import HTTPTypes
import NIOCore
import ServiceLifecycle

extension ConsoleServer {
    /// `/events`: each page's live updates (Server-Sent Events), the guests' version to a page
    /// not signed in.
    func addEventRoutes(_ router: Router<ConsoleRequestContext>) {
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
    }
}
