/// The mode menu (behaviour.md, "Across modes"): opened by a long press of start in idle, the
/// knob scrolls `rESt`, `Int`, then one entry per workout preset (`P  1`, `P  2`, …), then one per
/// program by its label (`tAbA`, …), start picks and dismiss leaves.
///
/// Decisions where behaviour.md is silent: the knob stops at either end (no wrap-around), every
/// LED is dark while the menu is open, and a menu left untouched for `timeout` closes by itself
/// as if dismissed, so a walk-away never leaves the kiosk stuck in the menu.
public struct ModeMenu: Hashable, Sendable, Codable {
    public enum Entry: Hashable, Sendable, Codable {
        case rest
        case interval
        case workout(preset: Int)
        case program(Int)
    }

    /// How long the menu stays open without input.
    public static let timeout: Duration = .seconds(30)

    public let entries: [Entry]
    /// The labels of the programs, in order.
    public let programLabels: [String]
    /// The index in `entries` of the entry shown.
    public internal(set) var selected: Int
    /// The last time the menu was opened or the knob turned.
    public private(set) var touchedAt: Moment

    /// A menu over the modes, `presetCount` workout presets and the programs labelled
    /// `programLabels`, showing `current` first.
    public init(presetCount: Int, programLabels: [String] = [], current: Entry, at now: Moment) {
        entries = [.rest, .interval] + (0..<max(1, presetCount)).map { .workout(preset: $0) }
            + programLabels.indices.map { .program($0) }
        self.programLabels = programLabels
        selected = entries.firstIndex(of: current) ?? 0
        touchedAt = now
    }

    public var selection: Entry { entries[selected] }

    /// How `entry` is shown on the display.
    public func label(for entry: Entry) -> DisplayContent {
        switch entry {
        case .rest: return DisplayContent(text: "rESt")
        case .interval: return DisplayContent(text: "Int ")
        case .workout(let preset): return WorkoutMode.label(forPreset: preset)
        case .program(let index): return DisplayContent(text: programLabels[index])
        }
    }

    public func currentOutputs() -> [Effect] {
        [.display(label(for: selection)), .leds([]), .buzzer(.off), .sound(nil)]
    }

    /// Moves the selection by `detents` entries, stopping at the ends.
    public mutating func turn(_ detents: Int, at now: Moment) -> [Effect] {
        selected = min(max(selected + detents, 0), entries.count - 1)
        touchedAt = now
        return [.display(label(for: selection))]
    }

    /// When the untouched menu closes by itself.
    public var closesAt: Moment { touchedAt + Self.timeout }
}
