/// `FleetJSONEncoder`'s single-value container: the value is the node itself.
struct FleetJSONSingleValueContainer: SingleValueEncodingContainer {
    let node: FleetJSONTree
    let codingPath: [CodingKey]

    mutating func encodeNil() throws { node.value = .literal("null") }

    mutating func encode<T: Encodable>(_ value: T) throws { node.value = try FleetJSONTree.tree(of: value, at: codingPath).value }
}
