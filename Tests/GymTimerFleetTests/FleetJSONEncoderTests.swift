import Foundation
import Testing
@testable import GymTimerFleet

/// `FleetJSONEncoder` byte for byte: keys in the order written (or sorted), strings escaped as
/// Foundation's JSONEncoder escapes them, `WireSeconds` with three decimals, nil as null or left out.
@Suite struct FleetJSONEncoderTests {
    /// Keys in an order that is neither sorted nor reversed, a nil written and one left out.
    struct Ordered: Encodable {
        var zeta = "z"
        var alpha: Int? = nil
        var mid: Bool? = nil
        var beta = [1, -2]
        var nested = ["k": WireSeconds(0.5)]

        private enum CodingKeys: String, CodingKey {
            case zeta, alpha, mid, beta, nested
        }

        func encode(to encoder: Encoder) throws {
            var fields = encoder.container(keyedBy: CodingKeys.self)
            try fields.encode(zeta, forKey: .zeta)
            try fields.encode(alpha, forKey: .alpha)
            try fields.encodeIfPresent(mid, forKey: .mid)
            var list = fields.nestedUnkeyedContainer(forKey: .beta)
            for item in beta { try list.encode(item) }
            try fields.encode(nested, forKey: .nested)
        }
    }

    @Test func keysInTheOrderWrittenOrSorted() throws {
        #expect(try FleetJSONEncoder().encode(Ordered()) == #"{"zeta":"z","alpha":null,"beta":[1,-2],"nested":{"k":0.500}}"#)
        #expect(try FleetJSONEncoder(sortedKeys: true).encode(Ordered()) == #"{"alpha":null,"beta":[1,-2],"nested":{"k":0.500},"zeta":"z"}"#)
        var flagged = Ordered()
        flagged.mid = false
        flagged.alpha = 7
        #expect(try FleetJSONEncoder().encode(flagged) == #"{"zeta":"z","alpha":7,"mid":false,"beta":[1,-2],"nested":{"k":0.500}}"#)
    }

    @Test func hostileStringsAreEscapedAsFoundationEscapesThem() throws {
        let hostile = "a\"b\\c/d\u{0}\u{1}\u{8}\t\n\u{B}\u{C}\r\u{1B}\u{1F}\u{7F} é\u{2028}😀}{,:"
        #expect(try FleetJSONEncoder().encode(hostile)
            == "\"a\\\"b\\\\c\\/d\\u0000\\u0001\\b\\t\\n\\u000b\\f\\r\\u001b\\u001f\u{7F} é\u{2028}😀}{,:\"")
        #expect(try FleetJSONEncoder(escapingSlashes: false).encode(["k/\"": "x/y"]) == #"{"k/\"":"x/y"}"#)
    }

    @Test func everyScalarUpToU0800IsEscapedAsJSONEncoderDoes() throws {
        var text = ""
        for value in 0..<0x800 { text.unicodeScalars.append(Unicode.Scalar(UInt32(value))!) }
        for slashes in [true, false] {
            let foundation = JSONEncoder()
            if !slashes { foundation.outputFormatting = .withoutEscapingSlashes }
            let expected = String(decoding: try foundation.encode([text]), as: UTF8.self)
            #expect(try FleetJSONEncoder(escapingSlashes: slashes).encode([text]) == expected)
        }
    }

    @Test(arguments: [
        (0.0, "0.000"), (1767225600.25, "1767225600.250"), (-0.1, "-0.100"), (-0.0004, "-0.000"), (2.0005, "2.001"),
        (1e20, "100000000000000000000.000"), (-1767225600.125, "-1767225600.125"), (0.0015, "0.002"),
    ])
    func wireSecondsHaveThreeDecimals(value: Double, text: String) throws {
        #expect(try FleetJSONEncoder().encode([WireSeconds(value)]) == "[\(text)]")
        #expect(try FleetJSONEncoder().encode([WireSeconds(value)]) == "[" + String(format: "%.3f", value) + "]")
    }

    @Test func numbersThatAreNotFiniteAreNull() throws {
        #expect(try FleetJSONEncoder().encode([WireSeconds(.nan), WireSeconds(.infinity), WireSeconds(-.infinity)]) == "[null,null,null]")
        #expect(try FleetJSONEncoder().encode([Double.nan, 1.5, 2, -3e300]) == "[null,1.5,2,-3e+300]")
    }

    @Test func integersFlagsAndOptionals() throws {
        #expect(try FleetJSONEncoder().encode([Int.min, 0, Int.max]) == "[-9223372036854775808,0,9223372036854775807]")
        #expect(try FleetJSONEncoder().encode([UInt8(255)]) == "[255]")
        #expect(try FleetJSONEncoder().encode([true, false]) == "[true,false]")
        #expect(try FleetJSONEncoder().encode([String?.none, "x"]) == #"[null,"x"]"#)
        #expect(try FleetJSONEncoder().encode([Int]()) == "[]")
        #expect(try FleetJSONEncoder().encode([String: Int]()) == "{}")
    }

    /// Another encoder reads `WireSeconds` as the number rounded to milliseconds.
    @Test func wireSecondsForFoundationsEncoder() throws {
        let data = try JSONEncoder().encode([WireSeconds(1.23456), WireSeconds(.nan)])
        #expect(String(decoding: data, as: UTF8.self) == "[1.235,null]")
    }
}
