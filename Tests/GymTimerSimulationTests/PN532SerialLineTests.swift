import Foundation
import Glibc
import GymTimerHAL
import GymTimerSimulation
import Testing

/// The PN532's twin on a serial line it did not make (`PN532SerialTwin(line:)`, as on the
/// install VM's ttyS2 wired to ttyS1), and `gymtimer simulate --pn532`, which serves it: the
/// host's frames answered on the line's other end, and the real libnfc reading the UID of the
/// card stdin put in the field.
@Suite struct PN532SerialLineTests {
    /// Reads what `fd` has within `seconds`, until `count` bytes came.
    func read(_ fd: Int32, count: Int, within seconds: Double) -> [UInt8] {
        var got: [UInt8] = []
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 256)
        while got.count < count, Date() < deadline {
            var request = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&request, 1, 50) > 0 else { continue }
            let n = Glibc.read(fd, &buffer, buffer.count)
            if n > 0 { got += buffer[0..<n] }
        }
        return got
    }

    @Test func theTwinAnswersTheHostsFramesOnALineItWasGiven() throws {
        // A pseudo-terminal pair stands for the two wired UARTs: the twin on the slave's path,
        // the host on the master's descriptor.
        let (host, line) = try SystemCall.openPseudoTerminal()
        defer { close(host) }
        let twin = try PN532SerialTwin(line: line)
        twin.start()
        defer { twin.stop() }
        let getFirmwareVersion: [UInt8] = [0x55, 0x55, 0x00, 0x00, 0x00] + [0x00, 0x00, 0xFF, 0x02, 0xFE, 0xD4, 0x02, 0x2A, 0x00]
        #expect(write(host, getFirmwareVersion, getFirmwareVersion.count) == getFirmwareVersion.count)
        let answer = read(host, count: 6 + 13, within: 10)
        #expect(Array(answer.prefix(6)) == SimulatedPN532.ack, "the ACK first: \(answer)")
        let response = Array(answer.dropFirst(6))
        #expect(response.count == 13 && response[5] == 0xD5 && response[6] == 0x03 && response[7] == 0x32,
                "GetFirmwareVersion's answer: a PN532 (IC 0x32): \(response)")
        #expect(twin.commands == [0x02] && twin.violations.isEmpty, "\(twin.commands) \(twin.violations)")
    }

    @Test func simulatePN532ServesTheCardsStdinPutsInTheField() throws {
        #expect(GymtimerBinary.isBuilt, "build gymtimer first")
        #expect(FileManager.default.isExecutableFile(atPath: "/usr/bin/nfc-list"),
                "libnfc's nfc-list is missing: scripts/install-deps.sh --tests installs libnfc-bin")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: GymtimerBinary.path)
        process.arguments = ["simulate", "--pn532", "pty"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() }; process.waitUntilExit() }
        let first = read(output.fileHandleForReading.fileDescriptor, count: 31, within: 20)
        let said = String(decoding: first, as: UTF8.self)
        let path = said.split(separator: "\n").first?.split(separator: " ").last.map(String.init) ?? ""
        #expect(said.hasPrefix("pn532: answering on /dev/pts/"), "\(said)")
        input.fileHandleForWriting.write(Data("card 04A1B2C3D41234\nnonsense\n".utf8))
        let held = String(decoding: read(output.fileHandleForReading.fileDescriptor, count: 35, within: 20), as: UTF8.self)
        #expect(held.contains("pn532: 04A1B2C3D41234 in the field"), "\(held)")

        let text = try PN532LibNFCTests.list(serialLine: path)
        #expect(text.contains("UID (NFCID1): 04  a1  b2  c3  d4  12  34"), "\(text)")

        input.fileHandleForWriting.closeFile()
        let end = Date().addingTimeInterval(20)
        while process.isRunning && Date() < end { usleep(20_000) }
        #expect(!process.isRunning && process.terminationStatus == 0, "stdin's end ends it")
    }

    @Test func aLineThatCannotBeOpenedIsOneLineAndExitCodeTwo() throws {
        #expect(GymtimerBinary.isBuilt, "build gymtimer first")
        let outcome = try GymtimerBinary.run(["simulate", "--pn532", "/nonexistent/ttyS9"])
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.stderr.split(separator: "\n").count == 1 && outcome.stderr.contains("/nonexistent/ttyS9"), "\(outcome.stderr)")
    }
}
