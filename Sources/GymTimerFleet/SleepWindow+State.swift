import GymTimerCore

extension SleepWindow {
    /// A station state's `sleep` object as `HH:MM–HH:MM`, only when both are times (nothing else
    /// from the network is shown), else nil: what `gymtimer fleet status` and the console show.
    public static func text(ofState value: JSONValue?) -> String? {
        guard case .object(let window)? = value, let from = window["from"]?.string, let until = window["until"]?.string,
              case .success(let checked) = SleepWindow.parse(from: from, until: until) else { return nil }
        return checked.description
    }
}
