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

/// An observer on the broker at `port`, connected and subscribed to `topics` (the SUBSCRIBE
/// sent; what comes of it, retained messages included, is for the caller's pumps).
func observer(port: Int, _ topics: [String]) throws -> MQTTClient {
    let client = try MQTTClient(.init(clientID: "observer-\(UUID().uuidString.prefix(8))", host: "127.0.0.1", port: port))
    try client.connect()
    _ = pump([client]) { $0[0]?.contains(.connected) == true }
    for topic in topics { try client.subscribe(topic, qos: 1) }
    return client
}

/// Subscribes `client` to `topics` and pumps until the broker has granted every one (or 10 s):
/// a message published from now on reaches it. Says whether all were granted; use it where no
/// retained message is expected (one coming with the grant would be taken here).
@discardableResult
func subscribed(_ client: MQTTClient, _ topics: [String]) throws -> Bool {
    let mids = try topics.map { try client.subscribe($0, qos: 1) }
    let granted = { (events: [Int: [MQTTEvent]]) in mids.allSatisfy { (events[0] ?? []).contains(.subscribed(mid: $0)) } }
    return granted(pump([client], timeout: 10, until: granted))
}
