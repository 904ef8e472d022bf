/// A sequence of sine tones and rests: the recipe of a built-in sound, independent of sample rate.
/// Its `duration` is the sum of its steps, so a pattern can be checked against `SoundCatalog`.
public struct TonePattern: Hashable, Sendable {
    /// One step of the pattern.
    public enum Step: Hashable, Sendable {
        /// A sine tone of `frequency` hertz lasting `duration`, faded in and out.
        case tone(frequency: Double, duration: Duration)
        /// Silence lasting `duration`.
        case rest(Duration)

        /// How long the step lasts.
        public var duration: Duration {
            switch self {
            case .tone(_, let duration), .rest(let duration): return duration
            }
        }

        /// Shorthand for a tone of `frequency` hertz lasting `milliseconds`.
        public static func note(_ frequency: Double, _ milliseconds: Int) -> Step {
            .tone(frequency: frequency, duration: .milliseconds(milliseconds))
        }

        /// Shorthand for a rest lasting `milliseconds`.
        public static func silence(_ milliseconds: Int) -> Step { .rest(.milliseconds(milliseconds)) }
    }

    public var steps: [Step]

    public init(_ steps: [Step]) { self.steps = steps }

    /// Total length of the pattern.
    public var duration: Duration { steps.reduce(.zero) { $0 + $1.duration } }
}
