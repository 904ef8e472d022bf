#if canImport(Glibc)
import Glibc
#endif

extension ConsoleHosts {
    /// The hosts of a console on `listen` on this machine: its interfaces' addresses (for a
    /// wildcard `--listen`) and its host name, beside the owner's `extraNames`.
    public static func onThisMachine(listen: ConsoleListen, extraNames: [String]) -> ConsoleHosts {
        ConsoleHosts(listen: listen, extraNames: extraNames, machineAddresses: interfaceAddresses(), hostname: hostName())
    }

    /// Every IPv4 and IPv6 address of this machine's interfaces, as text.
    static func interfaceAddresses() -> [String] {
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0 else { return [] }
        defer { freeifaddrs(first) }
        var addresses: [String] = []
        var next = first
        while let entry = next {
            defer { next = entry.pointee.ifa_next }
            guard let address = entry.pointee.ifa_addr else { continue }
            let family = Int32(address.pointee.sa_family)
            guard family == AF_INET || family == AF_INET6 else { continue }
            var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            let length = socklen_t(family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
            guard getnameinfo(address, length, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0 else { continue }
            // A link-local IPv6 address carries its interface (fe80::1%eth0): a browser's Host has none.
            let numeric = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            addresses.append(String(numeric.split(separator: "%").first ?? ""))
        }
        return addresses
    }

    /// This machine's host name, if it has one.
    static func hostName() -> String? {
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count) == 0 else { return nil }
        let text = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.isEmpty ? nil : text
    }
}
