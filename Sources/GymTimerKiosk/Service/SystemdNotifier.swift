import Foundation

/// Talks to systemd's service manager without libsystemd: `sd_notify` is one datagram of
/// `KEY=VALUE` lines to the Unix socket named in `$NOTIFY_SOCKET` (a path, or `@name` for the
/// abstract namespace). Outside systemd the variable is unset and every call does nothing.
public final class SystemdNotifier {
    private let socketPath: String?
    /// The watchdog interval systemd expects pings within (`$WATCHDOG_USEC`), if enabled.
    public let watchdogInterval: Duration?

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        socketPath = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        let pidMatches = environment["WATCHDOG_PID"].map { Int32($0) == getpid() } ?? true
        if pidMatches, let usec = environment["WATCHDOG_USEC"].flatMap(Int64.init), usec > 0 {
            watchdogInterval = .microseconds(usec)
        } else {
            watchdogInterval = nil
        }
    }

    /// Whether a service manager is listening.
    public var isEnabled: Bool { socketPath != nil }

    /// The kiosk is up: hardware opened, first outputs shown.
    public func ready(status: String) { send("READY=1\nSTATUS=\(status)") }

    /// A line `systemctl status` shows, e.g. the current mode.
    public func status(_ text: String) { send("STATUS=\(text)") }

    /// The loop is alive.
    public func watchdog() { send("WATCHDOG=1") }

    /// Shutting down on purpose.
    public func stopping() { send("STOPPING=1") }

    /// Sends one notification; returns false when there is no manager or sending failed
    /// (which must never stop the kiosk).
    @discardableResult
    public func send(_ message: String) -> Bool {
        guard let socketPath else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var pathBytes = Array(socketPath.utf8)
        if pathBytes.first == UInt8(ascii: "@") { pathBytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard pathBytes.count < capacity else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: pathBytes)
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + pathBytes.count + (pathBytes.first == 0 ? 0 : 1))
        let bytes = Array(message.utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                sendto(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL), socketAddress, length)
            }
        }
        return sent == bytes.count
    }
}
