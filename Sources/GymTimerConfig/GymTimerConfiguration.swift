import Foundation
import GymTimerCore
import TOMLKit

/// The whole config file (config.md), validated: what the core needs plus the audio, history and
/// hardware settings the runtime needs. A file with any problem is refused as a whole, with every
/// problem listed, so the kiosk never starts on a half-understood config.
public struct GymTimerConfiguration: Hashable, Sendable, Codable {
    public var kiosk: KioskSettings
    public var audio: AudioSettings
    public var history: HistorySettings
    public var hardware: HardwareSettings
    /// The broker this station is part of a fleet through; nil: the kiosk runs alone.
    public var fleet: FleetSettings?
    /// When the upgrade agent may install a newer package unasked.
    public var upgrade: UpgradeSettings

    public init(
        kiosk: KioskSettings = KioskSettings(), audio: AudioSettings = AudioSettings(),
        history: HistorySettings = HistorySettings(), hardware: HardwareSettings = HardwareSettings(),
        fleet: FleetSettings? = nil, upgrade: UpgradeSettings = UpgradeSettings()
    ) {
        self.kiosk = kiosk
        self.audio = audio
        self.history = history
        self.hardware = hardware
        self.fleet = fleet
        self.upgrade = upgrade
    }

    /// Every setting at its default: what an empty file gives.
    public static let defaults = GymTimerConfiguration()

    /// Parses and validates a config file's text. Throws every problem at once; a TOML syntax
    /// error stops parsing, so it is the only problem reported.
    public static func parse(_ toml: String) throws(ConfigError) -> GymTimerConfiguration {
        if let problem = TableHeaderCheck.firstProblem(in: toml) { throw ConfigError(problem) }
        // The TOML parser hands strings over as C strings, cut at a NUL: refuse one up front.
        let lines = toml.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        if let index = lines.firstIndex(where: { $0.contains("\0") || $0.contains("\\u0000") || $0.contains("\\U00000000") }) {
            throw ConfigError("line \(index + 1): a NUL character (\\u0000) is not allowed: paths and line names would be cut there")
        }
        let table: TOMLTable
        do {
            table = try TOMLTable(string: toml)
        } catch let error as TOMLParseError {
            let description = error.description.split(whereSeparator: \.isNewline).joined(separator: " ")
            throw ConfigError("line \(error.source.begin.line), column \(error.source.begin.column): \(description)")
        } catch {
            throw ConfigError("not a TOML file: \(error)")
        }
        let problems = ProblemList()
        let configuration = TOMLReader.read(table, problems: problems) { root in
            let startMode = root.choice("mode", default: StartMode.rest)
            let rest = root.table("rest") { RestSettings.read(from: $0) }
            let interval = root.table("interval") { IntervalSettings.read(from: $0) }
            let workout = root.table("workout") { WorkoutSettings.read(from: $0) }
            let programs = ProgramSettings.read(from: root, startMode: startMode)
            return GymTimerConfiguration(
                kiosk: KioskSettings(
                    rest: rest, startMode: startMode, interval: interval, workout: workout, programs: programs,
                    athletes: root.table("athletes") { AthleteSettings.read(from: $0) }),
                audio: root.table("audio") { AudioSettings.read(from: $0) },
                history: root.table("history") { HistorySettings.read(from: $0) },
                hardware: root.table("hardware") { HardwareSettings.read(from: $0) },
                fleet: root.table("fleet") { FleetSettings.read(from: $0) },
                upgrade: root.table("upgrade") { UpgradeSettings.read(from: $0) }
            )
        }
        guard problems.isEmpty else { throw ConfigError(problems: problems.lines) }
        return configuration
    }

    /// Reads and parses the config file at `path`. A file that cannot be read is one problem
    /// naming the path and why.
    public static func load(path: String) throws(ConfigError) -> GymTimerConfiguration {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ConfigError("cannot read config file \(path): no such file")
        }
        guard !isDirectory.boolValue else {
            throw ConfigError("cannot read config file \(path): it is a directory")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigError("cannot read config file \(path): permission denied or unreadable")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigError("cannot read config file \(path): not UTF-8 text")
        }
        return try parse(text)
    }
}
