import Foundation
import Testing

/// `gymtimer unit-network` as install.sh and gymtimer-config.service run it: the drop-in
/// written, kept, removed, and a broker that does not resolve refused in one line.
@Suite struct UnitNetworkCommandTests {
    func config(_ files: ScratchDirectory, _ text: String) throws -> String {
        let path = files.path + "/config.toml"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func writesKeepsAndRemovesTheDropIn() throws {
        try #require(GymtimerBinary.isBuilt, "build first: swift build")
        let files = try ScratchDirectory()
        let dropIn = files.path + "/gymtimer.service.d/fleet-network.conf"
        let fleet = try config(files, "[fleet]\nbroker = \"mqtt://10.0.2.2:18830\"\nstation = \"rack-1\"\n")
        let written = try GymtimerBinary.run(["unit-network", "--config", fleet, "--write", dropIn])
        #expect(written.status == 0 && written.stdout.contains("written"), "\(written)")
        let text = try String(contentsOfFile: dropIn, encoding: .utf8)
        #expect(text.contains("\nIPAddressAllow=localhost 10.0.2.2\n") && text.contains("\nPrivateNetwork=no\n"), "\(text)")
        let again = try GymtimerBinary.run(["unit-network", "--config", fleet, "--write", dropIn])
        #expect(again.status == 0 && again.stdout.contains("unchanged"), "\(again)")
        let alone = try config(files, "mode = \"rest\"\n")
        let removed = try GymtimerBinary.run(["unit-network", "--config", alone, "--write", dropIn])
        #expect(removed.status == 0 && !FileManager.default.fileExists(atPath: dropIn), "\(removed)")
    }

    @Test func anUnresolvableBrokerIsOneLineAndTheOldDropInStays() throws {
        try #require(GymtimerBinary.isBuilt, "build first: swift build")
        let files = try ScratchDirectory()
        let dropIn = files.path + "/fleet-network.conf"
        try "kept\n".write(toFile: dropIn, atomically: true, encoding: .utf8)
        // .invalid never resolves (RFC 6761).
        let path = try config(files, "[fleet]\nbroker = \"mqtt://gym-server.invalid\"\nstation = \"rack-1\"\n")
        let outcome = try GymtimerBinary.run(["unit-network", "--config", path, "--write", dropIn])
        #expect(outcome.status == 2)
        let lines = outcome.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("gym-server.invalid does not resolve"), "\(outcome.stderr)")
        #expect(try String(contentsOfFile: dropIn, encoding: .utf8) == "kept\n")
    }
}
