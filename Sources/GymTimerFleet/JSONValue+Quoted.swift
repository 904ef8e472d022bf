import Foundation

extension JSONValue {
    /// `text` as a JSON string, as Foundation's JSONEncoder writes one: the one escaping every
    /// payload the fleet and the console write takes (commands, states, events, acknowledgements,
    /// the console's library). `escapingSlashes: false` writes `/` as it is (the collector's
    /// acknowledgements: ids hold one).
    public static func quoted(_ text: String, escapingSlashes: Bool = true) -> String {
        let encoder = JSONEncoder()
        if !escapingSlashes { encoder.outputFormatting = .withoutEscapingSlashes }
        let data = (try? encoder.encode(text)) ?? Data(#""""#.utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
