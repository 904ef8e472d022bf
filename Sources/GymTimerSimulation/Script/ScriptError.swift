/// A script that cannot be run, with the line that is wrong.
public struct ScriptError: Error, Hashable, Sendable, CustomStringConvertible {
    public var line: Int
    public var message: String

    public init(line: Int, _ message: String) {
        self.line = line
        self.message = message
    }

    public var description: String { line > 0 ? "script line \(line): \(message)" : "script: \(message)" }
}
