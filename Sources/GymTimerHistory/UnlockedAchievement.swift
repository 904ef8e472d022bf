import Foundation

/// An achievement and the wall-clock time of the workout that unlocked it.
public struct UnlockedAchievement: Hashable, Sendable, Codable {
    public var achievement: Achievement
    public var unlockedAt: Date

    public init(_ achievement: Achievement, unlockedAt: Date) {
        self.achievement = achievement
        self.unlockedAt = unlockedAt
    }

    enum CodingKeys: String, CodingKey {
        case achievement = "name"
        case unlockedAt = "unlocked_at"
    }
}
