import Foundation
import GymTimerCore
import GymTimerFleet
import GymTimerHistory
import GymTimerMQTT

/// The collector's desk (fleet.md, "The console asks the collector"): the gym's database has
/// one owner, the collector, and the coach's console asks it over the broker instead of opening
/// the file (so the console links no SQLite, and a store elsewhere changes nothing for it).
///
/// * **Asks.** Each `GymDeskAsk` on `FleetTopics.gymAsk` is answered on the asker's
///   `FleetTopics.gymAnswer`: done (the roster, an athlete's page, what an edit did) or refused
///   with why, a hostile, oversized or unknown ask included (one without a valid `reply` has
///   nowhere to go: logged once). Done in the collector's loop, from its database
///   (`GymDatabase`).
/// * **Scores.** Today's scores (`GymScores`), retained on `FleetTopics.gymScores`, published
///   when they may have changed (records stored, an edit, another process's write seen by
///   the roster publisher's `PRAGMA data_version`, a new day): stored records at most once per
///   `scoresCheck`, a change of the roster at once (`rosterChanged`: a forgotten athlete's name
///   is gone from them before any station is told to forget them), and only when their bytes
///   differ from what this connection last published.
final class CollectorDesk {
    private let database: GymDatabase
    private let prefix: String
    private let log: (String) -> Void
    /// Publishes while connected (false when it could not now).
    var publish: (MQTTMessage) -> Bool = { _ in false }

    /// The least time between two publications of the scores while records keep coming.
    static let scoresCheck: Duration = .seconds(2)

    /// The earliest the scores may go out again (nil while not subscribed).
    private var nextCheck: Moment?
    /// The next local midnight on the collector's timeline: a new day's (empty) scores.
    private var nextDay: Moment?
    /// Whether the scores may have changed since they were last published.
    private var stale = true
    private var published: [UInt8]?
    private var day: LocalDay?
    /// Refusals and problems already logged, once each.
    private var logged: Set<String> = []

    init(database: GymDatabase, prefix: String, log: @escaping (String) -> Void) {
        self.database = database
        self.prefix = prefix
        self.log = log
    }

    /// The topics to subscribe to on every connection.
    var subscriptions: [String] { [FleetTopics.gymAsk(prefix: prefix)] }

    /// When `fire(at:)` is next due (nil while not subscribed): soon after a change, else at
    /// midnight — nothing is looked at while nothing happens.
    var nextDeadline: Moment? {
        guard let nextCheck else { return nil }
        return stale ? nextCheck : [nextCheck, nextDay].compactMap { $0 }.max()
    }

    /// A new connection: the scores are published again once subscribed.
    func connected() {
        nextCheck = nil
        published = nil
        stale = true
    }

    /// The subscriptions are granted at `now`: the scores go out at once.
    func subscribed(at now: Moment) {
        guard nextCheck == nil else { return }
        nextCheck = now
    }

    func disconnected() { nextCheck = nil }

    /// Records were stored: the scores are looked at when next due.
    func stored() { stale = true }

    /// Another process changed the database (the roster publisher saw it): the scores are
    /// published again at once, while subscribed.
    func rosterChanged() {
        stale = true
        if nextCheck != nil { publishScores() }
    }

    /// Publishes the scores if they may have changed (a new day changes them).
    func fire(at now: Moment) {
        guard let due = nextDeadline, now >= due else { return }
        let date = database.wall.date
        let today = LocalDay(date, in: database.timeZone)
        if today != day {
            day = today
            stale = true
            nextDay = now + Self.untilMidnight(after: date, in: database.timeZone)
        }
        guard stale else { return }
        nextCheck = now + Self.scoresCheck
        publishScores()
    }

    /// The time from `date` to the next local midnight in `zone` (and a second, to be past it).
    static func untilMidnight(after date: Date, in zone: TimeZone) -> Duration {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let start = calendar.startOfDay(for: date)
        let next = calendar.date(byAdding: .day, value: 1, to: start) ?? date.addingTimeInterval(86_400)
        return .seconds(max(1, next.timeIntervalSince(date) + 1))
    }

    /// Today's scores, retained, unless this connection published the same bytes.
    private func publishScores() {
        switch database.scores() {
        case .success(let scores):
            let payload = Self.encoded(scores)
            guard payload != published else {
                stale = false
                return
            }
            // Over what a console reads (and a gym's broker takes): said, never sent cut.
            guard payload.count <= GymDeskAnswer.maximumBytes else {
                return once("scores size", "collect: today's scores are \(payload.count) bytes, over the console's \(GymDeskAnswer.maximumBytes): not published")
            }
            if publish(MQTTMessage(topic: FleetTopics.gymScores(prefix: prefix), payload: payload, qos: 1, retain: true)) {
                published = payload
                stale = false
            }
        case .failure(let problem):
            once("scores", "collect: cannot read today's scores for the console: \(problem)")
        }
    }

    /// A message on one of `subscriptions`; false when it is none of theirs.
    func receive(_ message: MQTTMessage) -> Bool {
        guard message.topic == FleetTopics.gymAsk(prefix: prefix) else { return false }
        let answer: GymDeskAnswer
        let reply: String
        switch GymDeskAsk.read(message.payload) {
        case .success(let ask):
            answer = self.answer(ask)
            reply = ask.reply
        case .failure(let refusal):
            guard let to = refusal.reply else {
                once("no reply", "collect: an ask on \(message.topic) names no reply topic: not answered (\(refusal.why))")
                return true
            }
            answer = GymDeskAnswer(id: refusal.id, done: false, said: "Refused: \(refusal.why)")
            reply = to
        }
        send(answer, to: reply)
        return true
    }

    /// `answer` on `reply`'s topic; one too big to send is a refusal that says so.
    private func send(_ answer: GymDeskAnswer, to reply: String) {
        var payload = answer.payload
        if payload.count > GymDeskAnswer.maximumBytes {
            let why = "the answer is too big to send (\(payload.count) bytes, at most \(GymDeskAnswer.maximumBytes))"
            payload = GymDeskAnswer(id: answer.id, done: false, said: "Refused: \(why)").payload
        }
        _ = publish(MQTTMessage(topic: FleetTopics.gymAnswer(prefix: prefix, to: reply), payload: payload, qos: 1))
    }

    /// What `ask` is answered.
    func answer(_ ask: GymDeskAsk) -> GymDeskAnswer {
        let id = ask.id
        func refused(_ why: String) -> GymDeskAnswer { GymDeskAnswer(id: id, done: false, said: why) }
        func edited(_ result: Result<String, GymDatabase.Problem>) -> GymDeskAnswer {
            stale = true
            switch result {
            case .success(let said): return GymDeskAnswer(id: id, done: true, said: said)
            case .failure(let problem): return refused(problem.description)
            }
        }
        switch ask.ask {
        case .roster:
            var onStations: [String: CardID] = [:]
            for (station, hex) in ask.onStations ?? [:] where FleetStationName.isValid(station) {
                if let card = CardID(hex: hex) { onStations[station] = card }
            }
            return database.roster(onStations: onStations).map { GymDeskAnswer(id: id, done: true, roster: $0) }
                .reduce(refused)
        case .athletes:
            return database.athletes().map { GymDeskAnswer(id: id, done: true, roster: GymRoster(athletes: $0)) }.reduce(refused)
        case .summary:
            guard let athlete = ask.athlete else { return refused("say which athlete") }
            return database.summary(id: athlete).map { GymDeskAnswer(id: id, done: true, summary: $0) }.reduce(refused)
        case .name:
            guard let card = ask.card.flatMap(CardID.init(hex:)) else { return refused("not a card's UID (1 to 10 bytes of hex)") }
            guard let name = ask.name, !name.isEmpty else { return refused("write the athlete's name") }
            return edited(database.name(card: card, name: name, short: ask.short))
        case .rename:
            guard let athlete = ask.athlete else { return refused("say which athlete") }
            guard ask.name != nil || ask.short != nil else { return refused("write a new name or short name") }
            return edited(database.rename(id: athlete, name: ask.name, short: ask.short))
        case .division:
            guard let record = ask.record, !record.isEmpty, record.utf8.count <= 256 else { return refused("say which result") }
            guard let division = ask.division else { return refused("the division is rx or scaled") }
            return edited(database.setDivision(record: record, division: division))
        }
    }

    private func once(_ key: String, _ line: String) {
        if logged.insert(key).inserted { log(line + " (said once)") }
    }

    static func encoded(_ scores: GymScores) -> [UInt8] {
        Array(FleetJSONEncoder(sortedKeys: true, escapingSlashes: false).text(scores).utf8)
    }
}

extension Result {
    /// The success, or what `failure` makes of the error.
    fileprivate func reduce(_ failure: (String) -> Success) -> Success where Failure: CustomStringConvertible {
        switch self {
        case .success(let value): value
        case .failure(let problem): failure(problem.description)
        }
    }
}
