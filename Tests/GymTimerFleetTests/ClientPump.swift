import Foundation
import Glibc
import GymTimerMQTT

/// Drives clients the way the kiosk's loop does (poll on their sockets, read, write,
/// maintain) until `done` holds for the events so far, or 5 s pass.
func pump(_ clients: [MQTTClient], timeout: Double = 5, until done: ([Int: [MQTTEvent]]) -> Bool) -> [Int: [MQTTEvent]] {
    var events: [Int: [MQTTEvent]] = [:]
    let deadline = Date().addingTimeInterval(timeout)
    while !done(events), Date() < deadline {
        var fds = clients.map { pollfd(fd: $0.socket, events: Int16(POLLIN) | ($0.wantsWrite ? Int16(POLLOUT) : 0), revents: 0) }
        _ = poll(&fds, nfds_t(fds.count), 20)
        for (index, client) in clients.enumerated() {
            var new = client.takeEvents()
            if fds[index].revents & Int16(POLLIN) != 0 { new += client.readable() }
            if fds[index].revents & Int16(POLLOUT) != 0 || client.wantsWrite { new += client.writable() }
            new += client.maintain()
            events[index, default: []] += new
        }
    }
    return events
}

/// An observer on the broker at `port`, connected and subscribed to `topics`.
func observer(port: Int, _ topics: [String]) throws -> MQTTClient {
    let client = try MQTTClient(.init(clientID: "observer-\(UUID().uuidString.prefix(8))", host: "127.0.0.1", port: port))
    try client.connect()
    _ = pump([client]) { $0[0]?.contains(.connected) == true }
    for topic in topics { try client.subscribe(topic, qos: 1) }
    return client
}
