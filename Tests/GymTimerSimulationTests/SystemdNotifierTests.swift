import Foundation
import GymTimerCore
import Testing
@testable import GymTimerKiosk

/// sd_notify against a real Unix datagram socket, as systemd would listen.
@Suite struct SystemdNotifierTests {
    /// A bound datagram socket in a temporary directory; `receive` reads one message.
    final class Listener {
        let path: String
        let fd: Int32

        init() {
            path = NSTemporaryDirectory() + "gymtimer-notify-\(UUID().uuidString.prefix(8))"
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
        }

        func receive() -> String? {
            var buffer = [UInt8](repeating: 0, count: 512)
            let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            return n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self) : nil
        }

        deinit {
            close(fd)
            unlink(path)
        }
    }

    @Test func readyStatusAndWatchdogArriveAsDatagrams() {
        let listener = Listener()
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": listener.path, "WATCHDOG_USEC": "30000000"])
        #expect(notifier.isEnabled)
        #expect(notifier.watchdogInterval == .seconds(30))
        notifier.ready(status: "rest mode, idle")
        #expect(listener.receive() == "READY=1\nSTATUS=rest mode, idle")
        notifier.watchdog()
        #expect(listener.receive() == "WATCHDOG=1")
        notifier.stopping()
        #expect(listener.receive() == "STOPPING=1")
    }

    @Test func withoutSystemdNothingIsSent() {
        let notifier = SystemdNotifier(environment: [:])
        #expect(!notifier.isEnabled)
        #expect(notifier.watchdogInterval == nil)
        #expect(notifier.send("READY=1") == false)
    }

    @Test func aWatchdogMeantForAnotherProcessIsIgnored() {
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": "/nonexistent", "WATCHDOG_USEC": "1000", "WATCHDOG_PID": "1"])
        #expect(notifier.watchdogInterval == nil)
    }

    @Test func watchdogPingsAtHalfTheInterval() {
        var pings: [Moment] = []
        var now = Moment.origin
        let pinger = WatchdogPinger(interval: .seconds(30), start: now) { pings.append(now) }
        while let due = pinger.nextDeadline, due <= Moment(.seconds(60)) {
            now = due
            pinger.fire(at: now)
        }
        #expect(pings == [.origin, Moment(.seconds(15)), Moment(.seconds(30)), Moment(.seconds(45)), Moment(.seconds(60))])
    }
}
