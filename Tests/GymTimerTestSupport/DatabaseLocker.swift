import Foundation

/// Another process holding an exclusive lock on an SQLite database (as a backup tool or a
/// stuck `sqlite3` shell would) until `release()`.
public final class DatabaseLocker {
    private let process = Process()
    private let input = Pipe()

    public init(path: String) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            "import sqlite3, sys; c = sqlite3.connect(sys.argv[1], isolation_level=None); c.execute('BEGIN EXCLUSIVE'); print('locked', flush=True); sys.stdin.read()",
            path,
        ]
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        // Wait until the lock is taken.
        _ = output.fileHandleForReading.availableData
    }

    /// Ends the other process, and with it the lock.
    public func release() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    deinit { release() }
}
