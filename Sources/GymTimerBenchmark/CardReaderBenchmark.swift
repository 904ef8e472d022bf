import Foundation
import GymTimerCore
import GymTimerDrivers
import GymTimerHAL
import GymTimerHardware
import GymTimerRuntime
import GymTimerSimulation
import GymTimerSystem

/// What the NFC reader costs the kiosk: the real libnfc (pn532_uart) asking the simulated PN532
/// on a pseudo-terminal through `CardTapSource`, and the kiosk's loop waiting on the source's
/// pipe as `gymtimer run` does. While idle with no card: the loop's wake-ups (target none: the
/// reader's thread asks, the loop sleeps) and the reader thread's CPU; then taps: from the card
/// entering the field to the name on the display.
struct CardReaderBenchmark {
    let idleSeconds: Int
    let taps: Int

    static let names = ["wake-ups per second, idle with a card reader", "CPU, the card reader's thread (idle)", "tap → name on the display"]

    func run() -> [BenchmarkFigure] {
        let twin: PN532SerialTwin
        let source: CardTapSource
        do {
            twin = try PN532SerialTwin()
            twin.start()
            let path = twin.path
            source = try CardTapSource(name: "pn532_uart:\(path)") { () throws(HALError) in try LibNFCCardReader("pn532_uart:\(path)") }
        } catch {
            return Self.notMeasured("the simulated reader could not be set up: \(error)")
        }
        defer {
            source.shutdown()
            twin.stop()
        }
        var faults: [String] = []
        let clock = ContinuousClock()
        let runtime = Self.loop(reading: source, clock: clock, faults: FaultLog { faults.append($0) })
        runtime.start()
        do {
            // The reader opens on its thread: let it settle before measuring.
            try runtime.run(until: runtime.now + .seconds(1))
            let idle = try idleCost(runtime, clock: clock)
            let latencies = try tapLatencies(runtime, twin: twin, clock: clock)
            let note = faults.isEmpty ? nil : "the reader failed: \(faults.joined(separator: "; "))"
            return figures(idle: idle, latencies: latencies, note: note)
        } catch {
            return Self.notMeasured("the loop failed: \(error)")
        }
    }

    /// The kiosk's loop over simulated outputs, waiting on the reader's pipe as `gymtimer run` does.
    static func loop(reading source: CardTapSource, clock: ContinuousClock, faults: FaultLog) -> KioskRuntime<ContinuousClock> {
        var leds: [StatusLED: any DigitalOutput] = [:]
        for led in StatusLED.allCases { leds[led] = SimulatedLine(name: "led-\(led.rawValue)") }
        let runtime = KioskRuntime(
            kiosk: Kiosk(settings: KioskSettings()), clock: clock, origin: clock.now,
            devices: KioskDevices(
                waiter: GPIOInputWaiter(inputs: [], sources: [source]), inputs: [:], display: SimulatedSegmentDisplay(),
                buzzer: SimulatedLine(name: "buzzer"), leds: leds, sound: SimulatedSoundPlayer(), cards: source),
            history: InMemoryHistory(), faults: faults)
        runtime.cardKey = .success(.simulation)
        return runtime
    }

    /// The loop's wake-ups per second and the reader thread's share of a core over `idleSeconds`
    /// with no card in the field.
    func idleCost(_ runtime: KioskRuntime<ContinuousClock>, clock: ContinuousClock) throws -> (wakeups: Double, cpu: [Double]) {
        let readerCPU = Self.threadCPU(named: "gymtimer-nfc")
        let wakeups = runtime.wakeups
        let start = clock.now
        try runtime.run(until: runtime.now + .seconds(idleSeconds))
        let wall = start.duration(to: clock.now).seconds
        // The run's own end is a wake-up of the benchmark's, not the reader's.
        let idleWakeups = Double(max(0, runtime.wakeups - wakeups - 1)) / wall
        let cpu = zip(readerCPU.map { [$0] } ?? [], Self.threadCPU(named: "gymtimer-nfc").map { [$0] } ?? []).map { 100 * ($1 - $0) / wall }
        return (idleWakeups, cpu)
    }

    /// For each of `taps` cards placed in the twin's field, the ms until the kiosk put its
    /// athlete on the station (none for a card not seen within 5 s).
    func tapLatencies(_ runtime: KioskRuntime<ContinuousClock>, twin: PN532SerialTwin, clock: ContinuousClock) throws -> [Double] {
        var latencies: [Double] = []
        for tap in 0..<taps {
            let uid: [UInt8] = [0x04, 0x10, 0x20, UInt8(tap)]
            guard let card = CardUID(bytes: uid).map(CardKey.simulation.pseudonym(of:)) else { continue }
            twin.field = [uid]
            let placed = clock.now
            let end = runtime.now + .seconds(5)
            while runtime.kiosk.athlete?.card != card, runtime.now < end { try runtime.step(notAfter: end) }
            if runtime.kiosk.athlete?.card == card { latencies.append(placed.duration(to: clock.now).milliseconds) }
            twin.field = []
            try runtime.run(until: runtime.now + .seconds(1))
        }
        return latencies
    }

    /// The three figures, against their targets.
    func figures(idle: (wakeups: Double, cpu: [Double]), latencies: [Double], note: String?) -> [BenchmarkFigure] {
        [
            BenchmarkFigure(
                name: Self.names[0], unit: .perSecond, statistics: BenchmarkStatistics([idle.wakeups]), target: .init(.max, .atMost, 0),
                note: note ?? "the loop over \(idleSeconds) s with the reader asked every 150 ms on its own thread and no card in the field"),
            BenchmarkFigure(
                name: Self.names[1], unit: .percent, statistics: idle.cpu.isEmpty ? nil : BenchmarkStatistics(idle.cpu),
                note: "its share of one core over the same \(idleSeconds) s (/proc/self/task/*/stat; libnfc's InListPassiveTarget on the pty every 150 ms)"),
            BenchmarkFigure(
                name: Self.names[2], unit: .milliseconds, statistics: latencies.isEmpty ? nil : BenchmarkStatistics(latencies),
                target: .init(.median, .below, 300),
                note: "\(latencies.count) of \(taps) cards placed in the simulated PN532's field until the kiosk put their athlete on the station"),
        ]
    }

    static func notMeasured(_ why: String) -> [BenchmarkFigure] {
        [BenchmarkFigure(name: names[0], unit: .perSecond, statistics: nil, note: why),
         BenchmarkFigure(name: names[1], unit: .percent, statistics: nil, note: why),
         BenchmarkFigure(name: names[2], unit: .milliseconds, statistics: nil, note: why)]
    }

    /// The CPU seconds (user + system) of this process's thread named `name`, from procfs.
    static func threadCPU(named name: String) -> Double? {
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task") else { return nil }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        for task in tasks {
            guard let comm = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8),
                  comm.trimmingCharacters(in: .whitespacesAndNewlines) == name,
                  let stat = try? String(contentsOfFile: "/proc/self/task/\(task)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            // After the command's closing parenthesis: state is field 3; utime and stime are 14 and 15.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
            return (user + system) / ticks
        }
        return nil
    }
}
