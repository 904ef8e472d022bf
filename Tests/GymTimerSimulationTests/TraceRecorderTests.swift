import Testing
@testable import GymTimerSimulation

/// The trace's bytes (simulation.md), which the hand-built lines must keep exactly.
@Suite struct TraceRecorderTests {
    @Test func linesAreTheSpecsJSONWithTimesToTheMillisecond() {
        var now = Duration.zero
        var lines: [String] = []
        let trace = TraceRecorder(now: { now }, write: { lines.append($0) })
        trace.display(text: "----", colon: false)
        trace.buzzer(on: false)
        trace.led("green", on: false)
        trace.audio(nil)
        trace.begin()
        now = .milliseconds(2000)
        trace.display(text: "1:\"\\\u{1}°", colon: true)
        now = .milliseconds(2010)
        trace.buzzer(on: true)
        trace.buzzer(on: true) // unchanged: not written
        now = .nanoseconds(88_124_600_000)
        trace.led("green", on: true)
        now = .seconds(3600)
        trace.audio("rest-over")
        trace.fleet(topic: "state", payload: #"{"mode":"rest"}"#, isJSON: true)
        trace.fleet(topic: "event", payload: "two\nlines", isJSON: true)
        #expect(lines == [
            #"{"t":0.0,"device":"display","text":"----","colon":false}"#,
            #"{"t":0.0,"device":"buzzer","on":false}"#,
            #"{"t":0.0,"device":"led","name":"green","on":false}"#,
            #"{"t":0.0,"device":"audio","sound":null}"#,
            #"{"t":2.0,"device":"display","text":"1:\"\\\u0001°","colon":true}"#,
            #"{"t":2.01,"device":"buzzer","on":true}"#,
            #"{"t":88.125,"device":"led","name":"green","on":true}"#,
            #"{"t":3600.0,"device":"audio","sound":"rest-over"}"#,
            #"{"t":3600.0,"device":"fleet","topic":"state","payload":{"mode":"rest"}}"#,
            #"{"t":3600.0,"device":"fleet","topic":"event","payload":"two\u000alines"}"#,
        ])
        #expect(TraceRecorder.seconds(.milliseconds(12_300)) == "12.3")
    }
}
