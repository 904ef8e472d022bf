import GymTimerCore

extension ProgramSettings {
    /// Reads the root's `[[programs]]` and `program`. A `[[programs]]` list replaces the built-in
    /// programs; without `program`, the first one is selected. `program` with another
    /// `startMode` than program is refused: it would be silently ignored.
    static func read(from root: TOMLReader, startMode: StartMode) -> ProgramSettings {
        var firstUse: [String: String] = [:]
        let read = root.tables("programs") { reader, _ -> Program? in
            let program = Program.read(from: reader)
            guard let program, let raw = reader.value("name") else { return program }
            if let earlier = firstUse[program.name] {
                reader.report("name", raw, "already used by \(earlier)")
                return nil
            }
            firstUse[program.name] = reader.path
            return program
        }
        let offered = read.map { $0.compactMap { $0 } } ?? []
        let settings = ProgramSettings(programs: offered.isEmpty ? Program.builtIns : offered)
        let names = settings.programs.map(\.name)
        let name = root.string("program", default: settings.programName)
        if let raw = root.value("program"), root.isValid("program"), !names.contains(name) {
            root.report("program", raw, "must be one of " + names.map { "\"\($0)\"" }.joined(separator: ", "))
        } else if let raw = root.value("program"), root.isValid("program", "mode"), startMode != .program {
            // It only chooses the program the kiosk starts up in: without mode = "program" it would do nothing.
            root.report("program", raw, "only used with mode = \"program\" (mode is \"\(startMode.rawValue)\""
                + (root.value("mode") == nil ? ", the default" : "") + "): add mode = \"program\", or remove program")
        }
        return ProgramSettings(programs: settings.programs, programName: names.contains(name) ? name : nil)
    }
}

extension Program {
    /// Refuses `name` when it is longer than `maxNameLength` or holds a character no name may
    /// (`nameProblem`, `NameText`); an empty one the reader has refused already.
    static func checkName(_ name: String, in reader: TOMLReader) {
        guard reader.isValid("name"), !name.isEmpty, let problem = nameProblem(name), let raw = reader.value("name") else { return }
        reader.report("name", raw, problem)
    }

    /// Reads one `[[programs]]` table: nil when it cannot be used (every problem is reported).
    /// The kinds, keys and ranges are `Program+Definition`'s, which a class's program is held to too.
    static func read(from reader: TOMLReader) -> Program? {
        let name = reader.string("name", default: "")
        if reader.value("name") == nil { reader.report("name", nil, "required") }
        checkName(name, in: reader)
        let label = reader.string("label", default: "")
        if let raw = reader.value("label") {
            if reader.isValid("label"), let problem = labelProblem(label) { reader.report("label", raw, problem) }
        } else {
            reader.report("label", nil, "required")
        }
        func number(_ key: String) -> Int {
            let limits = numberLimits[key]!
            return reader.int(key, default: limits.default, in: limits.range)
        }
        let leadIn = number("lead_in_seconds")
        let kind = reader.choice("kind", default: Kind.intervals)
        if reader.value("kind") == nil { reader.report("kind", nil, "required (one of intervals, emom, amrap, for-time)") }
        var numbers: [String: Int] = [:]
        for key in kindKeys { numbers[key] = number(key) }
        guard reader.isValid("kind"), reader.value("kind") != nil else { return nil }
        for key in kindKeys where !kind.keys.contains(key) {
            guard let raw = reader.value(key) else { continue }
            reader.report(key, raw, "not a key of kind = \"\(kind.rawValue)\" (its keys: \(kind.keys.joined(separator: ", ")))")
        }
        for key in kind.required where reader.value(key) == nil {
            reader.report(key, nil, "required for kind = \"\(kind.rawValue)\"")
        }
        guard reader.isValid("name", "label", "lead_in_seconds", "kind"), kindKeys.allSatisfy({ reader.isValid($0) }),
              kind.required.allSatisfy({ reader.value($0) != nil }), reader.value("name") != nil, reader.value("label") != nil
        else { return nil }
        return Program(name: name, label: label, leadInSeconds: leadIn, format: format(kind, numbers))
    }
}
