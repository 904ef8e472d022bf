import Foundation
import FuzzSupport
import GymTimerConfig
import GymTimerCore
import GymTimerFleet
import GymTimerMQTT
import GymTimerSimulation
import GymTimerSimulator
import GymTimerStationLink

/// Fuzz target for a whole fleet station (fleet.md: "nothing a message holds can stop, block or
/// exhaust a station"): a kiosk's loop in virtual time hosting its station over an in-memory
/// broker, commands published by a coach from the fuzzer's bytes. Nothing may trap, and unless
/// a message is a legitimate command (one the parser accepts, on a command topic, not
/// retained), the kiosk must be exactly as it would be without it: a running rest keeps its
/// deadline and the display its digits; an idle station stays idle.
///
/// The input: one flags byte, then up to `maxMessages` payloads separated by 0x1E. Flags: bit 0
/// sends to `all/cmd` instead of the station's own topic; bit 1 publishes retained, before the
/// station connects (as a retained command waits at a broker for every restart); bit 2 leaves
/// the kiosk idle instead of resting; bit 3 publishes at QoS 1; bit 4 restarts the broker
/// (down at 12 s, up at 13 s, its retained messages kept), so the station reconnects and
/// subscribes again. The loop must not spin either: a message that is no command adds only a
/// few wake-ups, and no run wakes it more than 50 times a second.
enum FuzzStation {
    static let maxMessages = 8
    static let separator: UInt8 = 0x1E
    /// When the rest is started by a hand (t 1 s), the coach's messages arrive (from 5 s, every
    /// 0.5 s) and the kiosk is compared (20 s).
    static let restStart: Duration = .seconds(1)
    static let firstMessage: Duration = .seconds(5)
    static let comparedAt: Duration = .seconds(20)
    static let brokerDown: Duration = .seconds(12)
    static let brokerUp: Duration = .seconds(13)
    /// Loop wake-ups each message may add (its delivery, its answers, a display it changes).
    static let wakeupsPerMessage = 20
    /// Wake-ups no run may exceed (50 a second).
    static let maximumWakeups = 1000

    /// The defaults and a `[fleet]`, built rather than parsed (TOMLKit leaks what it parses, which
    /// would stop LeakSanitizer at the first input, and a station that leaks must not hide).
    static let configuration: GymTimerConfiguration? = GymTimerConfiguration(
        fleet: FleetSettings(broker: .init(host: "gym.local", port: 1883, tls: false), station: "rack-1", homeAssistant: false))

    /// What the fuzzer's bytes ask for.
    struct Input {
        var everyStation = false
        var retained = false
        var idle = false
        var qos = 0
        var brokerRestarts = false
        var payloads: [[UInt8]] = []

        init(_ bytes: [UInt8]) {
            guard let flags = bytes.first else { return }
            everyStation = flags & 1 != 0
            retained = flags & 2 != 0
            idle = flags & 4 != 0
            qos = flags & 8 != 0 ? 1 : 0
            brokerRestarts = flags & 16 != 0
            payloads = bytes.dropFirst().split(separator: separator, omittingEmptySubsequences: false).prefix(maxMessages).map(Array.init)
            if bytes.count == 1 { payloads = [] }
        }

        init(idle: Bool, brokerRestarts: Bool) {
            self.idle = idle
            self.brokerRestarts = brokerRestarts
        }

        /// What the kiosk is compared with: the same run without messages.
        var baseline: Baseline { Baseline(idle: idle, brokerRestarts: brokerRestarts) }

        /// Whether some message is a command the station may obey, and so may change the kiosk.
        var legitimate: Bool {
            !retained && payloads.contains { if case .success = FleetCommand.parse($0) { true } else { false } }
        }
    }

    /// What a run left: the kiosk, what its display shows, the events the station published.
    struct Outcome {
        var kiosk: Kiosk
        var display: String
        var events: [String]
        var wakeups: Int
    }

    /// The runs without messages the others are compared with.
    struct Baseline: Hashable, CaseIterable {
        var idle: Bool
        var brokerRestarts: Bool

        static let allCases = [false, true].flatMap { idle in [false, true].map { Baseline(idle: idle, brokerRestarts: $0) } }
    }

    /// Runs the station through `input` to `comparedAt`.
    static func run(_ input: Input) -> Outcome? {
        guard let configuration else { return nil }
        let clock = VirtualClock()
        let broker = InMemoryBroker(now: { clock.now.offset })
        let station = VirtualStation(configuration: configuration, clock: clock, broker: broker, log: { _ in })
        guard let coach = try? broker.factory(.init(clientID: "coach", host: "gym.local", port: 1883, keepAlive: 0)),
              (try? coach.connect()) != nil else { return nil }
        let topic = input.everyStation ? "gymtimer/all/cmd" : "gymtimer/rack-1/cmd"
        if input.retained {
            for payload in input.payloads {
                _ = try? coach.publish(MQTTMessage(topic: topic, payload: payload, qos: input.qos, retain: true))
            }
        }
        if !input.idle { station.inputs.schedule([InputGestures.click("start", at: restStart)]) }
        do {
            try station.run(until: firstMessage)
            if !input.retained {
                for payload in input.payloads {
                    _ = try? coach.publish(MQTTMessage(topic: topic, payload: payload, qos: input.qos))
                    try station.run(for: .milliseconds(500))
                }
            }
            if input.brokerRestarts {
                try station.run(until: brokerDown)
                broker.goDown()
                try station.run(until: brokerUp)
                broker.comeUp()
            }
            try station.run(until: comparedAt)
        } catch {
            preconditionFailure("the loop failed: \(error)")
        }
        let events = broker.published.filter { $0.topic == "gymtimer/rack-1/event" }.compactMap(eventName)
        return Outcome(
            kiosk: station.runtime.kiosk, display: station.runtime.shownDisplay?.text ?? "", events: events,
            wakeups: station.runtime.wakeups)
    }

    /// `name` or `error(kind)` of a published event.
    static func eventName(_ message: MQTTMessage) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(message.payload)) as? [String: Any],
              let name = object["event"] as? String else { return nil }
        if let kind = object["kind"] as? String { return "\(name)(\(kind))" }
        if let command = object["do"] as? String { return "\(name)(\(command))" }
        return name
    }

    /// The kiosk undisturbed: resting from `restStart`, or idle.
    static let baselines: [Baseline: Outcome] = Dictionary(uniqueKeysWithValues: Baseline.allCases.compactMap { baseline in
        run(Input(idle: baseline.idle, brokerRestarts: baseline.brokerRestarts)).map { (baseline, $0) }
    })

    static func check(_ bytes: [UInt8]) {
        _ = outcome(bytes)
    }

    /// Runs `bytes` and checks it; returns what happened, for the replay test's table.
    static func outcome(_ bytes: [UInt8]) -> String {
        let input = Input(bytes)
        guard let outcome = run(input), let baseline = baselines[input.baseline] else { return "no station" }
        // Whatever the commands start, the loop never spins: a countdown wakes it a few times a second.
        precondition(outcome.wakeups <= maximumWakeups, "the loop woke \(outcome.wakeups) times in \(comparedAt)")
        if !input.legitimate {
            precondition(
                outcome.wakeups <= baseline.wakeups + wakeupsPerMessage * input.payloads.count,
                "the loop woke \(outcome.wakeups) times (\(baseline.wakeups) without the messages)")
            precondition(outcome.kiosk == baseline.kiosk, "a message that is no command changed the kiosk: \(outcome.kiosk.mode)")
            precondition(outcome.display == baseline.display, "a message that is no command changed the display: \(outcome.display)")
        }
        let report = FleetStateReport(outcome.kiosk)
        let seen = outcome.events.filter { $0 != "phase" }
        return "\(input.legitimate ? "commanded" : "undisturbed"): \(report.mode) \(report.phase), shows \"\(outcome.display)\""
            + (input.brokerRestarts ? ", after a broker restart" : "")
            + (seen.isEmpty ? "" : "; events " + seen.joined(separator: " "))
    }
}

/// One input, as libFuzzer gives it (and the corpus replay test).
public func fuzzStationOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzStation.check(FuzzHarness.bytes(data, size))
    return 0
}

/// What the station made of one input (the replay test's table).
public func fuzzStationOutcome(_ bytes: [UInt8]) -> String { FuzzStation.outcome(bytes) }

#if FUZZING
/// libFuzzer's entry point; only in the fuzzing build, as every fuzz target defines it and the
/// test build links them all.
@_cdecl("LLVMFuzzerTestOneInput")
public func llvmFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzStationOneInput(data, size)
}

/// SwiftPM links an executable's entry point under this name, so with `-sanitize=fuzzer` it
/// hands control to libFuzzer's driver.
@_cdecl("FuzzStation_main")
public func fuzzStationMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzHarness.runDriver(argc, argv, fuzzStationOneInput)
}
#else
/// Without libFuzzer: replays the files given as arguments (a corpus or a crash input).
@main
enum FuzzStationReplay {
    static func main() { FuzzHarness.replay(CommandLine.arguments, FuzzStation.check) }
}
#endif
