import Foundation
import GymTimerCore
import GymTimerHistory
import GymTimerSystem

/// Reads today's scores from the collector's database every few seconds, on a thread of its
/// own (SQLite blocks), and publishes them to the pages when they change. Read-only: the file
/// is opened as `gymtimer history` opens it, never created, migrated or written (the coach's
/// roster edits and Rx/Scaled amends are `ConsoleGymDatabase`'s, on a handle of their own).
///
/// `@unchecked Sendable` is safe: `stopping` is read and written only while `lock` is held;
/// `started` is written by `start` before the thread exists and read by `stop`, which the
/// console's lifecycle calls only after `start` returned (a thread's start orders them); the
/// semaphores are thread-safe and the rest is `let`.
public final class ConsoleScoresReader: @unchecked Sendable {
    public let path: String
    private let broadcast: ConsoleBroadcast
    private let interval: Double
    private let timeZone: TimeZone
    private let lock = NSLock()
    private var stopping = false
    private let wake = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private var started = false

    public init(path: String, broadcast: ConsoleBroadcast, interval: Double = 3, timeZone: TimeZone = .current) {
        self.path = path
        self.broadcast = broadcast
        self.interval = interval
        self.timeZone = timeZone
    }

    /// What the page shows in place of scores when the database cannot be read.
    struct Unavailable: Codable { var problem: String }

    /// Today's scores from the file now, as the `scores` event's JSON.
    public func read(now: Date = Date()) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            let store = try HistoryStore.reading(path: path, timeZone: timeZone, wall: .fixed(now))
            let workouts = try store.workouts(since: now.addingTimeInterval(-8 * 86_400))
            // The roster's names, read-only too (a file before v6 has none: every card is new).
            let athletes = (try? AthleteRoster.reading(path: path).athletes()) ?? []
            let scores = ConsoleScores.make(workouts, day: LocalDay(now, in: timeZone), names: ConsoleAthleteNames(athletes))
            return (try? encoder.encode(scores)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        } catch {
            let unavailable = Unavailable(problem: "\(error)")
            return (try? encoder.encode(unavailable)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        }
    }

    public func start() {
        started = true
        let thread = Thread { [self] in
            defer { done.signal() }
            while true {
                lock.lock()
                let stop = stopping
                lock.unlock()
                if stop { return }
                broadcast.publish(event: "scores", data: read())
                _ = wake.wait(timeout: .now() + interval)
            }
        }
        thread.name = "console-scores"
        thread.start()
    }

    public func stop() {
        lock.lock()
        stopping = true
        lock.unlock()
        wake.signal()
        if started { done.wait() }
    }
}
