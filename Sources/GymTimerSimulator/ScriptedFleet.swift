import Foundation
import GymTimerConfig
import GymTimerCore
import GymTimerFleet
import GymTimerMQTT
import GymTimerRuntime
import GymTimerSimulation
import GymTimerStationLink

/// The gym's network around a scripted run whose config has a `[fleet]`: an in-memory broker
/// on the run's virtual clock, the station every controller of the run hosts in its loop (as
/// every kiosk does, `KioskFleet`), and a coach who publishes what the script's `fleet` lines
/// say. What the station sends on its own topics is written to the trace as `fleet` records,
/// in time order with the devices', so a scenario can check a hostile message, a retained
/// command across restarts, a scheduled start or a broker that goes away, byte for byte the
/// same on every run.
final class ScriptedFleet {
    let broker: InMemoryBroker
    private let configuration: GymTimerConfiguration
    private let topics: FleetTopics
    private let coach: any MQTTTransport
    private let historyPath: String
    private let now: () -> Moment
    private let wall: WallClock
    private let trace: TraceRecorder
    private let log: (String) -> Void
    /// The run's card key: a script's `fleet card UID` is the gym's word on the card's pseudonym,
    /// as the gym's roster holds it; nil (the config's key cannot be read), those lines are refused.
    private let cardKey: CardKey?
    /// What the gym answers when the station asks for a card (`fleet card` lines): the
    /// collector's part, played by the coach's client.
    private var answers: [CardID: String] = [:]
    /// How many of the broker's messages the trace has been told about.
    private var reported = 0
    /// The station of the controller running now.
    private(set) var current: KioskFleet?

    /// The fleet of `configuration` (nil without a `[fleet]`): the station's outbox beside the
    /// history at `historyPath`, its timeline `now`, its wall clock `wall`.
    init?(
        configuration: GymTimerConfiguration, historyPath: String, clock: VirtualClock,
        now: @escaping () -> Moment, cardKey: CardKey?, wall: WallClock, trace: TraceRecorder, log: @escaping (String) -> Void
    ) {
        self.cardKey = cardKey
        guard let settings = configuration.fleet else { return nil }
        self.configuration = configuration
        topics = FleetTopics(prefix: settings.topicPrefix, station: settings.station)
        broker = InMemoryBroker(now: { clock.now.offset })
        self.historyPath = historyPath
        self.now = now
        self.wall = wall
        self.trace = trace
        self.log = log
        // The coach's client: it never subscribes and never times out (keep-alive 0).
        guard let coach = try? broker.factory(
            .init(clientID: "gymtimer-script-coach", host: settings.broker.host, port: settings.broker.port, keepAlive: 0))
        else { return nil }
        self.coach = coach
        try? coach.connect()
        _ = try? coach.subscribe(topics.cardAsk, qos: 1)
    }

    /// The station for a controller being built. The one before it, if any, dies with its
    /// process: its link is cut uncleanly, so the broker publishes its will (`offline`).
    func station() -> KioskFleet {
        if let old = current?.station { broker.sever(FleetStation.clientID(of: old.settings.station)) }
        let fleet = KioskFleet(
            configuration, historyPath: historyPath, now: now, wall: wall,
            transport: broker.factory, startLead: .zero, log: log)
        current = fleet
        return fleet
    }

    /// Carries out a script line's network action; a message the broker cannot take (it is
    /// down) is one line on the log, as a coach's tool would say.
    func perform(_ action: SimulationScript.FleetAction, line: Int) {
        switch action {
        case .brokerDown: broker.goDown()
        case .brokerUp: broker.comeUp()
        case .message(let payload, let everyStation, let retained):
            send(MQTTMessage(topic: everyStation ? topics.fleetCommand : topics.command, text: payload, qos: 1, retain: retained), line: line)
        case .classRecord(let payload):
            send(MQTTMessage(topic: topics.classRecord, text: payload, qos: 1, retain: true), line: line)
        case .athleteCard(let uid, let payload):
            guard let cardKey else {
                log("script line \(line): fleet card needs the card key, which cannot be read")
                break
            }
            answers[cardKey.pseudonym(of: uid)] = payload.isEmpty ? "null" : payload
        }
        report()
    }

    /// The gym answers the station's card asks since the last look: a card a `fleet card` line
    /// named gets that line's payload as its athlete, any other the gym does not know (null).
    func answerAsks() {
        for case .message(let message) in coach.takeEvents() where message.topic == topics.cardAsk {
            guard let ask = FleetCardAsk.parse(message.payload) else { continue }
            let athlete = answers[ask.card] ?? "null"
            _ = try? coach.publish(MQTTMessage(topic: topics.card, text: #"{"athlete":\#(athlete),"card":"\#(ask.card.hex)"}"#, qos: 1))
        }
    }

    /// Publishes `message` as the coach's tool; one the broker cannot take (it is down) is one
    /// line on the log.
    private func send(_ message: MQTTMessage, line: Int) {
        do {
            _ = try coach.publish(message)
        } catch {
            // Not connected (the broker went down since): connect again, then send.
            do {
                try coach.connect()
                _ = try coach.publish(message)
            } catch {
                log("script line \(line): the message was not sent: \(error)")
            }
        }
        answerAsks()
    }

    /// Writes to the trace what the broker took for the station's topics since the last call
    /// (its status, state, events, card asks and records, and its will); commands, class records
    /// and the gym's answers about cards excepted: those are the script's own lines.
    func report() {
        answerAsks()
        let published = broker.published
        guard reported < published.count else { return }
        let base = topics.prefix + "/" + topics.station + "/"
        for message in published[reported...] where message.topic.hasPrefix(base) && ![topics.command, topics.classRecord, topics.card].contains(message.topic) {
            let payload = String(decoding: message.payload, as: UTF8.self)
            trace.fleet(topic: String(message.topic.dropFirst(base.count)), payload: payload, isJSON: JSONValue.parse(message.payload) != nil)
        }
        reported = published.count
    }

    /// The run is over: the station says `offline` and disconnects, as the kiosk does when stopped.
    func stop() {
        current?.stop()
        report()
    }
}
