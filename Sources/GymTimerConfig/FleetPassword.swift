import Foundation

/// The broker password from `password_file` (fleet.md: never the password itself in the
/// config): the file's first line, so an editor's trailing newline is not part of it, nor the
/// carriage return of a file written on Windows (CRLF line ends). Here beside the config's other
/// fleet files (`FleetFiles`), so the kiosk, `gymtimer` and `gymtimer-console` read it alike.
public enum FleetPassword {
    /// Why the password file cannot be read, saying what it should hold.
    public struct Unreadable: Error, Hashable, Sendable, CustomStringConvertible {
        public let path: String
        public let detail: String

        public var description: String {
            "MQTT password file \(path): \(detail) (it holds the password on its first line, readable by the gymtimer user)"
        }
    }

    public static func read(from path: String) throws(Unreadable) -> String {
        if let why = FleetFiles.whyUnreadable(path) { throw Unreadable(path: path, detail: why) }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw Unreadable(path: path, detail: "is not UTF-8 text")
        }
        let line = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).first ?? ""
        return String(line.hasSuffix("\r") ? line.dropLast() : line)
    }
}
