import Foundation
import GymTimerFleet
import GymTimerMQTT

/// The chain's floor, as a console connected to the CENTRAL broker sees it (chain.md, "The
/// chain's desk"): every gym's stations under `C/{gym}/{station}/…` (the bridges carry them
/// there), one `ConsoleFloor` per gym for the gym picker (the chosen gym's tiles), and the
/// chain's leaderboard retained on `C/all/gym/scores`. The gyms are those named (`--gyms`), or
/// else those whose stations' retained statuses are seen (`C/+/+/status`), at most
/// `maximumGyms`: topics from anyone who can publish cannot grow it further. Pure: the link
/// feeds it messages, the pages ask it for a gym's tiles and the leaderboard.
public struct ConsoleChainFloor: Sendable {
    public let chain: String
    /// The gyms named on the command line; nil: discovered from their stations' statuses.
    public let named: [String]?
    private(set) var floors: [String: ConsoleFloor] = [:]
    /// The leaderboard as last retained (nil: none yet).
    public private(set) var leaderboard: [UInt8]?
    /// The most gyms one console keeps.
    public static let maximumGyms = 64

    public init(chain: String, gyms named: [String]? = nil) {
        self.chain = chain
        self.named = named.map { $0.filter { $0 != FleetStationName.every && FleetStationName.isValid($0) } }
        for gym in self.named ?? [] { floors[gym] = ConsoleFloor(prefix: "\(chain)/\(gym)") }
    }

    /// Why `--chain` or `--gyms` is refused.
    public struct Problem: Error, Hashable, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// The floor for `--chain chain --gyms a,b` (nil `gyms`: discovered), or why not.
    public static func parse(chain: String, gyms: String?) -> Result<ConsoleChainFloor, Problem> {
        let allowed = chain.utf8.allSatisfy { $0 < 0x80 && (Character(UnicodeScalar($0)).isLetter || Character(UnicodeScalar($0)).isNumber || "._-".utf8.contains($0)) }
        guard (1...64).contains(chain.utf8.count), allowed else {
            return .failure(Problem(description: "--chain \(chain): one topic level of 1 to 64 of A-Z, a-z, 0-9, . _ -"))
        }
        let named = gyms.map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        if let bad = named?.first(where: { !FleetStationName.isValid($0) || $0 == FleetStationName.every }) {
            return .failure(Problem(description: "--gyms: \"\(bad)\" is no gym's name (1 to 32 of a-z, 0-9, -; never all)"))
        }
        return .success(ConsoleChainFloor(chain: chain, gyms: named))
    }

    /// What the console subscribes to on the central broker.
    public var subscriptions: [String] {
        ["status", "state", "event"].map { "\(chain)/+/+/\($0)" } + [CollectorTopics.chain(prefix: chain, sharedGroup: nil).leaderboard!]
    }

    /// The gyms, by name.
    public var gyms: [String] { floors.keys.sorted() }

    /// Takes in one message; says whether a gym's tiles or the leaderboard changed.
    public mutating func apply(_ message: MQTTMessage) -> Bool {
        if message.topic == CollectorTopics.chain(prefix: chain, sharedGroup: nil).leaderboard {
            let payload = message.payload.isEmpty ? nil : message.payload
            defer { leaderboard = payload }
            return payload != leaderboard
        }
        let levels = message.topic.split(separator: "/", omittingEmptySubsequences: false)
        guard levels.count == 4, levels[0] == chain else { return false }
        let gym = String(levels[1])
        guard gym != FleetStationName.every, FleetStationName.isValid(gym) else { return false }
        if floors[gym] == nil {
            // A gym is discovered by a station's status, never by anything else it may carry.
            guard named == nil, levels[3] == "status", !message.payload.isEmpty, floors.count < Self.maximumGyms else { return false }
            floors[gym] = ConsoleFloor(prefix: "\(chain)/\(gym)")
        }
        return floors[gym]!.apply(message)
    }

    /// The tiles of `gym`'s stations (none for a gym it does not know).
    public func tiles(gym: String, now: Double) -> [ConsoleTile] {
        floors[gym]?.tiles(now: now) ?? []
    }

    /// The pages' `scores` event of the leaderboard (`ConsoleScoresEvent`: checked, its chart
    /// drawn here, only when of `today`); each entry names its gym; for `audience`.
    public func leaderboardEvent(today: String, for audience: ConsoleAudience = .coach) -> String {
        ConsoleScoresEvent.json(leaderboard, today: today, for: audience)
    }
}
