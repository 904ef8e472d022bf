/// A `JSONValue` written back (Home Assistant's discovery, whose shape is Home Assistant's and
/// so is built as a value, not a type of ours): an object's keys sorted (a dictionary has no
/// order), a whole number as an integer (`FleetJSONEncoder`).
extension JSONValue: Encodable {
    public func encode(to encoder: Encoder) throws {
        switch self {
        case .array(let items):
            var list = encoder.unkeyedContainer()
            for item in items { try list.encode(item) }
        case .object(let fields):
            var object = encoder.container(keyedBy: FleetJSONKey.self)
            for key in fields.keys.sorted() { try object.encode(fields[key]!, forKey: FleetJSONKey(key)) }
        case .null:
            var value = encoder.singleValueContainer()
            try value.encodeNil()
        case .bool(let flag):
            var value = encoder.singleValueContainer()
            try value.encode(flag)
        case .number(let number):
            var value = encoder.singleValueContainer()
            try value.encode(number)
        case .string(let text):
            var value = encoder.singleValueContainer()
            try value.encode(text)
        }
    }
}
