#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Buffered writing to stdout: a day-long trace is many thousand lines.
public final class StandardOutput {
    private var buffer: [UInt8] = []

    public init() {}

    public func writeLine(_ line: String) {
        buffer.append(contentsOf: line.utf8)
        buffer.append(10)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes `text` as it is (its own line ends included).
    public func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    public func flush() {
        writeAll(1, buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}

extension StandardOutput {
    /// Writes the report `make` builds (a table or JSON) to stdout; one that cannot be built is
    /// the command's failure, said in one line (`history`, `stats` and `export` of either store).
    public static func report(_ make: () throws -> String) throws {
        let text: String
        do {
            text = try make()
        } catch {
            throw CLIError.failed("cannot write JSON: \(error)")
        }
        let output = StandardOutput()
        output.write(text)
        output.flush()
    }
}

/// Lines for stderr, unbuffered.
public enum StandardError {
    public static func writeLine(_ line: String) {
        writeAll(2, Array((line + "\n").utf8))
    }
}

/// Writes every byte to `fd`, retrying short writes and interruptions.
private func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
    bytes.withUnsafeBytes { raw in
        var offset = 0
        while offset < raw.count {
            let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
            if n > 0 { offset += n } else if n < 0 && errno == EINTR { continue } else { return }
        }
    }
}
