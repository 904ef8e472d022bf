import ArgumentParser
import Foundation
import GymTimerCore
import GymTimerFleet
import GymTimerFleetCommands
import GymTimerSystem

/// `gymtimer fleet`: the gym's view of its stations and the coach's commands (fleet.md).
struct Fleet: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "See every station of the gym, start them all at one instant, pause, resume, reset or set them up, show them a message, lock their buttons, set their brightness and sleep window.",
        subcommands: [
            FleetStatus.self, FleetStart.self, FleetCancel.self, FleetPause.self, FleetResume.self, FleetReset.self, FleetSelect.self,
            FleetSet.self, FleetMessage.self, FleetLock.self, FleetUnlock.self, FleetBrightness.self, FleetSleep.self, FleetAthlete.self, FleetUpgrade.self,
        ])
}

/// `gymtimer fleet status`: every station seen, online or not, from the retained topics.
struct FleetStatus: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Every station seen on the broker: online or not, its mode, what is left of its countdown, what it shows, its sleep window and whether it is asleep; then each station's health (version, uptime, clock, CPU, disk, Wi-Fi, devices, last fault) with its flags.")

    @OptionGroup var broker: FleetBrokerOptions

    @Option(name: .long, help: "Seconds to wait for the retained messages.")
    var wait = 1.0

    func run() throws {
        let console = FleetConsole(options: try broker.options(clientID: "gymtimer-fleet-\(getpid())"), prefix: broker.topicPrefix)
        let stations: [FleetConsole.Station]
        do {
            stations = try console.stations(wait: wait)
        } catch {
            throw CLIError.failed("\(error)")
        }
        guard !stations.isEmpty else {
            print("No stations seen on \(broker.broker) (prefix \(broker.topicPrefix)).")
            return
        }
        let rows = [["Station", "Status", "Mode", "Phase", "Left", "Display", "Sleep", "Asleep"]]
            + stations.map { [$0.name, $0.status, $0.mode, $0.phase, $0.left, $0.display, $0.sleep, $0.asleep] }
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            print(row.indices.map { row[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces))
        }
        for line in FleetHealthLines.lines(stations) { print(line) }
    }
}

/// `gymtimer fleet start`: one synchronised start, `at` = now + `--in` seconds; with `--mode`
/// (and `--name`), a class: what to run is picked on each station as the start is scheduled, or
/// the station refuses it whole. The whole class starts or none of it: when any station refuses
/// or does not answer, the start is called off where it was scheduled (`--start-ready` keeps it
/// on the stations that are ready).
struct FleetStart: CoachCommand {
    static let configuration = CommandConfiguration(
        commandName: "start",
        abstract: "Start stations at one instant: {\"do\": \"start\", \"at\": now + --in}, optionally picking what they run; all of them or none.")

    @OptionGroup var broker: FleetBrokerOptions

    @OptionGroup var target: FleetTargetOptions

    // Unconditional, so `--in -5` reaches the range check below instead of reading as an option.
    @Option(name: .customLong("in"), parsing: .unconditional, help: "Seconds from now to the start (0 to 3600).")
    var delay = 10.0

    @Option(name: .long, help: "What the class runs: rest, interval, workout or program (default: what each station has selected).")
    var mode: String?

    @Option(name: .long, help: "The workout preset or program by name (with --mode), e.g. \"AMRAP 12\".")
    var name: String?

    @Option(name: .long, help: ArgumentHelp(
        "A program's definition as JSON, carried by the class: the stations run it whether their configs have it or not.",
        discussion: #"The keys of a [[programs]] table, e.g. '{"name":"Row 5 x 500","label":"ro 5","kind":"intervals","rounds":5,"work_seconds":120,"rest_seconds":60}'; checked as a station checks it."#))
    var program: String?

    @Flag(name: .customLong("start-ready"), help: "If some stations refuse or do not answer, start on the ready ones anyway (default: call the start off everywhere).")
    var startReady = false

    func validate() throws {
        guard delay.isFinite, delay >= 0, delay <= 3600 else {
            throw CLIError.usage("--in \(delay.formatted()): must be between 0 and 3600 seconds from now")
        }
        if let mode, !FleetCommand.modes.contains(mode) {
            throw CLIError.usage("--mode \(mode): must be one of \(FleetCommand.modes.sorted().joined(separator: ", "))")
        }
        if name != nil, mode == nil { throw CLIError.usage("--name needs --mode (e.g. --mode program --name \"AMRAP 12\")") }
        if let name, name.isEmpty || name.utf8.count > 64 { throw CLIError.usage("--name: 1 to 64 bytes") }
        if program != nil, mode != nil { throw CLIError.usage("--program already says what runs: leave out --mode and --name") }
        _ = try definition()
    }

    /// The program `--program` defines, checked; nil without it.
    func definition() throws -> Program? {
        guard let program else { return nil }
        guard program.utf8.count <= FleetCommand.maximumSize, case .object(let fields)? = JSONValue.parse(Array(program.utf8)) else {
            throw CLIError.usage(#"--program: give a JSON object such as {"name":"AMRAP 9","label":"A 9","kind":"amrap","time_seconds":540}"#)
        }
        switch Program.parse(definition: fields) {
        case .success(let parsed): return parsed
        case .failure(let problem): throw CLIError.usage("--program: \(problem)")
        }
    }

    // `at` is worked out once the stations are checked, so the check does not eat into --in.
    func command() -> FleetCommand {
        let at = WallClock.system.now + delay
        if let defined = try? definition() { return .classStart(at: at, runs: .defined(defined)) }
        guard let mode else { return .start(at: at) }
        return .classStart(at: at, runs: .named(mode: mode, name: name))
    }

    var doneWord: String { "scheduled" }
    var callsOffUnlessAll: Bool { !startReady }

    func confirmation(_ command: FleetCommand) -> String {
        switch command {
        case .start(let at?), .classStart(let at, _): return "start at \(String(format: "%.3f", at))"
        default: return "start"
        }
    }
}

/// `gymtimer fleet cancel`: calls off a start scheduled with `fleet start`, before its instant.
struct FleetCancel: CoachCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel", abstract: "Call off a start scheduled with fleet start (before its instant); nothing else changes.")
    @OptionGroup var broker: FleetBrokerOptions
    @OptionGroup var target: FleetTargetOptions
    func command() -> FleetCommand { .cancel }
    var doneWord: String { "called off" }
}

/// `gymtimer fleet pause`: pause what runs on the stations, whatever their mode.
struct FleetPause: CoachCommand {
    static let configuration = CommandConfiguration(commandName: "pause", abstract: "Pause what runs (a rest, interval, workout or program).")
    @OptionGroup var broker: FleetBrokerOptions
    @OptionGroup var target: FleetTargetOptions
    func command() -> FleetCommand { .pause }
}

/// `gymtimer fleet resume`: resume what was paused.
struct FleetResume: CoachCommand {
    static let configuration = CommandConfiguration(commandName: "resume", abstract: "Resume what was paused.")
    @OptionGroup var broker: FleetBrokerOptions
    @OptionGroup var target: FleetTargetOptions
    func command() -> FleetCommand { .resume }
}

/// `gymtimer fleet reset`: end what runs without recording it.
struct FleetReset: CoachCommand {
    static let configuration = CommandConfiguration(commandName: "reset", abstract: "End what runs without recording it, back to idle.")
    @OptionGroup var broker: FleetBrokerOptions
    @OptionGroup var target: FleetTargetOptions
    func command() -> FleetCommand { .reset }
}

/// `gymtimer fleet select`: pick a mode (and a preset or program), as the mode menu does.
struct FleetSelect: CoachCommand {
    static let configuration = CommandConfiguration(
        commandName: "select", abstract: "Pick a mode, and a workout preset or program by name, on idle stations.")
    @OptionGroup var broker: FleetBrokerOptions
    @OptionGroup var target: FleetTargetOptions

    @Option(name: .long, help: "rest, interval, workout or program.")
    var mode: String

    @Option(name: .long, help: "The workout preset or program to pick (its name in the stations' config).")
    var name: String?

    func validate() throws {
        guard FleetCommand.modes.contains(mode) else {
            throw CLIError.usage("--mode \(mode): must be one of \(FleetCommand.modes.sorted().joined(separator: ", "))")
        }
        if let name, name.isEmpty || name.utf8.count > 64 { throw CLIError.usage("--name: 1 to 64 bytes") }
    }

    func command() -> FleetCommand { .select(mode: mode, name: name) }
}

/// `gymtimer fleet set`: the rest length, as the knob would set it.
struct FleetSet: CoachCommand {
    static let configuration = CommandConfiguration(
        commandName: "set", abstract: "Set the rest length on idle rest timers (a value their knob can reach).")
    @OptionGroup var broker: FleetBrokerOptions
    @OptionGroup var target: FleetTargetOptions

    @Option(name: .customLong("rest-seconds"), help: "Whole seconds, 1 to 3600.")
    var restSeconds: Int

    func validate() throws {
        guard (1...3600).contains(restSeconds) else { throw CLIError.usage("--rest-seconds \(restSeconds): must be 1 to 3600") }
    }

    func command() -> FleetCommand { .setRest(seconds: restSeconds) }
}
