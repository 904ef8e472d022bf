import Foundation
import GymTimerCore
import GymTimerHAL
import GymTimerSystem

/// Plays sound cues through a `PCMOutput` on a thread of its own, so `play` never blocks the
/// kiosk's event loop: it posts the request and returns.
///
/// A looping sound repeats until replaced or stopped; replacing or stopping drops what is queued
/// at once (`PCMOutput.stop()`). If the output cannot be opened, or fails while playing, the
/// failure is logged once, that playback is abandoned (the buzzer and display still carry the
/// cue), and opening is retried on a later `play` no sooner than `retryInterval` after the
/// failure, so plugging a speaker back in brings sound back.
public final class PCMSoundPlayer: SoundPlayer, Sendable {
    /// Opens the output; called on the playback thread, at start and when retrying.
    public typealias Opener = @Sendable () throws(HALError) -> any PCMOutput

    /// The name under which the output's faults are logged.
    public static let faultName = "audio output"

    private let mailbox = Mailbox()

    /// - Parameters:
    ///   - library: where the samples of each sound come from.
    ///   - retryInterval: the least time between a failure and the next attempt to open.
    ///   - now: a monotonic time source; tests inject one they move by hand.
    ///   - preload: sounds to load on the playback thread as soon as the output first opens
    ///     (spoken cues take espeak-ng a moment; loaded early, they start at once when due).
    ///   - log: receives each fault and recovery line (once per failure, not per cue).
    ///   - open: opens the PCM output (e.g. `{ try ALSAPCMOutput(name: "default") }`).
    public init(
        library: SoundLibrary,
        preload: [Sound] = [],
        retryInterval: Duration = .seconds(30),
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now },
        log: @escaping @Sendable (String) -> Void,
        open: @escaping Opener
    ) {
        let mailbox = self.mailbox
        let thread = Thread {
            let worker = Worker(
                mailbox: mailbox, library: library, retryInterval: retryInterval, now: now,
                faults: FaultLog(sink: log), open: open
            )
            worker.run(preload: preload)
        }
        thread.name = "gymtimer-audio"
        thread.qualityOfService = .userInteractive
        thread.start()
    }

    deinit { shutdown() }

    /// Starts `sound`, replacing whatever plays; nil stops at once. Returns immediately.
    public func play(_ sound: Sound?, at now: Moment) {
        mailbox.post(sound.map { .play($0) } ?? .stop)
    }

    /// Blocks until every posted request is handled and nothing is playing (a looping sound
    /// counts as playing until stopped). For tests and benchmarks, never for the event loop.
    public func waitUntilIdle() { mailbox.waitUntilIdle() }

    /// Stops playback, closes the output and ends the thread; waits for it to finish, but no
    /// longer than `limit` (a sound device or helper that hangs must not stop the kiosk from
    /// exiting). Returns false if the thread had not finished by then.
    @discardableResult
    public func shutdown(waitingAtMost limit: Duration = .seconds(2)) -> Bool { mailbox.shutdown(waitingAtMost: limit) }

    /// False from a failure to open or play until the output works again: while false the
    /// kiosk gives sound cues on the buzzer instead.
    public var isAvailable: Bool { mailbox.isAvailable }
}

extension PCMSoundPlayer {
    /// A request from the event loop to the playback thread.
    enum Command {
        case play(Sound)
        case stop
    }

    /// The hand-over between the caller and the playback thread. Only the latest request
    /// matters: a play posted before the previous one started simply replaces it.
    ///
    /// `@unchecked Sendable` is safe because every stored property is read and written only
    /// while holding `condition`'s lock.
    final class Mailbox: @unchecked Sendable {
        private let condition = NSCondition()
        private var pending: Command?
        private var busy = true // until the worker first waits: the initial open counts as work
        private var closing = false
        private var finished = false
        private var available = true

        var isAvailable: Bool {
            condition.lock()
            defer { condition.unlock() }
            return available
        }

        func setAvailable(_ value: Bool) {
            condition.lock()
            defer { condition.unlock() }
            available = value
        }

        func post(_ command: Command) {
            condition.lock()
            defer { condition.unlock() }
            pending = command
            condition.broadcast()
        }

        /// The next request for the worker. With `idle`, the worker has nothing to play: it says
        /// so to `waitUntilIdle` and blocks until a request arrives. Without it, it returns at
        /// once, or after `timeout` if given and nothing arrives (the output was full).
        func take(idle: Bool, timeout: Duration? = nil) -> (command: Command?, closing: Bool) {
            condition.lock()
            defer { condition.unlock() }
            if idle {
                busy = false
                condition.broadcast()
                while pending == nil && !closing { condition.wait() }
            } else if let timeout, pending == nil, !closing {
                _ = condition.wait(until: Date(timeIntervalSinceNow: Double(timeout.nanoseconds) / 1e9))
            }
            busy = true
            let command = pending
            pending = nil
            return (command, closing)
        }

        func waitUntilIdle() {
            condition.lock()
            defer { condition.unlock() }
            while (pending != nil || busy) && !finished { condition.wait() }
        }

        func shutdown(waitingAtMost limit: Duration) -> Bool {
            condition.shutDownWorker(waitingAtMost: limit, close: { closing = true }, isFinished: { finished })
        }

        func workerFinished() {
            condition.broadcast {
                finished = true
                busy = false
            }
        }
    }

    /// The playback thread's state; it lives and dies on that thread.
    final class Worker {
        private struct Playing {
            var samples: [Int16]
            var position = 0
            var loops: Bool
        }

        private let mailbox: Mailbox
        private let library: SoundLibrary
        private let retryInterval: Duration
        private let now: @Sendable () -> ContinuousClock.Instant
        private let faults: FaultLog
        private let open: Opener
        private var output: (any PCMOutput)?
        private var playing: Playing?
        private var lastFailure: ContinuousClock.Instant?

        init(
            mailbox: Mailbox, library: SoundLibrary, retryInterval: Duration,
            now: @escaping @Sendable () -> ContinuousClock.Instant, faults: FaultLog, open: @escaping Opener
        ) {
            self.mailbox = mailbox
            self.library = library
            self.retryInterval = retryInterval
            self.now = now
            self.faults = faults
            self.open = open
        }

        func run(preload: [Sound]) {
            // Open at start, so a missing device is reported before the first cue.
            if let output = openIfDue() { library.prepare(preload, sampleRate: output.sampleRate) }
            var outputFull = false
            while true {
                let (command, closing) = mailbox.take(
                    idle: playing == nil, timeout: outputFull ? .milliseconds(5) : nil
                )
                if closing { break }
                if let command { handle(command) }
                outputFull = playing != nil && !pump()
            }
            if let output { try? output.stop() }
            output = nil // the backend closes the device when released
            mailbox.workerFinished()
        }

        private func handle(_ command: Command) {
            // Whatever was queued goes at once, whether replaced or stopped.
            if let output {
                do { try output.stop() } catch { fail(error); return }
            }
            playing = nil
            guard case .play(let sound) = command, let output = openIfDue() else { return }
            playing = Playing(samples: library.samples(for: sound, sampleRate: output.sampleRate), loops: sound.loops)
        }

        /// Writes the next chunk (10 ms); false when the output took nothing because it is full.
        private func pump() -> Bool {
            guard var current = playing, let output else { return true }
            guard !current.samples.isEmpty else { playing = nil; return true }
            let chunk = max(1, output.sampleRate / 100)
            let end = min(current.samples.count, current.position + chunk)
            let accepted: Int
            do {
                accepted = try output.write(current.samples[current.position..<end])
            } catch {
                fail(error)
                return true
            }
            guard accepted > 0 else { return false }
            faults.succeeded(PCMSoundPlayer.faultName)
            current.position += min(accepted, end - current.position)
            if current.position >= current.samples.count {
                if current.loops { current.position = 0 } else { playing = nil; return true }
            }
            playing = current
            return true
        }

        /// The open output, opening it if it is closed and the retry interval has passed.
        private func openIfDue() -> (any PCMOutput)? {
            if let output { return output }
            if let lastFailure, now() < lastFailure + retryInterval { return nil }
            do {
                let opened = try open()
                output = opened
                lastFailure = nil
                mailbox.setAvailable(true)
                return opened
            } catch {
                fail(error)
                return nil
            }
        }

        /// Logs the failure (once in a row), abandons playback and closes the output.
        private func fail(_ error: HALError) {
            faults.failed(PCMSoundPlayer.faultName, error)
            mailbox.setAvailable(false)
            output = nil
            playing = nil
            lastFailure = now()
        }
    }
}
