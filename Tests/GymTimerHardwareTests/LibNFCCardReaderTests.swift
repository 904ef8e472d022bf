import GymTimerHAL
import GymTimerHardware
import GymTimerSimulation
import Testing

/// GymTimer's own reader (libnfc, loaded at run time, pn532_uart) against the simulated PN532 on
/// a pseudo-terminal: no card, a card's UID byte for byte (4, 7 and 10 bytes: libnfc's packed
/// target layout read right), the card gone, and a port where no reader answers named.
@Suite struct LibNFCCardReaderTests {
    @Test func theReaderSeesACardComeAndGoWithItsUID() throws {
        let twin = try PN532SerialTwin()
        twin.start()
        defer { twin.stop() }
        let reader = try LibNFCCardReader("pn532_uart:\(twin.path)")
        #expect(try reader.cardInField() == nil)
        for uid: [UInt8] in [[0xDE, 0xAD, 0xBE, 0xEF], [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]] {
            twin.field = [uid]
            #expect(try reader.cardInField() == uid)
        }
        twin.field = []
        #expect(try reader.cardInField() == nil)
        #expect(twin.violations.isEmpty, "\(twin.violations)")
    }

    @Test func aPortWithNoReaderIsNamed() {
        #expect(throws: HALError.self) { try LibNFCCardReader("pn532_uart:/dev/null") }
        do {
            _ = try LibNFCCardReader("pn532_uart:/dev/null")
        } catch {
            #expect("\(error)".contains("pn532_uart:/dev/null"), "\(error)")
        }
    }
}
