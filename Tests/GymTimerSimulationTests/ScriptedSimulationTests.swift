import GymTimerCore
import GymTimerSimulation
import Testing
@testable import GymTimerRuntime
@testable import GymTimerSimulator

@Suite struct ScriptedSimulationTests {
    func trace(_ text: String, settings: KioskSettings = KioskSettings()) throws -> [String] {
        let script = try ScriptParser().parse(text)
        var lines: [String] = []
        let simulation = try ScriptedSimulation(script: script, settings: settings, write: { lines.append($0) })
        try simulation.run()
        return lines
    }

    @Test func reportsEveryDeviceAtZeroThenOnlyChanges() throws {
        let lines = try trace("1 click start\n3 end")
        #expect(lines == [
            #"{"t":0.0,"device":"display","text":"0130","colon":true}"#,
            #"{"t":0.0,"device":"buzzer","on":false}"#,
            #"{"t":0.0,"device":"led","name":"ready","on":true}"#,
            #"{"t":0.0,"device":"led","name":"rest","on":false}"#,
            #"{"t":0.0,"device":"led","name":"alarm","on":false}"#,
            #"{"t":0.0,"device":"led","name":"low","on":false}"#,
            #"{"t":0.0,"device":"led","name":"high","on":false}"#,
            #"{"t":0.0,"device":"audio","sound":null}"#,
            #"{"t":1.01,"device":"led","name":"ready","on":false}"#,
            #"{"t":1.01,"device":"led","name":"rest","on":true}"#,
            #"{"t":2.01,"device":"display","text":"0129","colon":true}"#,
        ])
    }

    @Test func theSameScriptGivesTheSameTraceByteForByte() throws {
        let script = "1 click start\n2 turn 5\n2.01 bounce dismiss\n40 hold dismiss 3\n50 click start\n150 end"
        #expect(try trace(script) == trace(script))
    }

    @Test func fiveHundredDetentsPerSecondAreAllCounted() throws {
        // 20 detents with their 4 edges 0.5 ms apart: 500 detents per second.
        var lines: [String] = []
        let script = SimulationScript(steps: [], end: .seconds(2))
        let simulation = try ScriptedSimulation(script: script, settings: KioskSettings(rest: RestSettings(stepSeconds: 1, warningSeconds: 0)), write: { lines.append($0) })
        var edges: [ScriptedInputs.ScheduledEdge] = []
        for k in 0..<20 {
            let start = Duration.milliseconds(100) + .milliseconds(2) * k
            for (i, (line, level)) in [("encoder-a", true), ("encoder-b", true), ("encoder-a", false), ("encoder-b", false)].enumerated() {
                edges.append(.init(time: start + .microseconds(500) * i, line: line, active: level))
            }
        }
        simulation.inputs.schedule(edges)
        try simulation.run()
        // The last detent completes with its fourth edge at 139.5 ms.
        #expect(lines.last == #"{"t":0.14,"device":"display","text":"0150","colon":true}"#)
        #expect(lines.filter { $0.contains(#""device":"display""#) }.count == 21, "one display change per detent, none lost or doubled")
    }

    @Test func aDayOfRandomUseKeepsTheTraceInTimeOrder() throws {
        var rng = SystemRandomNumberGenerator()
        var script = ""
        var t = 1.0
        while t < 86_000 {
            let verbs = ["click start", "click dismiss", "turn 2", "turn -1", "bounce start", "hold dismiss 2.5"]
            script += "\(String(format: t)) \(verbs.randomElement(using: &rng)!)\n"
            t += Double(Int.random(in: 1...400, using: &rng))
        }
        script += "86400 end\n"
        let lines = try trace(script)
        let times = lines.map { line -> Double in
            let start = line.index(line.startIndex, offsetBy: 5)
            return Double(line[start..<line.firstIndex(of: ",")!])!
        }
        #expect(times == times.sorted())
        #expect(times.last! <= 86_400)
    }
}

private func String(format t: Double) -> String { "\(Int(t))" }
