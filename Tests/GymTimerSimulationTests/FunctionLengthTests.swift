import Foundation
import Testing

/// No function in Sources is over 60 lines (issue 49): a longer one is split where it does two
/// things, or its data moved into a named table. Counted from the line of `func` or `init` to
/// its closing brace, braces in strings and comments left out.
@Suite struct FunctionLengthTests {
    static let limit = 60

    /// The functions of `text` longer than `limit` lines: (first line, length, the line itself).
    static func long(in text: String) -> [(line: Int, length: Int, head: String)] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var found: [(Int, Int, String)] = []
        var index = 0
        while index < lines.count {
            let trimmed = lines[index].trimmingCharacters(in: .whitespaces)
            let starts = !trimmed.hasPrefix("//") && (trimmed.range(of: #"\b(func|init)\b"#, options: .regularExpression) != nil)
            guard starts else {
                index += 1
                continue
            }
            var depth = 0, opened = false, end = index
            scan: while end < lines.count {
                for character in code(lines[end]) {
                    if character == "{" { depth += 1; opened = true }
                    if character == "}" { depth -= 1 }
                }
                if opened && depth <= 0 { break scan }
                if !opened && end > index + 8 { break scan }
                end += 1
            }
            if opened, end - index + 1 > limit { found.append((index + 1, end - index + 1, trimmed)) }
            index = opened ? end + 1 : index + 1
        }
        return found
    }

    /// `line` without its string literals and its trailing comment.
    static func code(_ line: String) -> String {
        var out = "", inString = false, escaped = false
        var previous: Character = " "
        for character in line {
            if inString {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
            } else if character == "\"" {
                inString = true
            } else if character == "/" && previous == "/" {
                out.removeLast()
                break
            } else {
                out.append(character)
            }
            previous = character
        }
        return out
    }

    @Test func theCounterFindsALongFunctionAndIgnoresBracesInStrings() {
        let body = (0..<61).map { "    let x\($0) = \"}{\" // }" }.joined(separator: "\n")
        #expect(Self.long(in: "func big() {\n\(body)\n}\n").map(\.length) == [63])
        #expect(Self.long(in: "func small() {\n    let a = 1\n}\n").isEmpty)
    }

    @Test func noFunctionInSourcesIsOverSixtyLines() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources").standardizedFileURL
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(files.count > 400)
        var over: [String] = []
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            over += Self.long(in: text).map { "\(file):\($0.line): \($0.length) lines: \($0.head.prefix(80))" }
        }
        #expect(over.isEmpty, "split these: \(over.joined(separator: "; "))")
    }
}
