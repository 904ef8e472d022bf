import Foundation
import GymTimerCore
import GymTimerHistory
import GymTimerSetup
import GymTimerSystem
import Testing

/// `gymtimer upgrade run` as the agent's unit runs it, a real process on real files, over a
/// double of apt (shell scripts answering as apt-get and apt-cache do, recording each call):
/// asked for during a rest it waits; forced it installs, and says so in its last line.
@Suite(.enabled(if: GymtimerBinary.isBuilt)) struct UpgradeCommandTests {
    let data = NSTemporaryDirectory() + "upgrade-command-\(UUID().uuidString)"
    var tools: String { data + "/apt" }

    init() throws {
        try FileManager.default.createDirectory(atPath: tools, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: data + "/upgrade", withIntermediateDirectories: true)
        try script("apt-cache", """
            if [ -e \(tools)/installed ]; then v=0.9.0-2; else v=0.9.0-1; fi
            printf 'gymtimer:\\n  Installed: %s\\n  Candidate: 0.9.0-2\\n' "$v"
            """)
        try script("apt-get", "case \"$*\" in *--download-only*) ;; install*) touch \(tools)/installed ;; esac")
        try Data("Types: deb\n".utf8).write(to: URL(fileURLWithPath: data + "/gymtimer.sources"))
        try Data("[history]\npath = \"\(data)/history.sqlite\"\n".utf8).write(to: URL(fileURLWithPath: data + "/config.toml"))
        // The kiosk mid-rest, in its journal, and its request for an upgrade.
        var kiosk = Kiosk(settings: KioskSettings())
        _ = kiosk.start(at: Moment(.seconds(0)))
        _ = kiosk.handle(.pressed(.start), at: Moment(.seconds(1)))
        _ = kiosk.handle(.released(.start), at: Moment(.seconds(1.1)))
        let history = HistoryStore.opening(path: data + "/history.sqlite", faults: FaultLog { _ in })
        KioskStore(directory: data, history: history, faults: FaultLog { _ in }).save(kiosk: kiosk, held: [:], at: Moment(.seconds(2)))
        try Data("{\"at\":1,\"id\":\"ha\"}\n".utf8).write(to: URL(fileURLWithPath: data + "/upgrade/request"))
    }

    func script(_ name: String, _ body: String) throws {
        let path = tools + "/" + name
        try Data("#!/bin/sh\necho \"$(basename \"$0\") $*\" >> \(tools)/calls\n\(body)\n".utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o755)
    }

    func agent(_ extra: [String]) throws -> GymtimerBinary.Outcome {
        try GymtimerBinary.run(["upgrade", "run", "--config", data + "/config.toml", "--sources", data + "/gymtimer.sources", "--apt-tools", tools] + extra)
    }

    var calls: [String] {
        ((try? String(contentsOfFile: tools + "/calls", encoding: .utf8)) ?? "").split(separator: "\n").map { String($0.split(separator: " ").prefix(3).joined(separator: " ")) }
    }

    var status: String? { try? String(contentsOfFile: data + "/upgrade/status.json", encoding: .utf8) }

    @Test func aRequestWaitsForTheRestThenForceInstalls() throws {
        let waiting = try agent(["--wait", "0"])
        #expect(waiting.status == 0, "waiting is no failure: \(waiting.stderr)")
        #expect(waiting.stdout.split(separator: "\n").last == "not upgrading now: a rest is counting down")
        #expect(calls == ["apt-get -q update", "apt-cache policy gymtimer", "apt-get install --download-only"])
        #expect(status == "{\"installed\":\"0.9.0-1\",\"latest\":\"0.9.0-2\"}\n")
        #expect(FileManager.default.fileExists(atPath: data + "/upgrade/request"), "still asked for")
        #expect(FileManager.default.fileExists(atPath: data + "/state.journal"), "the journal only read")

        let forced = try agent(["--force"])
        #expect(forced.status == 0)
        #expect(forced.stdout.split(separator: "\n").last == "upgraded gymtimer 0.9.0-1 → 0.9.0-2")
        #expect(calls.suffix(3) == ["apt-get install --download-only", "apt-get install -y", "apt-cache policy gymtimer"])
        #expect(status == "{\"installed\":\"0.9.0-2\",\"latest\":\"0.9.0-2\"}\n")
        #expect(!FileManager.default.fileExists(atPath: data + "/upgrade/request"), "done: the request removed")
    }

    @Test func aBadWaitAndAMissingSourceAreOneLineEach() throws {
        let bad = try agent(["--wait", "90000"])
        #expect(bad.status != 0 && bad.stderr.contains("--wait is 0 to 86400 seconds"))
        try FileManager.default.removeItem(atPath: data + "/gymtimer.sources")
        let missing = try agent([])
        #expect(missing.status == 1)
        #expect(missing.stdout.split(separator: "\n").last
            == "upgrade failed: refreshing the gym's package source: no \(data)/gymtimer.sources: point the station at the gym's repository first (docs/upgrades.md)")
    }
}
