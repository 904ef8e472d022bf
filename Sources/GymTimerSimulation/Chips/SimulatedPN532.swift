/// A simulated PN532 NFC controller, speaking the chip's host protocol as its HSU (UART) port
/// does (PN532 User Manual §6.2): the bytes a host writes go in, the bytes the chip answers come
/// out. Each normal information frame `00 00 FF LEN LCS TFI PD… DCS 00` (TFI `D4`, host to chip)
/// is acknowledged with `00 00 FF 00 FF 00`, then answered with a frame whose TFI is `D5` and whose
/// command code is the request's plus one. A frame whose checksums are wrong gets no answer (the
/// chip ignores it; the host times out), and is noted in `violations`.
///
/// The cards in the field are `field` (their UIDs): `InListPassiveTarget` for ISO 14443-A at
/// 106 kbps lists them (at most the two the chip can hold), `InAutoPoll` finds the first, and
/// `InSelect` / `InDataExchange` say whether a listed card is still there (a card taken away
/// times out, status `01`). This is what libnfc's `pn532_uart` driver asks of a reader: its
/// start-up (GetFirmwareVersion, registers, SAMConfiguration, RFConfiguration, SetParameters),
/// a poll for a card, and whether the card is still present (and `nfc-list`'s probes of other
/// card types, which time out).
public final class SimulatedPN532 {
    /// The UIDs of the cards in the field now (4, 7 or 10 bytes each, as ISO 14443-A allows;
    /// any other length is not a card the chip can read and is left out of every answer).
    public var field: [[UInt8]] = []
    /// Every command the chip answered, in order (its code and parameters).
    public private(set) var commands: [(code: UInt8, parameters: [UInt8])] = []
    /// Things the chip would not make sense of.
    public private(set) var violations: [String] = []

    /// The chip's acknowledgement of a well-formed frame.
    public static let ack: [UInt8] = [0x00, 0x00, 0xFF, 0x00, 0xFF, 0x00]
    /// The chip's error frame: a frame it could not obey (an unknown command, a syntax error).
    public static let errorFrame: [UInt8] = [0x00, 0x00, 0xFF, 0x01, 0xFF, 0x7F, 0x81, 0x00]

    private var pending: [UInt8] = []
    /// The cards listed by the last `InListPassiveTarget` or `InAutoPoll` (target numbers 1, 2…).
    private var listed: [[UInt8]] = []

    public init() {}

    /// The bytes a host wrote; returns what the chip writes back (ACKs and answers, in order).
    /// A frame split across writes is answered once it is complete; bytes before a frame's start
    /// (the wake-up preamble libnfc sends, noise) are skipped.
    public func receive(_ bytes: [UInt8]) -> [UInt8] {
        pending += bytes
        var out: [UInt8] = []
        while let start = Self.startOfFrame(in: pending) {
            let header = start + 2
            guard pending.count >= header + 2 else { break }
            let length = Int(pending[header]), lengthCheck = pending[header + 1]
            if length == 0 && lengthCheck == 0xFF {  // the host's ACK (or an abort): nothing to answer
                pending.removeFirst(header + 2)
                continue
            }
            if length == 0xFF && lengthCheck == 0xFF {
                violations.append("an extended frame (no command of a reader needs one)")
                pending.removeFirst(header + 2)
                continue
            }
            guard UInt8(truncatingIfNeeded: length + Int(lengthCheck)) == 0 else {
                violations.append("a length checksum that does not add up (LEN \(hex(UInt8(length))), LCS \(hex(lengthCheck)))")
                pending.removeFirst(start + 1)
                continue
            }
            guard pending.count >= header + 2 + length + 1 else { break }
            let data = Array(pending[(header + 2)..<(header + 2 + length)])
            let dataCheck = pending[header + 2 + length]
            pending.removeFirst(header + 2 + length + 1)
            guard UInt8(truncatingIfNeeded: data.reduce(0) { $0 + Int($1) } + Int(dataCheck)) == 0 else {
                violations.append("a data checksum that does not add up")
                continue
            }
            guard data.count >= 2, data[0] == 0xD4 else {
                violations.append("a frame that is not a host command (TFI \(data.first.map(hex) ?? "none"))")
                continue
            }
            out += Self.ack
            guard let answer = answer(to: data[1], Array(data.dropFirst(2))) else {
                violations.append("an unknown command \(hex(data[1]))")
                out += Self.errorFrame
                continue
            }
            commands.append((data[1], Array(data.dropFirst(2))))
            out += Self.frame([0xD5, data[1] &+ 1] + answer)
        }
        // Nothing but noise kept: at most one byte that may begin the next frame's `00 FF`.
        if Self.startOfFrame(in: pending) == nil, pending.count > 1 { pending = pending.last == 0 ? [0] : [] }
        return out
    }

    /// A chip-to-host frame around `data` (TFI and the rest).
    public static func frame(_ data: [UInt8]) -> [UInt8] {
        let length = UInt8(data.count)
        let sum = data.reduce(0) { $0 &+ $1 }
        return [0x00, 0x00, 0xFF, length, 0 &- length] + data + [0 &- sum, 0x00]
    }

    /// Where `00 FF` (a frame's start code) begins in `bytes`, if anywhere.
    private static func startOfFrame(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 2 else { return nil }
        return (0..<(bytes.count - 1)).first { bytes[$0] == 0x00 && bytes[$0 + 1] == 0xFF }
    }

    /// The cards the chip can read, in the order they are in the field.
    private var readable: [[UInt8]] { field.filter { [4, 7, 10].contains($0.count) } }

    /// A listed target's data for ISO 14443-A: Tg, SENS_RES, SEL_RES, NFCID length, NFCID.
    private static func target(_ number: Int, _ uid: [UInt8]) -> [UInt8] {
        [UInt8(number), 0x00, 0x04, 0x08, UInt8(uid.count)] + uid
    }

    /// The answer's parameters to command `code`, nil for a command the twin does not know.
    private func answer(to code: UInt8, _ parameters: [UInt8]) -> [UInt8]? {
        switch code {
        case 0x00: return parameters  // Diagnose: the communication test echoes
        case 0x02: return [0x32, 0x01, 0x06, 0x07]  // GetFirmwareVersion: PN532, v1.6, every protocol
        case 0x04: return [0x00, 0x00, 0x00]  // GetGeneralStatus: no error, no field, no target
        case 0x06: return [UInt8](repeating: 0, count: parameters.count / 2)  // ReadRegister
        case 0x08, 0x12, 0x14, 0x32: return []  // WriteRegister, SetParameters, SAMConfiguration, RFConfiguration
        case 0x4A:  // InListPassiveTarget MaxTg BrTy: only 106 kbps type A is modelled
            guard parameters.count >= 2, parameters[1] == 0x00 else { return [0x00] }
            listed = Array(readable.prefix(max(1, min(2, Int(parameters[0])))))
            return [UInt8(listed.count)] + listed.enumerated().flatMap { Self.target($0.offset + 1, $0.element) }
        case 0x60:  // InAutoPoll: the first card as a MIFARE/ISO 14443-A 106 kbps target
            guard let first = readable.first else { return [0x00] }
            listed = [first]
            let data = Self.target(1, first)
            return [0x01, 0x10, UInt8(data.count)] + data
        case 0x40, 0x54:  // InDataExchange, InSelect: status 00 while the listed card is there
            let number = Int(parameters.first ?? 0)
            guard listed.indices.contains(number - 1), readable.contains(listed[number - 1]) else { return [0x01] }
            return [0x00]
        case 0x44, 0x52, 0x16: return [0x00]  // InDeselect, InRelease, PowerDown
        case 0x42: return [0x01]  // InCommunicateThru (libnfc's probe of other card types): no answer
        default: return nil
        }
    }
}
