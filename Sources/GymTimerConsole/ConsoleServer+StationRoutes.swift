import Foundation
import GymTimerCore
import GymTimerFleet
import Hummingbird
import HTTPTypes
import NIOCore

extension ConsoleServer {
    /// The coach's commands to the stations (`ConsoleAction`): each sent, each station's answer
    /// awaited and reported.
    func addStationRoutes(_ router: Router<ConsoleRequestContext>) {
        for verb in ConsoleAction.Verb.allCases {
            action(router, "/api/\(verb.rawValue)") { body -> Response in
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
                case .success(let sent): return await answered(action, sent: sent, at: sentAt)
                case .failure(let refusal): return Self.json(.conflict, message: "\(refusal)")
                }
            }
        }
    }

    /// What the page is told of `action`, sent at `sentAt`: each station's answer, within a few
    /// seconds, a refusal or a silence never shown as done (a 409: the page shows it in red);
    /// a class not started everywhere called off where it was scheduled; the class's instants kept.
    private func answered(_ action: ConsoleAction, sent: ConsoleLink.Sent, at sentAt: Double) async -> Response {
        let answers = await link.awaitAnswers(sent.ids)
        let done = answers.count == sent.ids.count && answers.allSatisfy(\.succeeded)
        // A class starts on every station chosen or on none (unless the coach chose
        // the ready ones): where it was scheduled, it is called off.
        var calledOff: FleetAnswers?
        if !done, action.verb == .class, !action.startReady, let scheduled = answers.last?.done, !scheduled.isEmpty,
           case .success(let cancel) = link.send({ [.cancel] }, to: scheduled) {
            calledOff = await link.awaitAnswers(cancel.ids).first
        }
        keepClass(of: action, sent: sent, answers: answers, calledOff: calledOff, at: sentAt)
        return Self.json(
            done ? .ok : .conflict,
            message: action.report(at: sentAt, answers: answers, offline: sent.offline, calledOff: calledOff))
    }

    /// The class's instants, kept and retained for its stations (a station that is offline now,
    /// or restarts, follows them when it is back).
    private func keepClass(of action: ConsoleAction, sent: ConsoleLink.Sent, answers: [FleetAnswers], calledOff: FleetAnswers?, at sentAt: Double) {
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
    }
}
