import Dispatch
import GymTimerCore
import GymTimerHAL
import Synchronization
import Testing
@testable import GymTimerDrivers

/// A scripted PCM output: records what is written and fails when told to.
final class ScriptedPCM: Sendable {
    struct State {
        var written: [Int16] = []
        var opens = 0
        var stops = 0
        var failOpen = false
        /// Writes throw once this many samples have been written.
        var failWritesAfter: Int?
        /// The buffer is "full" (writes accept nothing) once this many samples have been written.
        var capacity: Int?
    }

    let state = Mutex(State())
    /// Signalled when a write finds the buffer full.
    let full = DispatchSemaphore(value: 0)
    let sampleRate = 8000

    var opener: PCMSoundPlayer.Opener {
        { () throws(HALError) -> any PCMOutput in
            let fails = self.state.withLock { state in
                state.opens += 1
                return state.failOpen
            }
            if fails { throw HALError.noSuchDevice(device: "fake", hint: "plug it in") }
            return Output(script: self)
        }
    }

    var written: [Int16] { state.withLock { $0.written } }

    final class Output: PCMOutput {
        let script: ScriptedPCM
        init(script: ScriptedPCM) { self.script = script }
        var name: String { "fake" }
        var sampleRate: Int { script.sampleRate }

        func write(_ samples: ArraySlice<Int16>) throws(HALError) -> Int {
            enum Outcome { case accepted(Int), failed, full }
            let outcome = script.state.withLock { state -> Outcome in
                if let limit = state.failWritesAfter, state.written.count >= limit { return .failed }
                let room = state.capacity.map { $0 - state.written.count } ?? samples.count
                guard room > 0 else { return .full }
                let taken = samples.prefix(room)
                state.written += taken
                return .accepted(taken.count)
            }
            switch outcome {
            case .accepted(let count): return count
            case .failed: throw HALError.io(device: "fake", operation: "write", errno: 5)
            case .full:
                script.full.signal()
                return 0
            }
        }

        func stop() throws(HALError) { script.state.withLock { $0.stops += 1 } }
    }
}

@Suite struct AudioPlayerTests {
    let library = toneLibrary()

    func frames(_ sound: Sound) -> Int { library.samples(for: sound, sampleRate: 8000).count }

    @Test func playsACueOnceToTheEnd() {
        let pcm = ScriptedPCM()
        let player = PCMSoundPlayer(library: library, log: { _ in }, open: pcm.opener)
        player.play(.warning, at: .origin)
        player.waitUntilIdle()
        #expect(pcm.written == library.samples(for: .warning, sampleRate: 8000))
        #expect(pcm.state.withLock { $0.opens } == 1)
    }

    @Test func preloadedCuePlaysLikeAnyOther() {
        let pcm = ScriptedPCM()
        let player = PCMSoundPlayer(library: library, preload: [.complete, .setCompleting(2)], log: { _ in }, open: pcm.opener)
        player.waitUntilIdle()
        player.play(.setCompleting(2), at: .origin)
        player.waitUntilIdle()
        #expect(pcm.written == library.samples(for: .setCompleting(2), sampleRate: 8000))
    }

    @Test func loopingSoundRepeatsUntilStoppedAndStopDropsAtOnce() {
        let pcm = ScriptedPCM()
        let period = frames(.alarm)
        pcm.state.withLock { $0.capacity = period * 5 / 2 }
        let player = PCMSoundPlayer(library: library, log: { _ in }, open: pcm.opener)
        player.play(.alarm, at: .origin)
        pcm.full.wait()
        let stopsBefore = pcm.state.withLock { $0.stops }
        player.play(nil, at: .origin)
        player.waitUntilIdle()
        let written = pcm.written
        #expect(written.count == period * 5 / 2)
        #expect(Array(written[period..<(2 * period)]) == Array(written[0..<period]))
        #expect(pcm.state.withLock { $0.stops } == stopsBefore + 1)
    }

    @Test func newCueReplacesThePlayingOne() {
        let pcm = ScriptedPCM()
        let player = PCMSoundPlayer(library: library, log: { _ in }, open: pcm.opener)
        player.play(.complete, at: .origin)
        player.play(.warning, at: .origin)
        player.waitUntilIdle()
        #expect(pcm.written.suffix(frames(.warning)) == library.samples(for: .warning, sampleRate: 8000)[...])
        #expect(pcm.state.withLock { $0.stops } >= 1)
    }

    @Test func deviceThatFailsToOpenIsLoggedOnceAndRetriedAfterTheInterval() {
        let pcm = ScriptedPCM()
        pcm.state.withLock { $0.failOpen = true }
        let time = ManualTime()
        let log = LogLines()
        let player = PCMSoundPlayer(library: library, now: time.now, log: log.sink, open: pcm.opener)
        player.waitUntilIdle()
        #expect(log.all.count == 1)
        #expect(log.all.first?.contains("fake does not exist: plug it in") == true)

        for _ in 0..<5 {
            player.play(.warning, at: .origin)
            player.waitUntilIdle()
        }
        time.advance(.seconds(29))
        player.play(.alarm, at: .origin)
        player.waitUntilIdle()
        #expect(pcm.state.withLock { $0.opens } == 1, "no retry before 30 s")
        #expect(log.all.count == 1, "logged once, not per cue")

        time.advance(.seconds(1))
        player.play(.warning, at: .origin)
        player.waitUntilIdle()
        #expect(pcm.state.withLock { $0.opens } == 2)
        #expect(log.all.count == 1, "a failed retry is not logged again")

        pcm.state.withLock { $0.failOpen = false }
        time.advance(.seconds(30))
        player.play(.warning, at: .origin)
        player.waitUntilIdle()
        #expect(pcm.state.withLock { $0.opens } == 3)
        #expect(pcm.written == library.samples(for: .warning, sampleRate: 8000))
        #expect(log.all.count == 2)
        #expect(log.all.last == "recovered: \(PCMSoundPlayer.faultName) works again")
    }

    @Test func deviceThatFailsMidPlayIsLoggedOnceAndReopenedAfterTheInterval() {
        let pcm = ScriptedPCM()
        pcm.state.withLock { $0.failWritesAfter = 1000 }
        let time = ManualTime()
        let log = LogLines()
        let player = PCMSoundPlayer(library: library, now: time.now, log: log.sink, open: pcm.opener)
        player.play(.complete, at: .origin)
        player.waitUntilIdle()
        let abandonedAt = pcm.written.count
        #expect((1000..<1080).contains(abandonedAt), "playback abandoned at the failure (80-sample chunks)")
        #expect(log.all.count == 1)
        #expect(log.all.first?.contains("write on fake failed") == true)

        player.play(.complete, at: .origin)
        player.play(nil, at: .origin)
        player.play(.warning, at: .origin)
        player.waitUntilIdle()
        #expect(pcm.state.withLock { $0.opens } == 1)
        #expect(log.all.count == 1)

        pcm.state.withLock { $0.failWritesAfter = nil }
        time.advance(.seconds(30))
        player.play(.warning, at: .origin)
        player.waitUntilIdle()
        #expect(pcm.state.withLock { $0.opens } == 2)
        #expect(pcm.written.count == abandonedAt + frames(.warning))
        #expect(log.all == [log.all[0], "recovered: \(PCMSoundPlayer.faultName) works again"])
    }

    @Test func shutdownStopsAndEndsTheThread() {
        let pcm = ScriptedPCM()
        pcm.state.withLock { $0.capacity = 100 }
        let player = PCMSoundPlayer(library: library, log: { _ in }, open: pcm.opener)
        player.play(.alarm, at: .origin)
        pcm.full.wait()
        player.shutdown()
        #expect(pcm.state.withLock { $0.stops } >= 1)
        player.waitUntilIdle() // returns at once once the thread has ended
    }

    @Test func shutdownGivesUpOnAThreadThatHangs() {
        // An output whose open never returns (a wedged driver): shutdown must not hang the kiosk's exit.
        let release = DispatchSemaphore(value: 0)
        let entered = DispatchSemaphore(value: 0)
        let pcm = ScriptedPCM()
        let player = PCMSoundPlayer(library: library, log: { _ in }) { () throws(HALError) -> any PCMOutput in
            entered.signal()
            release.wait()
            return try pcm.opener()
        }
        entered.wait()
        #expect(player.shutdown(waitingAtMost: .milliseconds(20)) == false)
        release.signal()
        #expect(player.shutdown(waitingAtMost: .seconds(60)) == true)
    }
}
