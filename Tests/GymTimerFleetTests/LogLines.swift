/// Log lines a test reads back.
final class LogLines {
    private(set) var all: [String] = []
    func add(_ line: String) {
        print(line)
        all.append(line)
    }
}
