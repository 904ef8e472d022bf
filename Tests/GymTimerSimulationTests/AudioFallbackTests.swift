import GymTimerCore
import GymTimerSimulation
import Testing
@testable import GymTimerRuntime
@testable import GymTimerSimulator

/// With no sound device, every cue still reaches the buzzer, and nothing is heard from audio.
@Suite struct AudioFallbackTests {
    func buzzerOnTimes(soundAvailable: Bool) throws -> (buzzer: [String], audio: [String]) {
        let script = try ScriptParser().parse("1 click start\n30 end")
        var lines: [String] = []
        let settings = KioskSettings(startMode: .interval, interval: IntervalSettings(phaseSeconds: 10, sets: 1))
        let simulation = try ScriptedSimulation(script: script, settings: settings, write: { lines.append($0) })
        simulation.devices.sound.isAvailable = soundAvailable
        try simulation.run()
        let buzzer = lines.filter { $0.contains(#""device":"buzzer","on":true"#) }.map { String($0.dropFirst(5).prefix { $0 != "," }) }
        let audio = lines.filter { $0.contains(#""device":"audio""#) && !$0.contains("null") }.map { String($0.dropFirst(5).prefix { $0 != "," }) }
        return (buzzer, audio)
    }

    @Test func everyCueGoesToTheBuzzerWhenSoundIsMissing() throws {
        let withSound = try buzzerOnTimes(soundAvailable: true)
        #expect(withSound.audio == ["8.01", "18.01", "21.01"], "warning, set-1, complete")
        #expect(withSound.buzzer == ["21.01"], "with sound, only the completion's long beep")

        let without = try buzzerOnTimes(soundAvailable: false)
        #expect(without.audio == [])
        // warning: two 100 ms beeps; set-1: three 150 ms beeps; complete: the long beep.
        #expect(without.buzzer == ["8.01", "8.21", "18.01", "18.31", "18.61", "21.01"])
    }
}
