import Foundation
import GymTimerSimulation
import Testing

/// The real libnfc (Debian's libnfc6 through its `nfc-list`, pn532_uart driver) against the
/// simulated PN532 on a pseudo-terminal: no card, then a card whose UID it reads back, and the
/// chip's twin saw libnfc's start-up and its target look-up with no frame it could not decode.
/// `nfc-list` comes with `scripts/install-deps.sh --tests` (libnfc-bin); without it this fails.
@Suite struct PN532LibNFCTests {
    /// `nfc-list` run against the twin: its output (stdout), within 30 s on a loaded machine.
    func list(_ twin: PN532SerialTwin) throws -> String { try Self.list(serialLine: twin.path) }

    /// `nfc-list` run against the PN532 on `serialLine`: its output (stdout), within 30 s.
    static func list(serialLine: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/nfc-list")
        process.environment = ["LIBNFC_DEVICE": "pn532_uart:\(serialLine)", "LIBNFC_LOG_LEVEL": "0", "PATH": "/usr/bin:/bin"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { process.terminate() }
        return String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    @Test func libnfcFindsNoCardThenReadsTheUIDOfTheOneInTheField() throws {
        #expect(FileManager.default.isExecutableFile(atPath: "/usr/bin/nfc-list"),
                "libnfc's nfc-list is missing: scripts/install-deps.sh --tests installs libnfc-bin")
        let twin = try PN532SerialTwin()
        twin.start()
        defer { twin.stop() }
        let empty = try list(twin)
        #expect(empty.contains("NFC device:") && empty.contains("opened"), "libnfc opened the twin: \(empty)")
        #expect(!empty.contains("UID"), "no card, no UID: \(empty)")
        twin.field = [[0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6]]
        let one = try list(twin)
        #expect(one.contains("1 ISO14443A passive target(s) found"), "\(one)")
        #expect(one.contains("UID (NFCID1): 04  a1  b2  c3  d4  e5  f6"), "\(one)")
        #expect(twin.commands.contains(0x02) && twin.commands.contains(0x4A), "start-up and the look-up: \(twin.commands)")
        #expect(twin.violations.isEmpty, "\(twin.violations)")
    }
}
