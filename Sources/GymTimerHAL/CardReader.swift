/// A reader of contactless cards (an NFC module at the wall): the UID of the card in its field.
/// Polled off the loop (a reader answers in milliseconds, a slow one in a second); the loop
/// hears of a card as one more input source.
public protocol CardReader: AnyObject {
    /// Where the reader is, for messages (`pn532_uart:/dev/serial0`).
    var name: String { get }
    /// The UID of the card in the field now (1 to 10 bytes), nil when there is none; throws when
    /// the reader stopped answering (unplugged, its port gone).
    func cardInField() throws(HALError) -> [UInt8]?
}
