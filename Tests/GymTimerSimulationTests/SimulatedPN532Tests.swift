import GymTimerSimulation
import Testing

/// The simulated PN532 answers the host protocol byte for byte as the User Manual's frames say:
/// an ACK then the answer (command + 1), cards listed from the field, checksums enforced, a frame
/// split across writes answered once, an unknown command answered with the error frame.
@Suite struct SimulatedPN532Tests {
    /// A host-to-chip frame for `code` with `parameters`.
    func command(_ code: UInt8, _ parameters: [UInt8] = []) -> [UInt8] {
        let data: [UInt8] = [0xD4, code] + parameters
        let length = UInt8(data.count)
        return [0x00, 0x00, 0xFF, length, 0 &- length] + data + [0 &- data.reduce(0, &+), 0x00]
    }

    @Test func theFirmwareVersionAfterTheWakeUpPreambleIsAnAckThenItsAnswer() {
        let chip = SimulatedPN532()
        let wake: [UInt8] = [0x55, 0x55, 0x00, 0x00, 0x00, 0x00]
        let out = chip.receive(wake + command(0x02))
        #expect(out == SimulatedPN532.ack + [0x00, 0x00, 0xFF, 0x06, 0xFA, 0xD5, 0x03, 0x32, 0x01, 0x06, 0x07, 0xE8, 0x00])
        #expect(chip.violations.isEmpty, "\(chip.violations)")
    }

    @Test func aPassiveTargetIsListedOnlyWhileACardIsInTheField() {
        let chip = SimulatedPN532()
        let list = command(0x4A, [0x01, 0x00])
        #expect(chip.receive(list) == SimulatedPN532.ack + SimulatedPN532.frame([0xD5, 0x4B, 0x00]))
        let uid: [UInt8] = [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6]
        chip.field = [uid]
        #expect(chip.receive(list) == SimulatedPN532.ack + SimulatedPN532.frame([0xD5, 0x4B, 0x01, 0x01, 0x00, 0x04, 0x08, 0x07] + uid))
        // Still there; then taken away: InSelect times out (status 01).
        #expect(chip.receive(command(0x54, [0x01])) == SimulatedPN532.ack + SimulatedPN532.frame([0xD5, 0x55, 0x00]))
        chip.field = []
        #expect(chip.receive(command(0x54, [0x01])) == SimulatedPN532.ack + SimulatedPN532.frame([0xD5, 0x55, 0x01]))
        // A UID no ISO 14443-A card has (5 bytes) is not read.
        chip.field = [[1, 2, 3, 4, 5]]
        #expect(chip.receive(list) == SimulatedPN532.ack + SimulatedPN532.frame([0xD5, 0x4B, 0x00]))
    }

    @Test func aSplitFrameIsAnsweredOnceComplete() {
        let chip = SimulatedPN532()
        let frame = command(0x14, [0x01, 0x14, 0x01])
        #expect(chip.receive(Array(frame.prefix(4))) == [])
        #expect(chip.receive(Array(frame.dropFirst(4))) == SimulatedPN532.ack + SimulatedPN532.frame([0xD5, 0x15]))
        #expect(chip.commands.map(\.code) == [0x14])
    }

    @Test func badChecksumsGetNoAnswerAndAnUnknownCommandTheErrorFrame() {
        let chip = SimulatedPN532()
        var bad = command(0x02)
        bad[bad.count - 2] &+= 1
        #expect(chip.receive(bad) == [])
        #expect(chip.receive([0x00, 0x00, 0xFF, 0x03, 0x03, 0xD4, 0x02]) == [], "a LEN/LCS that does not add up")
        #expect(chip.violations.count == 2, "\(chip.violations)")
        #expect(chip.receive(command(0x99)) == SimulatedPN532.ack + SimulatedPN532.errorFrame)
        // After all that, a good frame is still answered.
        #expect(chip.receive(command(0x02)).count == SimulatedPN532.ack.count + 13)
    }
}
