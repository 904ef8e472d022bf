import Foundation

/// The broker password from `password_file` (fleet.md: never the password itself in the
/// config): the file's first line, so an editor's trailing newline is not part of it.
public enum FleetPassword {
    public static func read(from path: String) throws(FleetLinkError) -> String {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw .passwordFile(path: path, detail: "cannot be read")
        }
        return String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
    }
}
