import Foundation
import GymTimerCore
import GymTimerSystem

/// Whether something is under way at the station, read by another process (the upgrade agent)
/// from the kiosk's journal, which the kiosk saves on every change of its running state: the
/// newest whole save is read without taking the journal up or moving anything aside.
public struct StationActivity: Sendable {
    public let journalPath: String

    public init(journalPath: String) {
        self.journalPath = journalPath
    }

    /// The part of a journal save the agent reads (unknown fields ignored).
    private struct Saved: Decodable {
        var progress: KioskProgress?
    }

    /// What is under way (`KioskProgress.underWay`), nil when the station is idle or has never
    /// run; a save that cannot be read counts as under way (the agent waits rather than guess).
    public func underWay() -> String? {
        guard let bytes = KioskJournal<KioskProgress>(path: journalPath).newestSave() else { return nil }
        guard let saved = try? JSONDecoder().decode(Saved.self, from: Data(bytes)) else {
            return "the station's saved state (\(journalPath)) cannot be read"
        }
        return saved.progress?.underWay
    }
}
