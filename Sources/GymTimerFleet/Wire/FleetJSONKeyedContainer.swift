/// `FleetJSONEncoder`'s keyed container: an object's fields, in the order written. The
/// primitives' overloads are the standard library's, which call the generic `encode`
/// (`FleetJSONTree.leaf` takes them).
struct FleetJSONKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: FleetJSONTree
    let codingPath: [CodingKey]

    mutating func encodeNil(forKey key: Key) throws { node.set(key.stringValue, FleetJSONTree(.literal("null"))) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        node.set(key.stringValue, try FleetJSONTree.tree(of: value, at: codingPath + [key]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        superEncoder(forKey: key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer { superEncoder(forKey: key).unkeyedContainer() }

    mutating func superEncoder() -> Encoder { child(FleetJSONSuperKey()) }

    mutating func superEncoder(forKey key: Key) -> Encoder { child(key) }

    /// An encoder for the field `key`, made an empty object until it writes.
    private func child(_ key: CodingKey) -> Encoder {
        let field = FleetJSONTree(.object([]))
        node.set(key.stringValue, field)
        return FleetJSONTreeEncoder(node: field, codingPath: codingPath + [key])
    }
}
