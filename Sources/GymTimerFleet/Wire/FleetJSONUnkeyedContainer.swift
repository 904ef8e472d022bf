/// `FleetJSONEncoder`'s unkeyed container: an array's items, in order.
struct FleetJSONUnkeyedContainer: UnkeyedEncodingContainer {
    let node: FleetJSONTree
    let codingPath: [CodingKey]
    var count: Int { node.count }

    mutating func encodeNil() throws { node.append(FleetJSONTree(.literal("null"))) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        node.append(try FleetJSONTree.tree(of: value, at: codingPath + [FleetJSONIndexKey(count)]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        superEncoder().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer { superEncoder().unkeyedContainer() }

    mutating func superEncoder() -> Encoder {
        let item = FleetJSONTree(.object([]))
        let key = FleetJSONIndexKey(count)
        node.append(item)
        return FleetJSONTreeEncoder(node: item, codingPath: codingPath + [key])
    }
}
