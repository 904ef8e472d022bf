import Foundation
import Glibc
import GymTimerConfig
import Testing
import GymTimerTestSupport

/// The bridge snippet `gymtimer chain bridge` writes, and the central ACL: the exact text
/// Mosquitto reads, and refusals of anything that could add a line to it.
struct ChainBridgeTests {
    func bridge(
        gym: String = "gym-a", centre: String = "mqtts://central.example.org:8883", insecure: Bool = false, username: String = "gym-a",
        password: String = "s3cret pass", caFile: String? = "/etc/mosquitto/certs/chain-ca.crt", prefix: String = "gymtimer", chain: String = "gyms"
    ) throws(ChainBridgeError) -> ChainBridge {
        try ChainBridge(gym: gym, centre: centre, insecure: insecure, username: username, password: password, caFile: caFile, prefix: prefix, chain: chain)
    }

    @Test func theSnippetIsExactlyTheBridgeOfTheChainsDesign() throws {
        #expect(try bridge().text == """
        # GymTimer: gym gym-a bridged to the chain's central broker (docs/chain.md).
        # Written by `gymtimer chain bridge`; it holds the gym's password: keep it mode 0600.
        # The gym's mosquitto.conf keeps what the bridge queues while the centre is away:
        #   persistence true, and max_queued_messages 100000 (a day of records; default 1000).
        connection gymtimer-gyms
        address central.example.org:8883
        remote_clientid bridge-gym-a
        remote_username gym-a
        remote_password s3cret pass
        bridge_cafile /etc/mosquitto/certs/chain-ca.crt
        bridge_insecure false
        bridge_protocol_version mqttv311
        try_private true
        cleansession false
        local_cleansession false
        start_type automatic
        restart_timeout 5 60
        keepalive_interval 30
        notifications true
        notifications_local_only true
        notification_topic gymtimer/all/bridge
        topic +/workout out 1 gymtimer/ gyms/gym-a/
        topic +/state out 1 gymtimer/ gyms/gym-a/
        topic +/status out 1 gymtimer/ gyms/gym-a/
        topic +/event out 1 gymtimer/ gyms/gym-a/
        topic +/card-ask out 1 gymtimer/ gyms/gym-a/
        topic +/ack in 1 gymtimer/ gyms/gym-a/
        topic +/cmd in 1 gymtimer/ gyms/gym-a/
        topic +/card in 1 gymtimer/ gyms/gym-a/
        topic collector in 1 gymtimer/all/ gyms/all/
        topic all/gym/ask out 1 gymtimer/ gyms/gym-a/
        topic all/gym/answer/+ in 1 gymtimer/ gyms/gym-a/
        topic all/gym/scores in 1 gymtimer/ gyms/gym-a/

        """)
    }

    @Test func otherPrefixesAndAPlainCentreOnlyWhenAskedFor() throws {
        let plain = try bridge(gym: "north-2", centre: "mqtt://10.0.0.9:1883", insecure: true, prefix: "club", chain: "chain")
        #expect(plain.text.contains("address 10.0.0.9:1883\n"))
        #expect(!plain.text.contains("bridge_cafile"), "no TLS lines for mqtt://")
        #expect(plain.topics.first == "topic +/workout out 1 club/ chain/north-2/")
        #expect(plain.topics.last == "topic all/gym/scores in 1 club/ chain/north-2/")
        #expect(plain.notificationTopic == "club/all/bridge")
        #expect(throws: ChainBridgeError.self) { try bridge(centre: "mqtt://10.0.0.9:1883") }
    }

    @Test(arguments: [
        ("gym", "all"), ("gym", "Gym-A"), ("gym", "gym-a\nconnection evil"), ("gym", "gym a"), ("gym", ""),
        ("username", "gym-a\nremote_password x"), ("username", "gym a"), ("username", ""),
        ("password", "pass\ntopic # both 2"), ("password", "pass\rtopic # both"), ("password", " lead"), ("password", "trail "),
        ("password", "line\u{2028}sep"), ("password", ""),
        ("ca", "etc/ca.crt"), ("ca", "/etc/ca.crt\ntopic # both 2"), ("ca", "/etc/my ca.crt"), ("ca", nil),
        ("prefix", "gym timer"), ("prefix", "gym/timer"), ("prefix", "#"), ("prefix", "a\nb"),
        ("chain", "gyms\ntopic # both"), ("chain", "+"),
        ("centre", "mqtts://central\n.example:8883"), ("centre", "mqtts://central example:8883"), ("centre", "https://central:443"),
        ("centre", "mqtts://user@central:8883"),
    ] as [(String, String?)])
    func aHostileOrWrongInputIsRefusedInOneLine(field: String, value: String?) throws {
        let error = #expect(throws: ChainBridgeError.self) {
            switch field {
            case "gym": _ = try bridge(gym: value!)
            case "username": _ = try bridge(username: value!)
            case "password": _ = try bridge(password: value!)
            case "ca": _ = try bridge(caFile: value)
            case "prefix": _ = try bridge(prefix: value!)
            case "chain": _ = try bridge(chain: value!)
            default: _ = try bridge(centre: value!)
            }
        }
        let message = error?.description ?? ""
        #expect(!message.isEmpty && !message.contains("\n") && !message.contains("\r"), "one line: \(message)")
    }

    @Test func theCentresACLKeepsEachGymUnderItsOwnTopics() throws {
        #expect(try ChainCentreACL(gyms: ["gym-a", "gym-b"]).text == """
        # GymTimer: the chain's central broker ACL (docs/chain.md), written by `gymtimer chain centre`.
        # mosquitto.conf: acl_file pointing here, password_file with an account per gym, one for the collectors and one for the chain's console.

        user gym-a
        topic readwrite gyms/gym-a/#
        topic read gyms/all/collector

        user gym-b
        topic readwrite gyms/gym-b/#
        topic read gyms/all/collector

        user collector
        topic read gyms/+/+/workout
        topic read $share/central/gyms/+/+/workout
        topic write gyms/+/+/ack
        topic write gyms/+/+/cmd
        topic read gyms/+/+/status
        topic read gyms/+/+/event
        topic read gyms/+/+/card-ask
        topic write gyms/+/+/card
        topic read gyms/+/all/gym/ask
        topic read $share/central/gyms/+/all/gym/ask
        topic write gyms/+/all/gym/answer/+
        topic write gyms/+/all/gym/scores
        topic readwrite gyms/all/#

        user console
        topic read gyms/+/+/status
        topic read gyms/+/+/state
        topic read gyms/+/+/event
        topic read gyms/all/gym/scores

        """)
        for gyms in [[], ["all"], ["gym-a", "gym-a"], ["gym-a\nuser collector"], ["gym a"]] {
            #expect(throws: ChainBridgeError.self, "\(gyms)") { try ChainCentreACL(gyms: gyms) }
        }
        #expect(throws: ChainBridgeError.self) { try ChainCentreACL(gyms: ["gym-a"], collectors: "gym-a") }
        #expect(throws: ChainBridgeError.self) { try ChainCentreACL(gyms: ["gym-a"], collectors: "c\ntopic readwrite #") }
        #expect(throws: ChainBridgeError.self) { try ChainCentreACL(gyms: ["gym-a"], sharedGroup: "a b") }
        #expect(throws: ChainBridgeError.self) { try ChainCentreACL(gyms: ["console"]) }
    }

    @Test func theCommandWritesTheSnippetReadableByItsOwnerOnly() throws {
        let directory = testDirectory("chain-command")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let gymtimer = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("gymtimer").path
        try "s3cret pass\n".write(toFile: "\(directory)/gym-a.pass", atomically: true, encoding: .utf8)
        try "PEM\n".write(toFile: "\(directory)/ca.crt", atomically: true, encoding: .utf8)
        let output = "\(directory)/gymtimer-chain.conf"
        try "old\n".write(toFile: output, atomically: false, encoding: .utf8)
        _ = chmod(output, 0o644)
        let arguments = [
            "chain", "bridge", "--gym", "gym-a", "--centre", "mqtts://central.example.org:8883", "--password-file", "\(directory)/gym-a.pass",
            "--ca-file", "\(directory)/ca.crt",
        ]
        let written = try run(gymtimer, arguments + ["--output", output])
        #expect(written.status == 0)
        let expected = try bridge(password: "s3cret pass", caFile: "\(directory)/ca.crt").text
        #expect(try String(contentsOfFile: output, encoding: .utf8) == expected)
        var info = stat()
        #expect(stat(output, &info) == 0 && info.st_mode & 0o777 == 0o600, "mode 0600: it holds the gym's password")
        let printed = try run(gymtimer, arguments)
        #expect(printed.output == expected)

        let hostile = try run(gymtimer, arguments + ["--gym", "gym-a\ntopic # both 2"])
        #expect(hostile.status == 2 && hostile.output.isEmpty, "refused, nothing written: \(hostile.output)")
        let acl = try run(gymtimer, ["chain", "centre", "--gyms", "gym-a,gym-b"])
        let expectedACL = try ChainCentreACL(gyms: ["gym-a", "gym-b"]).text
        #expect(acl.status == 0 && acl.output == expectedACL)
    }

    /// Runs `executable` and waits: its exit status and what it printed on stdout.
    func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
