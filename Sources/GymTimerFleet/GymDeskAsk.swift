import Foundation
import GymTimerCore

/// What the coach's console asks the gym's collector, which alone opens the gym's database
/// (fleet.md, "The console asks the collector"): published on `FleetTopics.gymAsk`, answered
/// (`GymDeskAnswer`) on `FleetTopics.gymAnswer(prefix:to: reply)`. Plain JSON, sorted keys:
/// `{"ask":"rename","athlete":3,"id":"…","reply":"gymtimer-console-12","short":"LInd"}`.
public struct GymDeskAsk: Hashable, Sendable, Codable {
    /// What is asked.
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// The roster and the cards no athlete has (`onStations`: the cards on the stations now).
        case roster
        /// The roster's athletes only (the class list's).
        case athletes
        /// An athlete's page (`athlete`).
        case summary
        /// A new card (`card`) named (`name`, `short`).
        case name
        /// An athlete (`athlete`) renamed (`name` and/or `short`) and/or named otherwise to the
        /// signed-out world (`shown`).
        case rename
        /// A program result (`record`) set to Rx or Scaled (`division`).
        case division
        /// A program result (`record`) voided: no best or leaderboard counts it.
        case void
    }

    /// The ask's id, which its answer carries (1 to 64 bytes).
    public var id: String
    /// The last level of the topic the answer goes to: the console's MQTT client id.
    public var reply: String
    public var ask: Kind
    public var athlete: Int64?
    public var card: String?
    public var name: String?
    public var short: String?
    public var record: String?
    public var division: Division?
    /// How the signed-out world names the athlete (a `rename`).
    public var shown: PublicName?
    /// Each station's card now (station → hex UID).
    public var onStations: [String: String]?

    public init(id: String, reply: String, ask: Kind) {
        self.id = id
        self.reply = reply
        self.ask = ask
    }

    /// The largest ask read (a bigger one is refused, saying so).
    public static let maximumBytes = 16 * 1024
    /// The most stations an ask names.
    public static let maximumStations = 256

    /// The ask as JSON (sorted keys), written by the fleet's one encoder.
    public var payload: [UInt8] {
        Array(FleetJSONEncoder(sortedKeys: true, escapingSlashes: false).text(self).utf8)
    }

    /// Whether `text` may be an id or a reply topic's level: 1 to 64 printable ASCII bytes,
    /// none of them an MQTT level separator or wildcard.
    public static func isValidToken(_ text: String) -> Bool {
        (1...64).contains(text.utf8.count)
            && text.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "#") }
    }

    /// Where an ask's answer goes, read from any payload (even one that is no ask), so that a
    /// refusal reaches its asker: nil when it names no valid reply.
    public struct Return: Hashable, Sendable, Decodable {
        public var id: String?
        public var reply: String?
    }

    /// `payload` read: the ask, or why it is refused (with where to say so, if it said).
    public static func read(_ payload: [UInt8]) -> Result<GymDeskAsk, Refusal> {
        // Where to answer is looked for in anything up to a megabyte (an oversized ask is told so).
        let back = payload.count <= 1 << 20 ? try? JSONDecoder().decode(Return.self, from: Data(payload)) : nil
        let to = back?.reply.flatMap { isValidToken($0) ? $0 : nil }
        let id = back?.id.flatMap { isValidToken($0) ? $0 : nil } ?? ""
        func refused(_ why: String) -> Result<GymDeskAsk, Refusal> { .failure(Refusal(id: id, reply: to, why: why)) }
        guard payload.count <= maximumBytes else { return refused("the ask is over \(maximumBytes) bytes") }
        guard let ask = try? JSONDecoder().decode(GymDeskAsk.self, from: Data(payload)) else {
            return refused("not an ask the collector knows (\(Kind.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        guard isValidToken(ask.id), to != nil else { return refused("the ask needs an id and a reply of 1 to 64 characters") }
        guard (ask.onStations?.count ?? 0) <= maximumStations else { return refused("at most \(maximumStations) stations") }
        return .success(ask)
    }

    /// Why an ask is refused before it is done, and where to say so.
    public struct Refusal: Error, Hashable, Sendable {
        public var id: String
        public var reply: String?
        public var why: String
    }
}
