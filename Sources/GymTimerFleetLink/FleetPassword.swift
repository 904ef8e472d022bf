import Foundation
import GymTimerConfig

/// The broker password from `password_file` (fleet.md: never the password itself in the
/// config): the file's first line, so an editor's trailing newline is not part of it, nor the
/// carriage return of a file written on Windows (CRLF line ends).
public enum FleetPassword {
    public static func read(from path: String) throws(FleetLinkError) -> String {
        if let why = FleetFiles.whyUnreadable(path) { throw .passwordFile(path: path, detail: why) }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw .passwordFile(path: path, detail: "is not UTF-8 text")
        }
        let line = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).first ?? ""
        return String(line.hasSuffix("\r") ? line.dropLast() : line)
    }
}
