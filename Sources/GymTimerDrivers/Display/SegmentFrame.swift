/// What a 4-digit 7-segment display lights: one segment byte per digit and the colon.
///
/// Segment bits follow the usual datasheet lettering: bit 0 = a (top), 1 = b (top right),
/// 2 = c (bottom right), 3 = d (bottom), 4 = e (bottom left), 5 = f (top left), 6 = g (middle),
/// 7 = dp (decimal point). Each chip driver maps this to its own wiring.
public struct SegmentFrame: Hashable, Sendable, CustomStringConvertible {
    /// Exactly four bytes, left to right.
    public var digits: [UInt8]
    public var colon: Bool

    public init(digits: [UInt8], colon: Bool) {
        precondition(digits.count == 4, "a frame has four digits")
        self.digits = digits
        self.colon = colon
    }

    /// Every segment dark.
    public static let dark = SegmentFrame(digits: [0, 0, 0, 0], colon: false)
    /// Every segment, decimal point and the colon lit (`8.8.:8.8.`), for the self-test.
    public static let allLit = SegmentFrame(digits: [0xFF, 0xFF, 0xFF, 0xFF], colon: true)

    /// The characters this frame reads as (see `SevenSegmentFont.character(for:)`).
    public var text: String { SevenSegmentFont.text(of: digits) }

    public var description: String { colon ? "\(text.prefix(2)):\(text.suffix(2))" : text }
}
