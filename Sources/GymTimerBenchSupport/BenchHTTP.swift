import Foundation
import Glibc
import GymTimerHAL
import SystemPackage

/// A minimal HTTP/1.1 client over a loopback socket for the console's benchmark: one request
/// per connection (`Connection: close`), as a browser on the console's own page sends it
/// (`Origin`, the session cookie, the page's token). Not a general client: no TLS, no chunking.
public struct BenchHTTP: Sendable {
    public var port: Int

    public init(port: Int) {
        self.port = port
    }

    public struct Response: Sendable {
        public var status: Int
        public var headers: [(String, String)]
        public var body: String

        public func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name }?.1 }
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public func request(
        _ method: String, _ path: String, body: String = "", type: String? = nil, cookie: String? = nil, token: String? = nil,
        waiting seconds: Int = 5
    ) throws -> Response {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(Errno.last.text)") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(description: "connect: \(Errno.last.text)") }
        let host = "127.0.0.1:\(port)"
        var text = "\(method) \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\nOrigin: http://\(host)\r\n"
        if let type { text += "Content-Type: \(type)\r\n" }
        if let cookie { text += "Cookie: \(cookie)\r\n" }
        if let token { text += "X-CSRF-Token: \(token)\r\n" }
        text += "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { throw Failure(description: "write: \(Errno.last.text)") }
            sent += n
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while received.count < 4 << 20 {
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { break }
            received += buffer[0..<n]
        }
        let whole = String(decoding: received, as: UTF8.self)
        guard let split = whole.range(of: "\r\n\r\n") else { throw Failure(description: "no HTTP response") }
        let lines = whole[..<split.lowerBound].split(separator: "\r\n")
        guard let first = lines.first, let status = Int(first.split(separator: " ").dropFirst().first ?? "") else {
            throw Failure(description: "no HTTP status line")
        }
        let headers = lines.dropFirst().compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return Response(status: status, headers: headers, body: String(whole[split.upperBound...]))
    }

    /// The page's anti-forgery token (its `<meta name="csrf" content="…">`).
    public static func csrf(in page: String) -> String? {
        guard let start = page.range(of: #"<meta name="csrf" content=""#) else { return nil }
        let rest = page[start.upperBound...]
        guard let end = rest.firstIndex(of: "\""), end > rest.startIndex else { return nil }
        return String(rest[..<end])
    }
}
