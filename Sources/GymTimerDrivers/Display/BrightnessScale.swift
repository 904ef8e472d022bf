/// Maps the `SegmentDisplay` brightness (0...1) to a chip's whole steps, in one place so every
/// driver rounds and clamps alike (out-of-range and NaN levels never reach a register).
enum BrightnessScale {
    /// The step for `level` on a chip whose steps run `0...maximum` (0: dimmest lit).
    static func step(for level: Double, maximum: Int) -> Int {
        guard !level.isNaN else { return 0 }
        let clamped = min(max(level, 0), 1)
        return Int((clamped * Double(maximum)).rounded())
    }
}
