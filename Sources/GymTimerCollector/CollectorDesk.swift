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
///   (`GymDeskStore`: the gym's `GymDatabase`, or a chain gym's rows in PostgreSQL).
/// * **Scores.** Today's scores (`GymScores`), retained on `FleetTopics.gymScores`, published
///   when they may have changed (records stored, an edit, another process's write seen by
///   the roster publisher's `PRAGMA data_version`, a new day): stored records at most once per
///   `scoresCheck`, a change of the roster at once (`rosterChanged`: a forgotten athlete's name
///   is gone from them before any station is told to forget them), and only when their bytes
///   differ from what this connection last published.
/// * **A chain's centre** (chain.md, "The chain's desk"): the same desk over every gym's asks
///   (`C/{gym}/all/gym/ask`, shared among the central collectors), each answered from that
///   gym's rows only (`GymDeskStores`), each gym's scores retained under `C/{gym}/` and the
///   chain's leaderboard on `C/all/gym/scores`; a failed read waits `failedCheck` before the next.
final class CollectorDesk {
    private let stores: GymDeskStores
    private let topics: CollectorTopics
    private let log: (String) -> Void
    /// Publishes while connected (false when it could not now).
    var publish: (MQTTMessage) -> Bool = { _ in false }
    /// Called after the coach's edit was made (a name, a void, a division): the stations that
    /// asked for a card hear its athlete's name and bests again where they changed, even where
    /// the roster's digest does not notice (a chain's void).
    var onEdit: () -> Void = {}

    /// The least time between two publications of the scores while records keep coming.
    static let scoresCheck: Duration = .seconds(2)
    /// The time before the scores are read again after a read failed (a database away: each
    /// read may wait out its time-out, and the collector's loop waits with it).
    static let failedCheck: Duration = .seconds(30)

    /// The earliest the scores may go out again (nil while not subscribed).
    private var nextCheck: Moment?
    /// The next local midnight on the collector's timeline: a new day's (empty) scores.
    private var nextDay: Moment?
    /// The gyms whose scores are retained: one gym's own (nil), or at a chain's centre those
    /// with records today or asked about today.
    private var gyms: Set<String?>
    /// The gyms whose scores may have changed since they were last published.
    private var stale: Set<String?>
    /// What this connection last published of each gym's scores, and of the chain's leaderboard.
    private var published: [String?: [UInt8]] = [:]
    private var publishedBoard: [UInt8]?
    /// Each chain gym's scores as last read (the leaderboard is made of them).
    private var latest: [String: GymScores] = [:]
    private var day: LocalDay?
    /// Refusals and problems already logged, once each.
    private var logged: Set<String> = []

    init(stores: GymDeskStores, topics: CollectorTopics, log: @escaping (String) -> Void) {
        self.stores = stores
        self.topics = topics
        self.log = log
        gyms = stores.isChain ? [] : [nil]
        stale = gyms
    }

    /// One gym's desk over `database` under `prefix`.
    convenience init(database: any GymDeskStore, prefix: String, log: @escaping (String) -> Void) {
        self.init(stores: .gym(database), topics: .gym(prefix: prefix), log: log)
    }

    /// The topics to subscribe to on every connection.
    var subscriptions: [String] { [topics.deskAsks] }

    /// When `fire(at:)` is next due (nil while not subscribed): soon after a change, else at
    /// midnight — nothing is looked at while nothing happens.
    var nextDeadline: Moment? {
        guard let nextCheck else { return nil }
        return !stale.isEmpty ? nextCheck : [nextCheck, nextDay].compactMap { $0 }.max()
    }

    /// A new connection: the scores are published again once subscribed.
    func connected() {
        nextCheck = nil
        published = [:]
        publishedBoard = nil
        stale = gyms
    }

    /// The subscriptions are granted at `now`: the scores go out at once.
    func subscribed(at now: Moment) {
        guard nextCheck == nil else { return }
        nextCheck = now
    }

    func disconnected() { nextCheck = nil }

    /// Records of `gyms` were stored (nil: one gym's own): their scores are looked at when next due.
    func stored(gyms stored: Set<String?>) {
        let mine = stores.isChain ? stored.filter { $0 != nil } : [nil]
        gyms.formUnion(mine)
        stale.formUnion(mine)
    }

    /// Another process changed the database (the roster publisher saw it): the scores are
    /// published again at once, while subscribed.
    func rosterChanged() {
        stale = gyms
        if nextCheck != nil { publishScores() }
    }

    /// Publishes the scores if they may have changed (a new day changes them).
    func fire(at now: Moment) {
        guard let due = nextDeadline, now >= due else { return }
        let date = stores.wall.date
        let today = LocalDay(date, in: stores.timeZone)
        if today != day {
            day = today
            nextDay = now + Self.untilMidnight(after: date, in: stores.timeZone)
            if stores.isChain { newDay(since: date) }
            stale = gyms
        }
        guard !stale.isEmpty else { return }
        nextCheck = now + Self.scoresCheck
        if !publishScores() { nextCheck = now + Self.failedCheck }
    }

    /// A chain's new day: its gyms are those with records today (and those asked about later).
    private func newDay(since date: Date) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = stores.timeZone
        switch stores.gymsSince(calendar.startOfDay(for: date)) {
        case .success(let today):
            // A gym that had records yesterday keeps its (now empty) scores retained until published.
            gyms.formUnion(today.map(Optional.some))
        case .failure(let problem):
            once("gyms", "collect: cannot read which gyms have records today: \(problem)")
        }
    }

    /// The time from `date` to the next local midnight in `zone` (and a second, to be past it).
    static func untilMidnight(after date: Date, in zone: TimeZone) -> Duration {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let start = calendar.startOfDay(for: date)
        let next = calendar.date(byAdding: .day, value: 1, to: start) ?? date.addingTimeInterval(86_400)
        return .seconds(max(1, next.timeIntervalSince(date) + 1))
    }

    /// Each stale gym's today's scores, retained, unless this connection published the same
    /// bytes; at a chain's centre then the leaderboard made of them. False when a read failed
    /// (the rest are left for the next check: a database away fails them all).
    @discardableResult
    private func publishScores() -> Bool {
        for gym in stale.sorted(by: { ($0 ?? "") < ($1 ?? "") }) {
            switch stores.store(gym).scores() {
            case .success(let scores):
                if let gym { latest[gym] = scores }
                if retain(Self.encoded(scores), on: topics.deskScores(gym: gym), as: gym.map { "\($0)'s scores" } ?? "today's scores", last: published[gym]) {
                    published[gym] = Self.encoded(scores)
                    stale.remove(gym)
                }
            case .failure(let problem):
                once("scores \(gym ?? "")", "collect: cannot read \(gym.map { "\($0)'s" } ?? "today's") scores for the console: \(problem)")
                return false
            }
        }
        guard let board = topics.leaderboard, let day else { return true }
        let payload = Self.encoded(GymScores.chain(latest, day: day.description))
        if retain(payload, on: board, as: "the chain's leaderboard", last: publishedBoard) { publishedBoard = payload }
        return true
    }

    /// `payload` retained on `topic` unless it is `last` (true: it is out, or was).
    private func retain(_ payload: [UInt8], on topic: String, as what: String, last: [UInt8]?) -> Bool {
        guard payload != last else { return true }
        // Over what a console reads (and a gym's broker takes): said, never sent cut.
        guard payload.count <= GymDeskAnswer.maximumBytes else {
            once("size \(topic)", "collect: \(what) are \(payload.count) bytes, over the console's \(GymDeskAnswer.maximumBytes): not published")
            return false
        }
        return publish(MQTTMessage(topic: topic, payload: payload, qos: 1, retain: true))
    }

    /// A message on one of `subscriptions`; false when it is none of theirs.
    func receive(_ message: MQTTMessage) -> Bool {
        guard let gym = topics.deskGym(ofAsk: message.topic) else { return false }
        // A chain gym's console asking: its scores are retained from now on, today.
        if let gym, !gyms.contains(gym) {
            gyms.insert(gym)
            stale.insert(gym)
        }
        let answer: GymDeskAnswer
        let reply: String
        switch GymDeskAsk.read(message.payload) {
        case .success(let ask):
            answer = self.answer(ask, gym: gym)
            reply = ask.reply
        case .failure(let refusal):
            guard let to = refusal.reply else {
                once("no reply", "collect: an ask on \(message.topic) names no reply topic: not answered (\(refusal.why))")
                return true
            }
            answer = GymDeskAnswer(id: refusal.id, done: false, said: "Refused: \(refusal.why)")
            reply = to
        }
        send(answer, to: reply, gym: gym)
        return true
    }

    /// `answer` on `reply`'s topic; one too big to send is a refusal that says so.
    private func send(_ answer: GymDeskAnswer, to reply: String, gym: String?) {
        var payload = answer.payload
        if payload.count > GymDeskAnswer.maximumBytes {
            let why = "the answer is too big to send (\(payload.count) bytes, at most \(GymDeskAnswer.maximumBytes))"
            payload = GymDeskAnswer(id: answer.id, done: false, said: "Refused: \(why)").payload
        }
        _ = publish(MQTTMessage(topic: topics.deskAnswer(gym: gym, reply: reply), payload: payload, qos: 1))
    }

    /// What `ask` (of `gym`'s console; nil: one gym's own) is answered, from that gym's store only.
    func answer(_ ask: GymDeskAsk, gym: String? = nil) -> GymDeskAnswer {
        let id = ask.id
        let database = stores.store(gym)
        func refused(_ why: String) -> GymDeskAnswer { GymDeskAnswer(id: id, done: false, said: why) }
        func edited(_ result: Result<String, GymDeskProblem>) -> GymDeskAnswer {
            stale.insert(gym)
            switch result {
            case .success(let said):
                self.onEdit()
                return GymDeskAnswer(id: id, done: true, said: said)
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
            guard ask.name != nil || ask.short != nil || ask.shown != nil else { return refused("write a new name or short name") }
            return edited(database.rename(id: athlete, name: ask.name, short: ask.short, shown: ask.shown))
        case .division:
            guard let record = ask.record, !record.isEmpty, record.utf8.count <= 256 else { return refused("say which result") }
            guard let division = ask.division else { return refused("the division is rx or scaled") }
            return edited(database.setDivision(record: record, division: division))
        case .void:
            guard let record = ask.record, !record.isEmpty, record.utf8.count <= 256 else { return refused("say which result") }
            return edited(database.void(record: record))
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
