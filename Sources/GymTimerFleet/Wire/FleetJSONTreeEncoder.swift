/// The `Encoder` a type's `encode(to:)` talks to inside `FleetJSONEncoder`: it writes into one
/// node of the tree (its containers into the same node, so a type may ask for its keyed
/// container twice, as `FleetRequest` does after its command's fields).
struct FleetJSONTreeEncoder: Encoder {
    let node: FleetJSONTree
    let codingPath: [CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = node.value {} else { node.value = .object([]) }
        return KeyedEncodingContainer(FleetJSONKeyedContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> UnkeyedEncodingContainer {
        if case .array = node.value {} else { node.value = .array([]) }
        return FleetJSONUnkeyedContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> SingleValueEncodingContainer { FleetJSONSingleValueContainer(node: node, codingPath: codingPath) }
}

/// An object's fields, in the order written. The primitives' overloads are the standard
/// library's, which call the generic `encode` (`FleetJSONTree.leaf` takes them).
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

/// An array's items, in order.
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

/// One value: the node itself.
struct FleetJSONSingleValueContainer: SingleValueEncodingContainer {
    let node: FleetJSONTree
    let codingPath: [CodingKey]

    mutating func encodeNil() throws { node.value = .literal("null") }

    mutating func encode<T: Encodable>(_ value: T) throws { node.value = try FleetJSONTree.tree(of: value, at: codingPath).value }
}

/// `super`, the key `superEncoder()` writes under (as Foundation's encoders).
struct FleetJSONSuperKey: CodingKey {
    var stringValue: String { "super" }
    var intValue: Int? { nil }
    init() {}
    init?(stringValue: String) { nil }
    init?(intValue: Int) { nil }
}

/// An array item's place in a coding path.
struct FleetJSONIndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}
