import Foundation
import GymTimerCore
import GymTimerFleet
import Hummingbird
import HTTPTypes
import NIOCore

extension ConsoleServer {
    /// The roster (read, named, renamed), a result's division or void, and the class list that
    /// puts athletes on the stations: the collector's desk does each and says what it did.
    func addAthleteRoutes(_ router: Router<ConsoleRequestContext>) {
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
            action(router, "/api/\(kind.rawValue)") { body -> Response in
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
        addClassListRoute(router)
    }

    /// The class list: each station its athlete (or nobody), each answering its own command.
    private func addClassListRoute(_ router: Router<ConsoleRequestContext>) {
        action(router, "/api/class-list") { body -> Response in
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
    }
}
