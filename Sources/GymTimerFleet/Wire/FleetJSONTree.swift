/// A JSON value as `FleetJSONEncoder` builds it: a node the containers fill in place (a class,
/// so that a nested container writes into its parent), objects keeping their keys in the order
/// written (a key written again keeps its place and takes the new value).
final class FleetJSONTree {
    enum Value {
        /// A number, `true`, `false` or `null`, as written.
        case literal(String)
        case string(String)
        case array([FleetJSONTree])
        case object([(key: String, value: FleetJSONTree)])
    }

    var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// The tree of `value` (`WireSeconds` as its three decimals; a type that writes nothing: `{}`).
    static func tree<T: Encodable>(of value: T, at codingPath: [CodingKey]) throws -> FleetJSONTree {
        if let leaf = leaf(value) { return leaf }
        let node = FleetJSONTree(.object([]))
        try value.encode(to: FleetJSONTreeEncoder(node: node, codingPath: codingPath))
        return node
    }

    /// The node of a string, flag, number or `WireSeconds` (nil for anything else): every
    /// container's primitives end here, never in their own `encode(to:)` (which would ask a
    /// single-value container again).
    static func leaf(_ value: Any) -> FleetJSONTree? {
        switch value {
        case let seconds as WireSeconds: return FleetJSONTree(.literal(seconds.text ?? "null"))
        case let text as String: return FleetJSONTree(.string(text))
        case let number as any BinaryInteger: return FleetJSONTree(.literal(String(describing: number)))
        case let flag as Bool: return FleetJSONTree(.literal(flag ? "true" : "false"))
        case let number as Double: return Self.number(number)
        case let number as Float: return Self.number(Double(number))
        default: return nil
        }
    }

    /// A number's text: whole numbers as integers, others as Swift prints them; not finite: null.
    static func number(_ value: Double) -> FleetJSONTree {
        guard value.isFinite else { return FleetJSONTree(.literal("null")) }
        if value.rounded() == value, abs(value) < 9.007_199_254_740_992e15 { return FleetJSONTree(.literal(String(Int64(value)))) }
        return FleetJSONTree(.literal(value.description))
    }

    /// Sets `key` to `node` (in its place when it is there already); makes this an object.
    func set(_ key: String, _ node: FleetJSONTree) {
        var fields: [(key: String, value: FleetJSONTree)] = []
        if case .object(let existing) = value { fields = existing }
        if let index = fields.firstIndex(where: { $0.key == key }) {
            fields[index].value = node
        } else {
            fields.append((key, node))
        }
        value = .object(fields)
    }

    /// Appends `node`; makes this an array.
    func append(_ node: FleetJSONTree) {
        var items: [FleetJSONTree] = []
        if case .array(let existing) = value { items = existing }
        items.append(node)
        value = .array(items)
    }

    /// The number of items, when this is an array.
    var count: Int {
        if case .array(let items) = value { return items.count }
        return 0
    }
}
