#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GymTimerDrivers
import GymTimerFleet
import GymTimerHistory
import GymTimerMQTT

/// `gymtimer collect` (fleet.md): a durable subscriber (persistent session, QoS 1) that stores
/// every station's workout records in one history database, each once (the record's `id` is
/// unique in the gym; a retry's repeat is skipped), with its `station`. Runs one poll loop of
/// its own; reconnects with back-off while the broker is away.
public final class FleetCollector {
    public let store: HistoryStore
    private let client: MQTTClient
    private let prefix: String
    private let log: (String) -> Void
    private var connected = false
    private var connecting = false
    private var reconnectAt = ContinuousClock.now
    private var backoff = ReconnectBackoff()
    private var lastMaintain = ContinuousClock.now
    private var attempts = 0
    /// Records stored since the start (repeats not counted).
    public private(set) var stored = 0

    /// Collects into the history database at `database` (created if missing) from the broker in
    /// `options` (give it a fixed client id and `cleanSession: false`, so records sent while the
    /// collector is down wait at the broker).
    public init(options: MQTTClient.Options, prefix: String, database: String, log: @escaping (String) -> Void) throws {
        store = try HistoryStore(path: database, faults: FaultLog(sink: log), timeZone: .current)
        client = try MQTTClient(options)
        self.prefix = prefix
        self.log = log
    }

    /// Waits up to `timeout` for the broker and handles what came; call in a loop.
    public func step(timeout: Duration) {
        let clock = ContinuousClock()
        if !connected && !connecting && clock.now >= reconnectAt { connect() }
        var deadline = clock.now + timeout
        if !connected && !connecting { deadline = min(deadline, reconnectAt) }
        if connected || connecting { deadline = min(deadline, lastMaintain + client.keepAliveInterval) }
        var fds: [pollfd] = []
        if client.socket >= 0 {
            fds.append(pollfd(fd: client.socket, events: Int16(POLLIN) | (client.wantsWrite ? Int16(POLLOUT) : 0), revents: 0))
        }
        let wait = max(.zero, clock.now.duration(to: deadline))
        let milliseconds = Int32(min(Int64(60_000), (wait.nanoseconds + 999_999) / 1_000_000))
        _ = poll(&fds, nfds_t(fds.count), milliseconds)
        var events = client.takeEvents()
        if let revents = fds.first?.revents {
            if revents & Int16(POLLIN | POLLERR | POLLHUP) != 0 { events += client.readable() }
            if revents & Int16(POLLOUT) != 0 || client.wantsWrite { events += client.writable() }
        }
        if (connected || connecting) && clock.now >= lastMaintain + client.keepAliveInterval {
            lastMaintain = clock.now
            events += client.maintain()
        }
        handle(events)
    }

    /// Runs until `shouldStop` says so.
    public func run(shouldStop: () -> Bool) {
        while !shouldStop() { step(timeout: .seconds(1)) }
        client.disconnect()
    }

    private func connect() {
        do {
            if attempts == 0 { try client.connect() } else { try client.reconnect() }
            attempts += 1
            connecting = true
            lastMaintain = ContinuousClock.now
        } catch {
            attempts += 1
            lost("\(error)")
        }
    }

    private func lost(_ reason: String) {
        let (wait, report) = backoff.lost()
        if report { log("collect: broker \(client.options.broker) unreachable: \(reason) (retrying with back-off)") }
        connected = false
        connecting = false
        reconnectAt = ContinuousClock.now + wait
    }

    private func handle(_ events: [MQTTEvent]) {
        for event in events {
            switch event {
            case .connected:
                connected = true
                connecting = false
                if backoff.connected() { log("collect: connected to \(client.options.broker)") }
                do {
                    try client.subscribe(FleetTopics.everyStation(prefix: prefix).workout, qos: 1)
                } catch {
                    lost("\(error)")
                }
            case .refused(let reason): lost("refused: \(reason)")
            case .disconnected(let reason): lost(reason)
            case .delivered: break
            case .message(let message):
                guard let station = FleetTopics.station(in: message.topic, prefix: prefix) else { continue }
                guard let workout = FleetWorkoutMessage.decode(message.payload, station: station) else {
                    log("collect: \(message.topic): not a workout record, skipped")
                    continue
                }
                do {
                    stored += try store.store([workout])
                } catch {
                    log("collect: \(error)")
                }
            }
        }
    }
}
