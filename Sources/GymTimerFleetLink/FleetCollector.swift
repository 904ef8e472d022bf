#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GymTimerCore
import GymTimerDrivers
import GymTimerFleet
import GymTimerHAL
import GymTimerHistory
import GymTimerMQTT

/// `gymtimer collect` (fleet.md): a durable subscriber (persistent session, QoS 1) that stores
/// every station's workout records in one history database, each once (the record's `id` is
/// unique in the gym; a retry's repeat is skipped), with its `station`. A record is
/// acknowledged to the broker only once it is stored: the client defers its writes
/// (`MQTTClient.Options.deferWrites`), and a batch that cannot be stored (disk full, database
/// locked) drops the connection unacknowledged, so the broker sends it again after the
/// back-off. Runs one poll loop of its own on the connection's life cycle (`FleetConnection`).
public final class FleetCollector {
    public let store: HistoryStore
    private let connection: FleetConnection
    private let prefix: String
    private let log: (String) -> Void
    /// The collector's timeline (the one its deadlines are on).
    private let now: () -> Moment
    /// Records stored since the start (repeats not counted).
    public private(set) var stored = 0
    /// True while connected with the subscription granted: a record sent from now on reaches
    /// this collector (and, with its persistent session, one sent while it is away waits for it).
    public var isSubscribed: Bool { connection.isConnected && granted }
    /// The id of the subscription asked for on this connection, until the broker grants it.
    private var subscription: Int32?
    private var granted = false
    /// Whether a subscription was ever granted (said once in the log).
    private var everGranted = false

    /// Collects into the history database at `database` (created if missing) from the broker in
    /// `options` (give it a fixed client id and `cleanSession: false`, so records sent while the
    /// collector is down wait at the broker; its writes are deferred here whatever `options` say).
    /// `transport` makes the client (the real one, or an in-memory broker's), `now` is the
    /// timeline its deadlines are on (nil: the monotonic clock's, for `run`).
    public init(
        options: MQTTClient.Options, prefix: String, database: String, transport: MQTTTransportFactory = MQTTClient.factory,
        now: (() -> Moment)? = nil, log: @escaping (String) -> Void
    ) throws {
        store = try HistoryStore(path: database, faults: FaultLog(sink: log), timeZone: .current)
        var options = options
        options.deferWrites = true
        let client = try transport(options)
        let origin = ContinuousClock.now
        let now = now ?? { Moment(origin.duration(to: .now)) }
        self.now = now
        connection = FleetConnection(
            client: client, name: "collect", broker: options.broker, whileAway: "retrying with back-off", now: now, log: log)
        self.prefix = prefix
        self.log = log
    }

    /// The current moment on the collector's timeline (the one its deadlines are on).
    var moment: Moment { now() }

    /// Does what fell due (connecting first, so a new connection's CONNACK can come in the
    /// same wait), then waits up to `timeout` for the broker or the connection's next deadline
    /// and handles what came; call in a loop.
    public func step(timeout: Duration) {
        let now = moment
        if connection.nextDeadline <= now { handle(connection.fire(at: now)) }
        let revents = wait(until: min(connection.nextDeadline, now + timeout))
        if revents != 0 { handle(connection.serve(revents: revents)) }
    }

    /// When the connection next needs `fireConnection(at:)` (see `TimedDriver`).
    var connectionDeadline: Moment { connection.nextDeadline }

    /// Does what fell due on the connection at `now` and handles what came of it.
    func fireConnection(at now: Moment) { handle(connection.fire(at: now)) }

    /// Runs until `shouldStop` says so.
    public func run(shouldStop: () -> Bool) {
        while !shouldStop() { step(timeout: .seconds(1)) }
        connection.disconnect()
    }

    /// Sleeps in poll(2) on the connection's socket until it is ready or `deadline` comes;
    /// returns what poll said of it (0: nothing, or no socket).
    private func wait(until deadline: Moment) -> Int16 {
        var fds = connection.pollRequest.map { [$0] } ?? []
        do {
            _ = try SystemCall.poll(&fds, timeout: deadline - moment, device: "the broker's connection")
        } catch {
            // poll itself failed (EINVAL, ENOMEM): nothing was seen; the next step tries again.
            log("collect: \(error)")
            return 0
        }
        return fds.first?.revents ?? 0
    }

    /// Stores the records among `events` in one transaction, then acknowledges them; a batch
    /// that cannot be stored is not acknowledged (the connection drops, the broker resends).
    private func handle(_ events: [FleetConnection.Event]) {
        var records: [StoredWorkout] = []
        for event in events {
            switch event {
            case .connected:
                granted = false
                do {
                    subscription = try connection.client.subscribe(FleetTopics.everyStation(prefix: prefix).workout, qos: 1)
                } catch {
                    connection.lose("\(error)")
                    return
                }
            case .subscribed(let mid) where mid == subscription:
                granted = true
                subscription = nil
                if !everGranted {
                    everGranted = true
                    log("collect: subscribed to \(FleetTopics.everyStation(prefix: prefix).workout); storing every station's records")
                }
            case .subscribed, .delivered: break
            case .message(let message):
                guard let station = FleetTopics.station(in: message.topic, prefix: prefix) else { continue }
                guard let workout = FleetWorkoutMessage.decode(message.payload, station: station) else {
                    log("collect: \(message.topic): not a workout record, skipped")
                    continue
                }
                records.append(workout)
            }
        }
        if !records.isEmpty {
            do {
                stored += try store.store(records)
            } catch {
                connection.drop("cannot store \(records.count) record(s): \(error)")
                return
            }
        }
        connection.acknowledge()
    }
}
