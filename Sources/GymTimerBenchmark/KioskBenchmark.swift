import GymTimerCore
import GymTimerHAL
import GymTimerRuntime
import GymTimerSimulation
import GymTimerSimulator

/// `gymtimer bench`: measures the real event loop on the real clock with simulated devices —
/// press-to-output latency, deadline and display-tick accuracy, idle cost, memory, start-up —
/// and the simulator's virtual-time throughput, each against its target.
public final class KioskBenchmark {
    /// How much to measure; `quick` shortens everything for tests and CI.
    public struct Options: Hashable, Sendable {
        public var presses = 1000
        public var rests = 50
        public var idleSeconds = 10
        public var countdownSeconds = 10
        public var startupRuns = 20
        public var throughputRuns = 3
        public var simulatedDays = 1
        /// Commands timed through the broker, and seconds an idle fleet station is watched.
        public var fleetCommands = 200
        public var fleetIdleSeconds = 20
        /// Records sent through the broker-kill drill.
        public var fleetRecords = 30
        /// The gymtimer binary for the start-up figure (nil: not measured).
        public var executable: String?
        public var quick = false
        /// Only these figures' measurements (nil: all of them), for profiling one path.
        public var only: Set<Measurement>?

        public init(executable: String? = nil) { self.executable = executable }

        /// Short runs: a few seconds in all, for smoke tests.
        public static func quick(executable: String? = nil) -> Options {
            var options = Options(executable: executable)
            options.presses = 50
            options.rests = 3
            options.idleSeconds = 1
            options.countdownSeconds = 2
            options.startupRuns = 3
            options.throughputRuns = 1
            options.fleetCommands = 20
            options.fleetIdleSeconds = 3
            options.fleetRecords = 8
            options.quick = true
            return options
        }
    }

    /// A measurement `gymtimer bench --only` can select; each gives one or more figures
    /// (`timing`: deadline and display-tick accuracy with the idle cost, measured together).
    public enum Measurement: String, CaseIterable, Hashable, Sendable {
        case latency, timing, reader, startup, throughput, fleet, console, drill, chain
    }

    /// The debouncer's settle time: a press counts this long after its last edge.
    static let settle = InputTiming().settle
    /// Time between the starts of successive presses, and how long each is held.
    static let pressPeriod = Duration.milliseconds(40)
    static let pressLength = Duration.milliseconds(15)

    public let options: Options
    private let progress: (String) -> Void

    /// `progress` receives a line as each measurement begins (stderr for the command).
    public init(options: Options, progress: @escaping (String) -> Void = { _ in }) {
        self.options = options
        self.progress = progress
    }

    /// Runs every measurement in turn (those in `options.only`, when set). A measurement that
    /// fails is reported as not measured.
    public func run() -> BenchmarkReport {
        var figures: [BenchmarkFigure] = []
        func wanted(_ measurement: Measurement) -> Bool { options.only?.contains(measurement) ?? true }
        if wanted(.latency) {
            progress("press-to-output latency: \(options.presses) presses")
            figures += pressLatency()
        }
        if wanted(.timing) {
            progress("deadline and display-tick accuracy: \(options.rests) rests of 1 s")
            let rests = deadlineAccuracy()
            progress("idle cost: \(options.idleSeconds) s idle, \(options.countdownSeconds) s counting down")
            let (idle, countdown) = idleCost()
            figures += [rests.deadline, tickAccuracy(rests.ticks + countdown.ticks)] + idle.figures + countdown.figures
        }
        if wanted(.reader) {
            let taps = options.quick ? 3 : 20
            progress("card reader: \(options.idleSeconds) s idle, \(taps) taps through libnfc on the simulated PN532")
            figures += CardReaderBenchmark(idleSeconds: options.idleSeconds, taps: taps).run()
        }
        var startup: (time: BenchmarkFigure, memory: BenchmarkFigure)?
        if wanted(.startup) {
            progress("start-up: \(options.startupRuns) spawns")
            startup = self.startup()
        }
        var throughput: BenchmarkFigure?
        if wanted(.throughput) {
            progress("virtual-time throughput: \(options.throughputRuns) × \(options.simulatedDays) simulated day(s)")
            throughput = self.throughput()
        }
        if let startup {
            let own = ResourceUsage.process().peakResidentBytes
            figures.append(startup.time)
            figures.append(startup.memory)
            figures.append(BenchmarkFigure(
                name: "peak RSS, this bench process", unit: .megabytes,
                statistics: BenchmarkStatistics([Double(own) / 1_048_576]),
                note: "the benchmark's own process after all runs (it keeps every sample and ran a simulated day); for information, the target applies to the kiosk process above"))
        }
        if let throughput { figures.append(throughput) }
        figures += networkFigures(wanted: wanted)
        return BenchmarkReport(figures: figures, quick: options.quick)
    }

    /// The measurements over real brokers and processes: the fleet, the console, the record-loss
    /// drill and the chain (those `wanted` says).
    private func networkFigures(wanted: (Measurement) -> Bool) -> [BenchmarkFigure] {
        var figures: [BenchmarkFigure] = []
        if wanted(.fleet) {
            progress("fleet: \(options.fleetCommands) commands through Mosquitto, \(options.fleetIdleSeconds) s of an idle station")
            figures += FleetBenchmark(
                executable: options.executable, commands: options.fleetCommands, idleSeconds: options.fleetIdleSeconds,
                starts: options.quick ? 3 : 10).run()
        }
        if wanted(.console) {
            let consoleClicks = options.quick ? 3 : 15
            progress("console: \(consoleClicks) Reset clicks through gymtimer-console to a headless station")
            figures.append(ConsoleBenchmark(executable: options.executable, clicks: consoleClicks).run())
        }
        if wanted(.drill) {
            progress("fleet: \(options.fleetRecords) records through a broker killed while the collector is away")
            figures.append(RecordLossDrill(records: options.fleetRecords).run())
        }
        if wanted(.chain) {
            let (stations, burst, paced) = options.quick ? (10, 20, 3) : (50, 100, 20)
            progress("chain: \(stations) stations over two bridged gyms, two central collectors, PostgreSQL")
            figures += ChainBenchmark(executable: options.executable, stations: stations, burst: burst, pacedSeconds: paced).run()
        }
        return figures
    }

    // MARK: Press to output

    func pressLatency() -> [BenchmarkFigure] {
        let rig = RealTimeRig(settings: KioskSettings())
        let first = rig.now + .milliseconds(50)
        let edges = (0..<options.presses).map { first + Self.pressPeriod * $0 }
        for edge in edges { rig.press(.start, at: edge, for: Self.pressLength) }
        var failure: String?
        do { try rig.run(until: (edges.last ?? first) + Self.pressPeriod * 2) } catch { failure = "\(error)" }
        // Each press toggles idle ⇄ resting, so its first output write is the LED change.
        var edgeToOutput: [Double] = [], pressToOutput: [Double] = []
        var index = 0
        var unanswered = 0
        for (n, edge) in edges.enumerated() {
            let next = n + 1 < edges.count ? edges[n + 1] : .seconds(Int64.max / 1_000_000_000)
            while index < rig.events.count, rig.events[index].time < edge { index += 1 }
            guard index < rig.events.count, rig.events[index].time < next else { unanswered += 1; continue }
            let written = rig.events[index].time
            edgeToOutput.append((written - edge).milliseconds)
            pressToOutput.append((written - edge - Self.settle).milliseconds)
        }
        var note = unanswered > 0 ? "\(unanswered) of \(edges.count) presses gave no output. " : ""
        if let failure { note += "the loop failed: \(failure). " }
        let settleMs = Int(Self.settle.milliseconds)
        return [
            BenchmarkFigure(
                name: "press→output, line edge → write", unit: .milliseconds,
                statistics: BenchmarkStatistics(edgeToOutput), target: .init(.p99, .below, 30),
                note: note + "includes the debouncer's deliberate \(settleMs) ms settle after the last edge; the target is simulation.md's 30 ms debounce bound"),
            BenchmarkFigure(
                name: "press→output, debounced press → write", unit: .milliseconds,
                statistics: BenchmarkStatistics(pressToOutput), target: .init(.p99, .below, 1),
                note: "the loop's own latency: from the moment the press counts (edge + \(settleMs) ms settle) to the LED write; includes the wake-up from sleep"),
        ]
    }

    // MARK: Deadlines and display ticks

    struct RestSamples {
        var deadline: BenchmarkFigure
        var ticks: [Double]
    }

    func deadlineAccuracy() -> RestSamples {
        let settings = KioskSettings(rest: RestSettings(defaultSeconds: 1, minSeconds: 1))
        let rig = RealTimeRig(settings: settings)
        // Start pressed during the alarm silences it and starts the next rest at once.
        let period = Duration.milliseconds(1100)
        let first = rig.now + .milliseconds(50)
        for k in 0..<options.rests { rig.press(.start, at: first + period * k, for: .milliseconds(30)) }
        var note = "from a rest's deadline to the last of its alarm outputs (display 00:00, LED alarm, buzzer on) written"
        do { try rig.run(until: first + period * options.rests) } catch { note += "; the loop failed: \(error)" }
        let samples = Self.alarmErrors(rig.events)
        if samples.count < options.rests { note += "; only \(samples.count) of \(options.rests) rests sounded" }
        return RestSamples(
            deadline: BenchmarkFigure(
                name: "deadline error (rest end → alarm written)", unit: .milliseconds,
                statistics: BenchmarkStatistics(samples), target: .init(.p99, .below, 2), note: note),
            ticks: Self.tickErrors(rig.events))
    }

    /// For each rest that reached its alarm: buzzer-on time minus the rest's deadline, in ms.
    static func alarmErrors(_ events: [(time: Duration, event: RealTimeRig.Event)]) -> [Double] {
        var samples: [Double] = []
        var deadline: Moment?
        var alarmLit = false
        for (time, event) in events {
            switch event {
            case .restStarted(let due): deadline = due
            case .led(.alarm, let on): alarmLit = on
            case .buzzer(true) where alarmLit:
                if let due = deadline { samples.append((time - due.sinceOrigin).milliseconds) }
                deadline = nil
            default: break
            }
        }
        return samples
    }

    /// For each change of the displayed second during a countdown (MM:SS → one second less):
    /// the write time minus that second's exact boundary (the deadline minus the seconds shown), in ms.
    static func tickErrors(_ events: [(time: Duration, event: RealTimeRig.Event)]) -> [Double] {
        var samples: [Double] = []
        var deadline: Moment?
        var shown: Int?
        for (time, event) in events {
            switch event {
            case .restStarted(let due): deadline = due
            case .display(let text):
                guard let seconds = Self.seconds(shownAs: text) else { continue }
                if let due = deadline, let before = shown, seconds == before - 1 {
                    let boundary = due - .seconds(seconds)
                    samples.append((time - boundary.sinceOrigin).milliseconds)
                    if seconds == 0 { deadline = nil }
                }
                shown = seconds
            case .led(.ready, true): deadline = nil
            default: break
            }
        }
        return samples
    }

    /// The seconds an `MMSS` display text shows, or nil for anything else (a blank blink).
    static func seconds(shownAs text: String) -> Int? {
        let digits = text.compactMap(\.wholeNumberValue)
        guard text.count == 4, digits.count == 4 else { return nil }
        return (digits[0] * 10 + digits[1]) * 60 + digits[2] * 10 + digits[3]
    }

    func tickAccuracy(_ samples: [Double]) -> BenchmarkFigure {
        BenchmarkFigure(
            name: "display tick error (second boundary → write)", unit: .milliseconds,
            statistics: BenchmarkStatistics(samples), target: .init(.p99, .below, 2),
            note: "each change of the displayed second against its exact boundary (deadline − seconds shown), from the 1 s rests and the countdown; held to the deadline target")
    }

    // MARK: Idle cost

    struct Cost {
        var figures: [BenchmarkFigure]
        var ticks: [Double]
    }

    func idleCost() -> (idle: Cost, countdown: Cost) {
        let rig = RealTimeRig(settings: KioskSettings())
        let idleStart = rig.now
        let idle = measureCost(rig, from: idleStart, seconds: options.idleSeconds, what: "idle", target: 0)
        // Start a rest (the default 90 s) and measure while it counts down, from its first second.
        let press = rig.now + .milliseconds(20)
        rig.press(.start, at: press, for: .milliseconds(80))
        let countdownStart = press + .milliseconds(500)
        var countdown = measureCost(rig, from: countdownStart, seconds: options.countdownSeconds, what: "counting down", target: 3)
        countdown.ticks = Self.tickErrors(rig.events)
        return (idle, countdown)
    }

    /// Runs `rig` through `from ..< from + seconds`: wake-ups in each whole second, and CPU.
    private func measureCost(_ rig: RealTimeRig, from start: Duration, seconds: Int, what: String, target: Double) -> Cost {
        var note: String?
        do { try rig.run(until: start) } catch { note = "the loop failed: \(error)" }
        let end = start + .seconds(seconds)
        let before = ResourceUsage.thread()
        let wallBefore = rig.now
        do { try rig.run(until: end) } catch { note = "the loop failed: \(error)" }
        let cpu = ResourceUsage.thread().cpu - before.cpu
        let wall = rig.now - wallBefore
        // Wake-ups at or after `end` are the benchmark's own stop, not the kiosk's.
        var perSecond = [Double](repeating: 0, count: seconds)
        for time in rig.wakeTimes where time >= start && time < end {
            perSecond[Int((time - start).seconds)] += 1
        }
        let cpuNote = "CPU time of the loop's thread (getrusage) over \(seconds) s \(what), as a share of one core"
        return Cost(figures: [
            BenchmarkFigure(
                name: "wake-ups per second, \(what)", unit: .perSecond,
                statistics: BenchmarkStatistics(perSecond), target: .init(.max, .atMost, target),
                note: note ?? "counted in each whole second of \(seconds) s; the benchmark's own stop at the end is not counted"),
            BenchmarkFigure(
                name: "CPU, \(what)", unit: .percent,
                statistics: BenchmarkStatistics([100 * cpu.seconds / max(wall.seconds, 1e-9)]), note: cpuNote),
        ], ticks: [])
    }

    // MARK: Start-up and memory

    func startup() -> (time: BenchmarkFigure, memory: BenchmarkFigure) {
        var times: [Double] = [], peaks: [Double] = []
        var problem: String?
        if let executable = options.executable {
            for _ in 0..<options.startupRuns {
                switch StartupProbe.measure(executable: executable) {
                case .success(let sample):
                    times.append(sample.startup.milliseconds)
                    peaks.append(Double(sample.child.peakResidentBytes) / 1_048_576)
                case .failure(let error):
                    problem = error.description
                }
                if problem != nil { break }
            }
        } else {
            problem = "no gymtimer binary given"
        }
        let suffix = problem.map { " — \($0)" } ?? ""
        return (
            BenchmarkFigure(
                name: "start-up (spawn → first outputs)", unit: .milliseconds,
                statistics: BenchmarkStatistics(times), target: .init(.median, .below, 200),
                note: "`gymtimer ready-probe` spawned \(options.startupRuns)×: config, devices, runtime, first outputs written, then `ready` read by the parent" + suffix),
            BenchmarkFigure(
                name: "peak RSS, kiosk process (ready-probe)", unit: .megabytes,
                statistics: BenchmarkStatistics(peaks), target: .init(.max, .below, 16),
                note: "each probe's own peak (VmHWM) when it is ready; wait4's ru_maxrss would carry the bench's own peak, which exec keeps")
        )
    }

    // MARK: Virtual time

    func throughput() -> BenchmarkFigure {
        let script = GymDayScript().make(days: options.simulatedDays, seed: 2024)
        let hours = script.end.seconds / 3600
        var rates: [Double] = []
        var lines = 0
        var note: String?
        let clock = ContinuousClock()
        for _ in 0..<options.throughputRuns {
            lines = 0
            let started = clock.now
            do {
                let simulation = try ScriptedSimulation(script: script, settings: KioskSettings(), write: { _ in lines += 1 })
                try simulation.run()
            } catch {
                note = "the simulation failed: \(error)"
                break
            }
            rates.append(hours / max(started.duration(to: clock.now).seconds, 1e-9))
        }
        return BenchmarkFigure(
            name: "virtual-time throughput (ScriptedSimulation)", unit: .hoursPerSecond,
            statistics: BenchmarkStatistics(rates), target: .init(.median, .atLeast, 3600),
            note: note ?? "simulated hours per wall-clock second for a scripted gym day (\(script.steps.count) actions, \(lines) trace lines, trace lines built but discarded)")
    }
}

extension Duration {
    /// The duration in (fractional) milliseconds.
    var milliseconds: Double { Double(nanoseconds) / 1e6 }
    /// The duration in (fractional) seconds.
    var seconds: Double { Double(nanoseconds) / 1e9 }
}
