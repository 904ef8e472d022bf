import Foundation

/// Signal analysis for the audio tests: a tone's power (Goertzel) and its frequency from zero
/// crossings, over 16-bit samples as the drivers write them.
public enum AudioSignal {
    /// Goertzel power of `frequency` in `samples`, normalised by length.
    public static func power(_ samples: ArraySlice<Int16>, frequency: Double, sampleRate: Int) -> Double {
        let coefficient = 2 * cos(2 * Double.pi * frequency / Double(sampleRate))
        var s1 = 0.0, s2 = 0.0
        for sample in samples {
            let s0 = Double(sample) + coefficient * s1 - s2
            s2 = s1
            s1 = s0
        }
        let power = s1 * s1 + s2 * s2 - coefficient * s1 * s2
        return power / Double(max(1, samples.count * samples.count))
    }

    /// Frequency estimated from zero crossings (rising and falling) over `samples`.
    public static func zeroCrossingFrequency(_ samples: ArraySlice<Int16>, sampleRate: Int) -> Double {
        var crossings = 0
        var previous = samples.first.map { $0 >= 0 } ?? true
        for sample in samples.dropFirst() where sample != 0 {
            let positive = sample > 0
            if positive != previous { crossings += 1 }
            previous = positive
        }
        return Double(crossings) / 2 / (Double(samples.count) / Double(sampleRate))
    }

    /// Largest absolute difference between neighbouring samples.
    public static func maxStep(_ samples: ArraySlice<Int16>) -> Int {
        zip(samples, samples.dropFirst()).map { abs(Int($1) - Int($0)) }.max() ?? 0
    }

    public static func peak(_ samples: ArraySlice<Int16>) -> Int { samples.map { abs(Int($0)) }.max() ?? 0 }
}
