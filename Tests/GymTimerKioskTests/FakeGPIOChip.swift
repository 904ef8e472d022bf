import GymTimerHAL
import GymTimerHardware

/// A GPIO chip that records every line request and hands out lines that keep their level, so
/// the wiring a config produces is checked without hardware. Lines in `missing` are refused as
/// libgpiod refuses a name the chip does not have.
final class FakeGPIOChip: GPIOChip {
    struct Request: Hashable {
        enum Kind: Hashable { case input(activeLow: Bool, bias: GPIOBias), output, openDrain }
        var line: GPIOLineID
        var role: String
        var kind: Kind
    }

    let path: String
    var missing: Set<GPIOLineID> = []
    private(set) var requests: [Request] = []
    private(set) var lines: [FakeGPIOLine] = []

    init(path: String) { self.path = path }

    func input(_ line: GPIOLineID, role: String, activeLow: Bool, bias: GPIOBias) throws(HALError) -> any GPIOEventInput {
        try request(line, role, .input(activeLow: activeLow, bias: bias))
    }

    func output(_ line: GPIOLineID, role: String, activeLow: Bool, initial: Bool) throws(HALError) -> any GPIOOutput {
        try request(line, role, .output)
    }

    func openDrain(_ line: GPIOLineID, role: String) throws(HALError) -> any GPIOOpenDrain {
        try request(line, role, .openDrain)
    }

    private func request(_ line: GPIOLineID, _ role: String, _ kind: Request.Kind) throws(HALError) -> FakeGPIOLine {
        guard !missing.contains(line) else { throw .noSuchLine(line: line.description, chip: path) }
        requests.append(Request(line: line, role: role, kind: kind))
        let fake = FakeGPIOLine(name: role, location: "\(line) (\(path))")
        lines.append(fake)
        return fake
    }
}

/// A requested line of `FakeGPIOChip`: it reads back what was written and remembers being released.
final class FakeGPIOLine: GPIOEventInput, GPIOOutput, GPIOOpenDrain {
    let name: String
    let location: String
    private(set) var level = false
    private(set) var released = false

    init(name: String, location: String) {
        self.name = name
        self.location = location
    }

    var eventDescriptor: Int32 { -1 }
    func readEvents() throws(HALError) -> [GPIOEvent] { [] }
    func read() throws(HALError) -> Bool { level }
    func write(_ active: Bool) throws(HALError) { level = active }
    func release() { released = true }
}
