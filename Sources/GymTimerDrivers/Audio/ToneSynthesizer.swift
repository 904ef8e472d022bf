import Foundation

/// Renders `TonePattern`s to mono 16-bit samples. Each tone starts and ends with a short
/// raised-cosine fade so it never clicks, and the peak stays below full scale so it never clips.
public struct ToneSynthesizer: Sendable {
    /// Peak amplitude at volume 100: a little headroom under Int16.max, so no sample clips.
    public static let fullScale: Double = 30_000
    /// Default fade length at each end of a tone: long enough to be click-free, short enough
    /// to keep the attack crisp over gym music.
    public static let defaultFade: Duration = .milliseconds(5)

    /// Frames per second of the rendered samples.
    public let sampleRate: Int
    /// Loudness 0...100 (clamped); scales the peak amplitude linearly.
    public let volume: Int
    /// Length of the fade-in and fade-out of each tone (shortened for very short tones).
    public let fade: Duration

    public init(sampleRate: Int, volume: Int = 100, fade: Duration = ToneSynthesizer.defaultFade) {
        self.sampleRate = max(1, sampleRate)
        self.volume = min(100, max(0, volume))
        self.fade = fade
    }

    /// The peak amplitude of a tone at this volume.
    public var amplitude: Double { Self.fullScale * Double(volume) / 100 }

    /// Number of frames that `duration` lasts at this rate (rounded to the nearest frame).
    public func frames(_ duration: Duration) -> Int {
        Int((Double(duration.nanoseconds) * Double(sampleRate) / 1e9).rounded())
    }

    /// Renders `pattern`. The result has exactly `frames(pattern.duration)` samples: step
    /// boundaries are placed on the cumulative time, so rounding never accumulates.
    public func render(_ pattern: TonePattern) -> [Int16] {
        var samples: [Int16] = []
        samples.reserveCapacity(frames(pattern.duration))
        var elapsed: Duration = .zero
        for step in pattern.steps {
            let start = frames(elapsed)
            elapsed += step.duration
            let count = frames(elapsed) - start
            switch step {
            case .tone(let frequency, _):
                appendTone(frequency: frequency, count: count, to: &samples)
            case .rest:
                samples.append(contentsOf: repeatElement(0, count: count))
            }
        }
        return samples
    }

    /// Renders a single tone of `frequency` hertz lasting `duration`.
    public func tone(frequency: Double, duration: Duration) -> [Int16] {
        render(TonePattern([.tone(frequency: frequency, duration: duration)]))
    }

    private func appendTone(frequency: Double, count: Int, to samples: inout [Int16]) {
        guard count > 0 else { return }
        let fadeFrames = max(1, min(frames(fade), count / 2))
        let step = 2 * Double.pi * frequency / Double(sampleRate)
        let peak = amplitude
        for i in 0..<count {
            // Raised cosine: 0 at the tone's first and last frame, 1 after the fade.
            let edge = min(i, count - 1 - i)
            let gain = edge >= fadeFrames ? 1 : 0.5 - 0.5 * cos(Double.pi * Double(edge) / Double(fadeFrames))
            samples.append(Int16((peak * gain * sin(step * Double(i))).rounded()))
        }
    }
}
