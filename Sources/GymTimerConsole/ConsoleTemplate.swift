import Foundation

/// An HTML file with `{{name}}` slots (Page/console.html), split into its pieces once, when it
/// is first used; a page fills the slots with values it has escaped. The one substitution the
/// console's files get: their text is otherwise served as it is.
struct ConsoleTemplate: Sendable {
    private enum Piece: Sendable {
        case text(String)
        case slot(String)
    }

    private let pieces: [Piece]

    init(_ text: String) {
        var pieces: [Piece] = []
        var rest = text[...]
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
            pieces.append(.text(String(rest[..<open.lowerBound])))
            pieces.append(.slot(String(rest[open.upperBound..<close.lowerBound])))
            rest = rest[close.upperBound...]
        }
        pieces.append(.text(String(rest)))
        self.pieces = pieces
    }

    /// The text with each slot replaced by `values[name]` (every slot must have one).
    func filled(_ values: [String: String]) -> String {
        var page = ""
        for piece in pieces {
            switch piece {
            case .text(let text):
                page += text
            case .slot(let name):
                assert(values[name] != nil, "no value for {{\(name)}}")
                page += values[name] ?? ""
            }
        }
        return page
    }
}
