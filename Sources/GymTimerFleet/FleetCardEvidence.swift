import Foundation
import GymTimerCore

/// What a collector heard of the cards on each station: every `FleetCardAsk` a station sent (a
/// tap, the class list, a waiting record about to go again), kept so that a record is filed
/// under its athlete only when its station asked for that card around the run
/// (`vouches(for:on:from:to:)`), and so that a card's changes go to the stations that asked
/// for it, and to no other. Bounded on every side: a station's account cannot grow it past
/// `maximumStations` × `maximumCardsPerStation` × `maximumAsksPerCard` times. Pure.
public struct FleetCardEvidence: Sendable {
    /// The most stations remembered (the one heard from longest ago is dropped first).
    public static let maximumStations = 1024
    /// The most cards remembered per station (the one asked for longest ago is dropped first).
    public static let maximumCardsPerStation = 512
    /// The most ask times remembered per card on a station (the oldest dropped first).
    public static let maximumAsksPerCard = 16
    /// How long before a run's start an ask still vouches for it: an athlete taps on, then
    /// trains (the station takes them off after a while without use).
    public static let lead: TimeInterval = 12 * 3600
    /// How long after a run's end an ask still vouches for it (both times are the station's own clock).
    public static let lag: TimeInterval = 300

    /// What is kept of one card on one station: the times of its asks (oldest first) and what
    /// the station was last told of it (the answer's hash; nil: nothing yet).
    private struct Entry: Sendable {
        var times: [Int64] = []
        var told: Int?
    }

    /// Per station, per card, its asks and the last answer.
    private var asks: [String: [CardID: Entry]] = [:]
    /// When each station was last heard from (a counter), for dropping the one heard from longest ago.
    private var heardAt: [String: Int] = [:]
    private var counter = 0

    public init() {}

    /// `station` asked for `ask.card`, saying it was on it at `ask.at`.
    public mutating func heard(_ ask: FleetCardAsk, from station: String) {
        counter += 1
        heardAt[station] = counter
        var cards = asks[station] ?? [:]
        var entry = cards[ask.card] ?? Entry()
        if !entry.times.contains(ask.at) {
            entry.times.append(ask.at)
            entry.times.sort()
            if entry.times.count > Self.maximumAsksPerCard { entry.times.removeFirst(entry.times.count - Self.maximumAsksPerCard) }
        }
        cards[ask.card] = entry
        if cards.count > Self.maximumCardsPerStation,
           let stalest = cards.min(by: { ($0.value.times.last ?? 0) < ($1.value.times.last ?? 0) })?.key {
            cards[stalest] = nil
        }
        asks[station] = cards
        if asks.count > Self.maximumStations, let stalest = heardAt.min(by: { $0.value < $1.value })?.key {
            asks[stalest] = nil
            heardAt[stalest] = nil
        }
    }

    /// Whether `station` asked for `card` between `lead` before `start` and `lag` after `end`.
    public func vouches(for card: CardID, on station: String, from start: Date, to end: Date) -> Bool {
        let earliest = start.timeIntervalSince1970 - Self.lead, latest = end.timeIntervalSince1970 + Self.lag
        return asks[station]?[card]?.times.contains { Double($0) >= earliest && Double($0) <= latest } ?? false
    }

    /// What `station` was last told of `card` (an answer's hash), if it asked for it.
    public func lastTold(_ card: CardID, to station: String) -> Int? { asks[station]?[card]?.told }

    /// `station` was told `hash` of `card` (kept only while its ask is).
    public mutating func told(_ hash: Int, of card: CardID, to station: String) {
        asks[station]?[card]?.told = hash
    }

    /// The stations that asked for `card`, in name order.
    public func stations(asking card: CardID) -> [String] {
        asks.filter { $0.value[card] != nil }.keys.sorted()
    }

    /// Every card asked for, with the stations that asked, in card order.
    public var askers: [(card: CardID, stations: [String])] {
        var byCard: [CardID: [String]] = [:]
        for (station, cards) in asks { for card in cards.keys { byCard[card, default: []].append(station) } }
        return byCard.keys.sorted().map { ($0, byCard[$0]!.sorted()) }
    }

    /// `card` was forgotten: no station is told of it again, and nothing of it is kept.
    public mutating func forget(_ card: CardID) {
        for station in asks.keys { asks[station]?[card] = nil }
    }
}
