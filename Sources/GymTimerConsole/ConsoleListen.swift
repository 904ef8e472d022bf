/// The address the console serves on, from `--listen HOST:PORT` (`[::1]:8080` for IPv6). The
/// server binds that address only: `0.0.0.0` must be asked for by name.
public struct ConsoleListen: Hashable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// `text` as HOST:PORT, or why not in one line.
    public static func parse(_ text: String) -> Result<ConsoleListen, ConsolePIN.Problem> {
        let usage = "--listen \(text): give HOST:PORT, such as 192.168.1.10:8080, 127.0.0.1:8080 or [::1]:8080"
        var host: Substring
        var portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                return .failure(.init(description: usage))
            }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else {
                return .failure(.init(description: usage))
            }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard !host.isEmpty, host.count <= 253,
              host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == ":") })
        else {
            return .failure(.init(description: usage))
        }
        guard let port = Int(portText), (1...65535).contains(port) else {
            return .failure(.init(description: "--listen \(text): the port must be a number from 1 to 65535"))
        }
        return .success(ConsoleListen(host: String(host), port: port))
    }
}
