import Foundation
import GymTimerCore
import GymTimerFleet
import GymTimerFleetLink
import GymTimerMQTT

/// The station's record path (fleet.md): finished workouts wait in the durable outbox (or in
/// memory when its file cannot be written) until the gym's collector acknowledges them by id
/// on `P/ack` (`FleetRecordAck`): stored, or refused for good. The broker's PUBACK only says
/// the broker has a record for now (a broker killed, a collector that never subscribed, a
/// queue over `max_queued_messages` lose what it had), so the station sends what is not
/// acknowledged again:
/// * on every (re)connect;
/// * when a collector announces itself (a live `online` on `{prefix}/all/collector`: it has
///   just subscribed, and what the broker had for it may be gone);
/// * after a back-off (`firstRetry`, doubling to `lastRetry`) while records wait, in case an
///   acknowledgement was lost; with an empty outbox it never wakes the loop.
/// At most `window` records are out unacknowledged at once; each acknowledgement lets more go.
final class FleetRecordSender {
    /// One record waiting: its id in the gym and its payload.
    typealias Entry = FleetOutbox.Entry

    let topics: FleetTopics
    /// The topics to subscribe to on every connection: the acknowledgements and the collector's announcements.
    var subscriptions: [String] { [topics.ack, FleetTopics.collector(prefix: topics.prefix)] }
    /// Publishes a message while connected (its message id), or nil when it cannot now.
    var publish: (MQTTMessage) -> Int32? = { _ in nil }

    static let window = 50
    static let firstRetry: Duration = .seconds(10)
    static let lastRetry: Duration = .seconds(300)

    private let outbox: FleetOutbox?
    private let log: (String) -> Void
    /// Records waiting in memory when the outbox file cannot be written.
    private var unsaved: [Entry] = []
    /// Ids published since the last round began (sent again only in the next round).
    private var sent: Set<String> = []
    /// Records published and not yet taken by the broker, by message id.
    private var inflight: [Int32: String] = [:]
    private var retryAt: Moment?
    private var retryDelay = FleetRecordSender.firstRetry
    private var connected = false
    /// Kinds of refusal already logged (once per kind).
    private var loggedRefusals: Set<String> = []

    init(outbox: FleetOutbox?, topics: FleetTopics, log: @escaping (String) -> Void) {
        self.outbox = outbox
        self.topics = topics
        self.log = log
    }

    /// When the next retry round is due: only while connected with records waiting.
    var nextDeadline: Moment? { connected ? retryAt : nil }

    /// The records waiting (oldest first, at most `limit`): the outbox's, then those in memory.
    func waiting(limit: Int = FleetRecordSender.window) -> [Entry] {
        var entries: [Entry] = []
        do {
            entries = try outbox?.pending(limit: limit) ?? []
        } catch {
            log("fleet: \(error)")
        }
        for entry in unsaved where entries.count < limit && !entries.contains(where: { $0.id == entry.id }) { entries.append(entry) }
        return entries
    }

    /// The gym forgot `card`'s athlete: their waiting records are deleted, from the outbox's
    /// file and from memory (one already published may still reach the collector, which drops it).
    func forget(card: CardID) throws(FleetLinkError) {
        unsaved.removeAll { FleetOutbox.record($0.payload, isOf: card) }
        try outbox?.forget(card: card)
    }

    /// A finished workout's record: kept until acknowledged, sent now if connected.
    func add(id: String, payload: String, at now: Moment) {
        do {
            if let outbox {
                try outbox.add(id: id, payload: payload)
            } else {
                unsaved.append(.init(id: id, payload: payload))
            }
        } catch {
            log("fleet: \(error)")
            unsaved.append(.init(id: id, payload: payload))
        }
        guard connected else { return }
        if retryAt == nil { retryAt = now + retryDelay }
        send()
    }

    /// Connected (subscriptions asked for): a new round.
    func connected(at now: Moment) {
        connected = true
        inflight.removeAll()
        retryDelay = Self.firstRetry
        round(at: now)
    }

    /// The connection is gone: nothing goes, nothing is due until the next.
    func disconnected() {
        connected = false
        inflight.removeAll()
        sent.removeAll()
    }

    /// The broker has the message `mid` (that is all: the record waits for its acknowledgement).
    func delivered(mid: Int32) {
        inflight.removeValue(forKey: mid)
    }

    /// A message on one of `subscriptions`, handled; false when it is none of them.
    func receive(_ message: MQTTMessage, at now: Moment) -> Bool {
        if message.topic == topics.ack {
            if let ack = FleetRecordAck.parse(message.payload) { acknowledged(ack, at: now) }
            return true
        }
        if message.topic == FleetTopics.collector(prefix: topics.prefix) {
            // A retained `online` is the collector's state when this connection subscribed: what
            // the connection sent already reaches it. A live one is a collector that has just
            // subscribed, perhaps for the first time: it gets everything again.
            if !message.retain, message.text == "online" {
                retryDelay = Self.firstRetry
                round(at: now)
            }
            return true
        }
        return false
    }

    /// The retry is due: a new round, the next one later.
    func fire(at now: Moment) {
        guard connected, let due = retryAt, due <= now else { return }
        retryDelay = min(retryDelay * 2, Self.lastRetry)
        round(at: now)
    }

    /// Sends every waiting record again (up to `window`) and schedules the next retry.
    private func round(at now: Moment) {
        sent.removeAll()
        retryAt = nil
        send()
        if !sent.isEmpty || !waiting(limit: 1).isEmpty { retryAt = now + retryDelay }
    }

    /// Publishes the waiting records (of the first `window`) not yet sent in this round.
    private func send() {
        guard connected else { return }
        let taking = Set(inflight.values)
        for entry in waiting() where !sent.contains(entry.id) && !taking.contains(entry.id) {
            // The record's card asked for first, as of its start: the collector files a record
            // only under a card its station asked for then (an offline station's taps were never heard).
            if let ask = Self.ask(vouchingFor: entry.payload) {
                guard publish(MQTTMessage(topic: topics.cardAsk, payload: ask.payload, qos: 1)) != nil else { return }
            }
            guard let mid = publish(MQTTMessage(topic: topics.workout, text: entry.payload, qos: 1)) else { return }
            inflight[mid] = entry.id
            sent.insert(entry.id)
        }
    }

    /// The ask that goes before a record of an athlete: their card, at the record's start (its
    /// completion less its duration); nil for a guest's record (or one that does not read).
    static func ask(vouchingFor payload: String) -> FleetCardAsk? {
        guard case .object(let fields)? = JSONValue.parse(Array(payload.utf8)), let text = fields["athlete"]?.string,
              let card = CardID(hex: text), card.isPseudonym, let completed = fields["completed_at"]?.string,
              let date = FleetWorkoutMessage.date(completed) else { return nil }
        let duration = (fields["duration_ms"]?.number ?? 0) / 1000
        return FleetCardAsk(card: card, at: Int64((date.timeIntervalSince1970 - max(0, duration)).rounded(.down)))
    }

    /// The collector holds (or refuses) these records: they leave the outbox, more may go.
    private func acknowledged(_ ack: FleetRecordAck, at now: Moment) {
        let ids = ack.ids.filter { $0.hasPrefix(topics.station + "/") }
        guard !ids.isEmpty else { return }
        for refusal in ack.refused where loggedRefusals.insert(refusal.kind).inserted {
            log("fleet: the gym's collector refused record \(refusal.id) (\(refusal.kind)): \(refusal.reason); "
                + "it stays in this kiosk's history only (further ones of this kind are not logged)")
        }
        do {
            try outbox?.remove(ids: ids)
        } catch {
            log("fleet: \(error)")
        }
        let gone = Set(ids)
        unsaved.removeAll { gone.contains($0.id) }
        sent.subtract(gone)
        // Progress: the collector is there; wait the first back-off again, and fill the window.
        retryDelay = Self.firstRetry
        retryAt = nil
        send()
        if !waiting(limit: 1).isEmpty { retryAt = now + retryDelay }
    }
}
