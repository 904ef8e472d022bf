import Foundation
import GymTimerConfig
#if canImport(Glibc)
import Glibc
#endif

/// A host name's IPv4 and IPv6 addresses through the system's resolver (getaddrinfo: /etc/hosts,
/// DNS, mDNS through nss), as the kiosk's MQTT client will look it up.
enum HostAddresses {
    static func resolve(_ host: String) -> Result<[String], UnitNetworkError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0 else {
            return .failure(.unresolvable(host: host, reason: String(cString: gai_strerror(status))))
        }
        defer { freeaddrinfo(list) }
        var addresses: [String] = []
        var next = list
        while let entry = next {
            var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            if let address = entry.pointee.ai_addr,
               getnameinfo(address, entry.pointee.ai_addrlen, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST) == 0 {
                addresses.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            }
            next = entry.pointee.ai_next
        }
        return .success(addresses)
    }
}
