import Foundation
import GymTimerCore
import GymTimerFleet
import GymTimerHistory
import GymTimerMQTT
import GymTimerSystem

/// The collector's word to the stations about the gym's athletes (fleet.md, "Athletes"):
///
/// * **Cards, to the stations they were tapped on.** A station asks for a card on
///   `{station}/card-ask` (`FleetCardAsk`) when it comes onto it, and before each record of it
///   goes; the collector answers on that station's `{station}/card` (`FleetCardAnswer`: the
///   athlete's short name and bests per program and division, or null for a card the gym does
///   not know) and keeps the ask (`FleetCardEvidence`): a card's changes (a rename, a new best,
///   a card dropped from the roster) go to the stations that asked for it and to no other, and a
///   record is filed under its athlete only when its station asked for the card around the run
///   (`vouches`). No topic every station reads lists the gym's cards: the retained
///   `{prefix}/all/athletes/{card}` of collectors before card asks are cleared once read.
/// * **Forgetting.** Each `ForgetRequest` (written by `gymtimer athletes forget`) becomes the
///   command `{"do":"forget","card":…}` to every station the collector knows (a retained
///   `status`, online or offline): sent when the request is first seen, when a station comes
///   back `online`, and again every `forgetResend` to those that have not answered. A station's
///   `done` is kept in the database; when every known station has answered, or after
///   `ForgetRequest.patience` (a station that never returns), the request is deleted and the
///   file VACUUMed. Records of a card being forgotten that still arrive are acknowledged to
///   their station and dropped (`isForgotten`), never stored.
///
/// The roster is edited by other processes (the CLI, the console). The collector notices by
/// asking its store's `rosterStamp` every `rosterCheck` on its own timeline: SQLite's `PRAGMA
/// data_version` (a counter that changes only when another connection commits), or at a
/// chain's centre a digest of the roster's cards and short names (`PostgresRoster`). Either
/// costs one small read while nobody edits, needs no cooperation from the editors (any tool
/// that writes the database is noticed, a `sqlite3` or `psql` shell included) and opens no
/// topic that anyone allowed to publish under `{prefix}/all/` could flood with nudges. (At the
/// centre, PostgreSQL's LISTEN/NOTIFY would need a connection that waits for notifications
/// beside the collector's blocking one, and every editor, psql included, to NOTIFY; a poll of
/// a digest needs neither.) A change costs one read of the roster and the bests, and
/// publishes only the cards that changed.
///
/// The same publisher serves a chain's central collector (`CollectorTopics.chain`): asks come on
/// `C/{gym}/{station}/card-ask` over each gym's bridge and are answered on
/// `C/{gym}/{station}/card`, the bests over every gym's records. The centre also retains the
/// chain's cards on `C/all/athletes/{card}`, read by the central collectors alone (no bridge
/// carries them, no gym's account reads them): they are its ledger of forgets. The central
/// roster keeps no forget requests: a card retained there that the roster no longer has is one
/// forgotten, so the retained card itself is the request, kept (surviving a restart) until every station of
/// every gym known from `C/{gym}/{station}/status` has answered the `forget` sent on
/// `C/{gym}/{station}/cmd` (or `ForgetRequest.patience` passed); then it is cleared. Such a
/// request lives in memory under a random id, so two central collectors never take each
/// other's answers for their own.
final class FleetRosterPublisher {
    private let store: any RosterSource
    private let prefix: String
    /// Whether this is a chain's centre: stations are `{gym}/{station}`, forgets kept in memory.
    private let isChain: Bool
    private let log: (String) -> Void
    private let wall: WallClock
    /// Publishes while connected (false when it could not now).
    var publish: (MQTTMessage) -> Bool = { _ in false }
    /// Called when another process changed the database (and once settled), before any card
    /// or forget goes out: the collector's desk publishes today's scores again.
    var changed: () -> Void = {}

    /// How often the database is asked whether another process changed it.
    static let rosterCheck: Duration = .seconds(2)
    /// How long after the subscriptions are granted the retained cards and statuses count as
    /// read (the broker sends them straight after its SUBACK).
    static let settle: Duration = .seconds(1)
    /// How often a forget is sent again to stations online that have not answered it.
    static let forgetResend: Duration = .seconds(60)

    /// The stations' card asks, subscribed to at QoS 1 before the records: asks sent while the
    /// collector is away wait in its session in order with the records they vouch for. Never
    /// shared: every collector of a group hears every ask, whichever one gets the record.
    var askSubscription: String { isChain ? "\(prefix)/+/+/card-ask" : FleetTopics.everyCardAsk(prefix: prefix) }

    /// The topics to subscribe to on every connection (at QoS 0).
    var subscriptions: [String] {
        if isChain { return [FleetTopics.everyAthleteCard(prefix: prefix), "\(prefix)/+/+/status", "\(prefix)/+/+/event"] }
        return [FleetTopics.everyAthleteCard(prefix: prefix), FleetTopics.everyStation(prefix: prefix).status, "\(prefix)/+/event"]
    }

    /// The cards the broker retains, as their payloads (what this connection read or published).
    private var retained: [CardID: [UInt8]] = [:]
    /// The stations known from their retained status: whether each is online.
    private var stations: [String: Bool] = [:]
    /// When the retained messages count as read (nil: not connected, or not yet granted).
    private var settledAt: Moment?
    private var settled = false
    private var nextCheck: Moment?
    private var nextResend: Moment?
    private var dataVersion: String?
    /// The forget requests waiting, as last read.
    private var requests: [ForgetRequest] = []
    /// Refusals already logged (request and station), once each.
    private var loggedRefusals: Set<String> = []
    /// The cards each station asked for, when, and what it was last told of each (a change is
    /// sent, the same answer is not).
    private var evidence = FleetCardEvidence()
    /// The stations heard asking on this connection: a record of theirs without its ask that
    /// comes before any ask of theirs may be one the broker queued before this collector read
    /// asks (`FleetCollector.askGrace`).
    private var askingNow: Set<String> = []
    /// Asks that were not asks (a bad payload), logged once.
    private var loggedBadAsk = false

    init(store: any RosterSource, topics: CollectorTopics, wall: WallClock, log: @escaping (String) -> Void) {
        self.store = store
        self.prefix = topics.prefix
        self.isChain = topics.isChain
        self.wall = wall
        self.log = log
        requests = (try? store.forgetRequests()) ?? []
    }

    /// Whether `card` is being forgotten: its records are acknowledged and dropped.
    func isForgotten(_ card: CardID) -> Bool { requests.contains { $0.card == card } }

    /// Whether `station` (`{gym}/{station}` at a chain's centre) has asked for any card on this connection.
    func hasAsked(_ station: String) -> Bool { askingNow.contains(station) }

    /// Whether `station` (`{gym}/{station}` at a chain's centre) asked for `workout`'s card
    /// around its run. A record naming a UID (a station from before card pseudonyms, which
    /// cannot ask) needs no ask: only the card and its reader know the UID.
    func vouches(for workout: StoredWorkout, from station: String) -> Bool {
        guard let card = workout.athlete, card.isPseudonym else { return true }
        let start = workout.completedAt.addingTimeInterval(-Double(max(0, workout.durationMilliseconds)) / 1000)
        return evidence.vouches(for: card, on: station, from: start, to: workout.completedAt)
    }

    /// When `fire(at:)` is next due (nil while disconnected).
    var nextDeadline: Moment? {
        guard let settledAt else { return nil }
        guard settled else { return settledAt }
        return [nextCheck, nextResend].compactMap { $0 }.min()
    }

    /// A new connection: what was retained is read again.
    func connected() {
        askingNow = []
        retained = [:]
        stations = [:]
        settledAt = nil
        settled = false
    }

    /// The subscriptions are granted at `now`: the retained messages follow.
    func subscribed(at now: Moment) {
        guard settledAt == nil else { return }
        settledAt = now + Self.settle
    }

    func disconnected() {
        settledAt = nil
        settled = false
    }

    /// Does what fell due: the first look after connecting, the roster check, the resends.
    func fire(at now: Moment) {
        guard let settledAt, now >= settledAt else { return }
        if !settled {
            settled = true
            dataVersion = try? store.rosterStamp()
            nextResend = now + Self.forgetResend
            nextCheck = now + Self.rosterCheck
            changed()
            return synchronise(sendingForgets: true)
        }
        if let check = nextCheck, now >= check {
            nextCheck = now + Self.rosterCheck
            let version = try? store.rosterStamp()
            if version != dataVersion {
                dataVersion = version
                changed()
                synchronise(sendingForgets: true)
            }
        }
        if let resend = nextResend, now >= resend {
            nextResend = now + Self.forgetResend
            sendForgets()
            // A request whose patience ran out is completed even if nothing else happens.
            completeRequests()
        }
    }

    /// A message on one of `subscriptions`; false when it is none of theirs.
    func receive(_ message: MQTTMessage) -> Bool {
        if let card = FleetTopics.athleteCard(in: message.topic, prefix: prefix) {
            // Kept bounded: one over a card's size (only someone else's) never equals a card, so
            // the next look replaces or clears it.
            retained[card] = message.payload.isEmpty ? nil : Array(message.payload.prefix(FleetAthleteCard.maximumBytes + 1))
            return true
        }
        guard let (station, kind) = stationTopic(message.topic) else { return false }
        switch kind {
        case "card-ask":
            guard let ask = FleetCardAsk.parse(message.payload) else {
                if !loggedBadAsk {
                    loggedBadAsk = true
                    log("collect: ignored a card ask from \(station) that is not one (JSON with a card's pseudonym and a time) (further ones are not logged)")
                }
                return true
            }
            answer(ask, from: station)
            return true
        case "status":
            // A cleared status is a station taken out of the fleet: no longer waited for.
            let online = message.text == "online"
            let wasOnline = stations[station] ?? false
            stations[station] = message.payload.isEmpty ? nil : online
            if settled, online, !wasOnline { sendForgets(to: [station]) }
            if settled { completeRequests() }
            return true
        case "event":
            answer(message.payload, from: station)
            return true
        default:
            return false
        }
    }

    /// The station (`{gym}/{station}` at a chain's centre) and the last level of a station's topic.
    private func stationTopic(_ topic: String) -> (String, Substring)? {
        let levels = topic.split(separator: "/", omittingEmptySubsequences: false)
        guard isChain else {
            guard levels.count == 3, levels[0] == prefix, let station = FleetTopics.validStation(in: topic, prefix: prefix) else { return nil }
            return (station, levels[2])
        }
        guard levels.count == 4, levels[0] == prefix, levels[1] != "all", levels[2] != "all",
              FleetStationName.isValid(String(levels[1])), FleetStationName.isValid(String(levels[2])) else { return nil }
        return ("\(levels[1])/\(levels[2])", levels[3])
    }

    /// The topics of `station` (`{gym}/{station}` at a chain's centre).
    private func topics(of station: String) -> FleetTopics {
        guard isChain, let slash = station.firstIndex(of: "/") else { return FleetTopics(prefix: prefix, station: station) }
        return FleetTopics(prefix: "\(prefix)/\(station[..<slash])", station: String(station[station.index(after: slash)...]))
    }

    /// Records of these cards were stored: their athletes' bests may have changed (every card
    /// of an athlete carries them); the stations that asked for one hear what changed.
    func stored(cards: Set<CardID>) {
        guard settled, !cards.isEmpty else { return }
        do {
            let roster = try store.rosterCards(only: cards)
            if isChain { publish(roster) }
            tellAskers(roster, of: Set(roster.map(\.card)))
        } catch {
            log("collect: cannot read the athletes' bests: \(error)")
        }
    }

    /// The coach edited the roster or a result from the console: every card asked for is
    /// read again, and each station that asked is told where its answer changed.
    func edited() { stored(cards: Set(evidence.askers.map(\.card))) }

    // MARK: Asks

    /// A station's ask: kept as evidence, and answered on its own topic (always: it asks
    /// because it needs it, after a restart too).
    private func answer(_ ask: FleetCardAsk, from station: String) {
        evidence.heard(ask, from: station)
        if askingNow.count < FleetCardEvidence.maximumStations { askingNow.insert(station) }
        do {
            let roster = isForgotten(ask.card) ? [] : try store.rosterCards(only: [ask.card])
            tell(station, FleetCardAnswer(card: ask.card, athlete: roster.first { $0.card == ask.card }.map(Self.athleteCard)), always: true)
        } catch {
            log("collect: cannot read the athletes' cards to answer \(station): \(error)")
        }
    }

    /// Tells every station that asked for one of `cards` what the gym knows of it now (from
    /// `roster`; null for one the roster lacks), when it differs from what it was told.
    private func tellAskers(_ roster: [RosterCard], of cards: Set<CardID>) {
        let known = Dictionary(roster.map { ($0.card, $0) }, uniquingKeysWith: { first, _ in first })
        for (card, stations) in evidence.askers where cards.contains(card) {
            let answer = FleetCardAnswer(card: card, athlete: known[card].map(Self.athleteCard))
            for station in stations { tell(station, answer, always: false) }
        }
    }

    /// Sends `answer` to `station` (unless it was told the same and `always` is false).
    private func tell(_ station: String, _ answer: FleetCardAnswer, always: Bool) {
        let payload = answer.payload
        guard always || evidence.lastTold(answer.card, to: station) != payload.hashValue else { return }
        if publish(MQTTMessage(topic: topics(of: station).card, payload: payload, qos: 1)) {
            evidence.told(payload.hashValue, of: answer.card, to: station)
        }
    }

    private static func athleteCard(_ card: RosterCard) -> FleetAthleteCard {
        FleetAthleteCard(short: card.shortName, bests: Array(card.bests.prefix(FleetAthleteCard.maximumBests)))
    }

    // MARK: Cards

    /// Publishes every roster card that differs from what is retained, clears those retained
    /// that the roster no longer has, and looks at the forget requests.
    private func synchronise(sendingForgets: Bool) {
        do {
            let cards = try store.rosterCards(only: nil)
            let known = Set(cards.map(\.card))
            tellAskers(cards, of: Set(evidence.askers.map(\.card)))
            if isChain {
                publish(cards)
                // A retained card the roster lost was forgotten: it stays until the stations answered.
                for card in retained.keys.sorted() where !known.contains(card) && !isForgotten(card) {
                    requests.append(ForgetRequest(id: Int64.random(in: 1...Int64.max), card: card, requestedAt: wall.date))
                }
                // One named again meanwhile is no longer forgotten.
                requests.removeAll { known.contains($0.card) }
            } else {
                // Retained by a collector from before card asks, for every station to read: cleared.
                for card in retained.keys.sorted() {
                    if publish(MQTTMessage(topic: FleetTopics.athleteCard(prefix: prefix, card: card), payload: [], qos: 1, retain: true)) {
                        retained[card] = nil
                    }
                }
                requests = try store.forgetRequests()
            }
        } catch {
            log("collect: cannot read the roster: \(error)")
            return
        }
        if sendingForgets { sendForgets() }
        completeRequests()
    }

    /// The chain's ledger: each card retained as its athlete card, only where it changed.
    private func publish(_ cards: [RosterCard]) {
        for card in cards {
            let payload = Self.athleteCard(card).payload
            guard retained[card.card] != payload else { continue }
            if publish(MQTTMessage(topic: FleetTopics.athleteCard(prefix: prefix, card: card.card), payload: payload, qos: 1, retain: true)) {
                retained[card.card] = payload
            }
        }
    }

    // MARK: Forgetting

    /// Sends each waiting request to the stations (all known online ones, or `only`) that have not answered it.
    private func sendForgets(to only: Set<String>? = nil) {
        for request in requests {
            for (station, online) in stations.sorted(by: { $0.key < $1.key })
            where online && !request.answered.contains(station) && (only?.contains(station) ?? true) {
                let command = FleetRequest(.forget(card: request.card), id: request.commandID)
                _ = publish(MQTTMessage(topic: topics(of: station).command, text: command.json, qos: 1))
            }
        }
    }

    /// A station's event: the answer to a forget is kept (done) or logged (refused; sent again later).
    private func answer(_ payload: [UInt8], from station: String) {
        guard let (id, answer) = FleetAnswer.parse(event: payload), let request = ForgetRequest.id(ofCommand: id),
              let index = requests.firstIndex(where: { $0.id == request }) else { return }
        switch answer {
        case .done:
            do {
                if !isChain { try store.recordForgetAnswer(request: request, station: station) }
                requests[index].answered.insert(station)
            } catch {
                log("collect: cannot keep \(station)'s answer to \(id): \(error)")
            }
            completeRequests()
        case .refused(let reason):
            if loggedRefusals.insert("\(id) \(station)").inserted {
                log("collect: \(station) refused \(id) (\(reason)); asked again every \(Int(Self.forgetResend.components.seconds)) s while it is online")
            }
        }
    }

    /// Deletes the requests every known station has answered, or that waited `ForgetRequest.patience`.
    private func completeRequests() {
        guard settled else { return }
        let now = wall.date
        for request in requests {
            let owing = Set(stations.keys).subtracting(request.answered)
            let expired = now.timeIntervalSince(request.requestedAt) > ForgetRequest.patience
            guard owing.isEmpty || expired else { continue }
            do {
                var late = 0
                if isChain {
                    // The card's last trace at the centre: the retained card, cleared.
                    guard publish(MQTTMessage(topic: FleetTopics.athleteCard(prefix: prefix, card: request.card), payload: [], qos: 1, retain: true))
                    else { continue }
                    retained[request.card] = nil
                } else {
                    late = try store.completeForget(request: request.id)
                }
                requests.removeAll { $0.id == request.id }
                evidence.forget(request.card)
                if owing.isEmpty {
                    log("collect: \(request.commandID) done: every station known (\(request.answered.count)) forgot the card"
                        + (late > 0 ? " (\(late) late record(s) deleted)" : "") + "; its UID is gone from the database")
                } else {
                    log("collect: \(request.commandID) given up after \(Int(ForgetRequest.patience / 86_400)) days: "
                        + "\(owing.sorted().joined(separator: ", ")) never answered (they may still hold the card's records); "
                        + "its UID is gone from the database")
                }
            } catch {
                log("collect: cannot complete \(request.commandID): \(error)")
            }
        }
    }
}
