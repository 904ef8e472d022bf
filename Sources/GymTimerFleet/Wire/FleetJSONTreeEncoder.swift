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
