import Foundation
import GymTimerCore
import GymTimerSimulation

extension Simulate {
    /// `simulate --pn532 LINE`: the simulated PN532 (`PN532SerialTwin`) answers on a serial
    /// line, so a kiosk whose `[hardware] nfc` names the line's other end (or the printed
    /// pseudo-terminal) reads cards through the real libnfc with no reader: to try a config, and
    /// for the install VM's reader on a UART under the installed unit. Reads stdin until its end:
    /// `tap UID` (the card in the field for a second), `card UID` (held there), `away` (none).
    func runPN532(on line: String) throws {
        let twin: PN532SerialTwin
        do {
            twin = line == "pty" ? try PN532SerialTwin() : try PN532SerialTwin(line: line)
        } catch {
            throw CLIError.usage("cannot be a PN532 on \(line): \(error)")
        }
        twin.start()
        defer { twin.stop() }
        let output = StandardOutput()
        output.writeLine("pn532: answering on \(twin.path)")
        output.flush()
        while let text = readLine() {
            let words = text.split(separator: " ").map(String.init)
            guard let verb = words.first else { continue }
            let card = words.count == 2 ? CardID(hex: words[1]) : nil
            switch verb {
            case "tap" where card != nil, "card" where card != nil:
                twin.field = [Self.bytes(of: card!)]
                output.writeLine("pn532: \(card!.hex) in the field\(verb == "tap" ? " for 1 s" : "")")
                if verb == "tap" {
                    // Lifted after a second, whatever stdin does meanwhile.
                    Thread.sleep(forTimeInterval: 1)
                    twin.field = []
                    output.writeLine("pn532: the field is empty")
                }
            case "away" where words.count == 1:
                twin.field = []
                output.writeLine("pn532: the field is empty")
            default:
                StandardError.writeLine("pn532: \(text.prefix(80)): say tap UID, card UID or away (UID: 1 to 10 bytes of hex)")
            }
            output.flush()
        }
        for problem in twin.violations.prefix(5) { StandardError.writeLine("pn532: the host sent \(problem)") }
    }

    /// The UID's bytes, as the chip reports them.
    static func bytes(of card: CardID) -> [UInt8] {
        let digits = Array(card.hex.utf8)
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
    }
}
