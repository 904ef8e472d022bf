import Foundation
import GymTimerCore

extension UpgradeSettings {
    /// Reads `[upgrade]`: `window` is `"HH:MM-HH:MM"`, 24-hour local times, from and until.
    static func read(from reader: TOMLReader) -> UpgradeSettings {
        guard let raw = reader.value("window") else { return UpgradeSettings() }
        let text = reader.string("window", default: "")
        guard !text.isEmpty else { return UpgradeSettings() }   // not a string, or empty: reported
        let ends = text.split(separator: "-", omittingEmptySubsequences: false).map { String($0).trimmingCharacters(in: .whitespaces) }
        guard ends.count == 2 else {
            reader.report("window", raw, "is written \"HH:MM-HH:MM\", like \"02:00-05:00\" (local time; it may cross midnight)")
            return UpgradeSettings()
        }
        switch SleepWindow.parse(from: ends[0], until: ends[1]) {
        case .success(let window): return UpgradeSettings(window: window)
        case .failure(let refusal):
            reader.report("window", raw, "\(refusal.reason), like \"02:00-05:00\"")
            return UpgradeSettings()
        }
    }
}
