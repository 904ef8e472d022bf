import Foundation
import GymTimerCollector
import GymTimerFleetCommands
import GymTimerFleetLink
import GymTimerStationLink
import GymTimerUpgrade
import GymTimerTestSupport
import Testing

/// The apt commands the upgrade agent runs, against a double of apt-get and apt-cache (shell
/// scripts that log their arguments and answer as apt does): only the gym's source is read,
/// nothing is ever installed without apt's signature check, and apt's own error reaches the log.
@Suite struct AptPackageSourceTests {
    let tools = testDirectory("apt-double")

    init() throws {
        let policy = """
            gymtimer:
              Installed: 0.9.0-1
              Candidate: 0.9.0-2
              Version table:
                 0.9.0-2 500
                    500 http://gym.local/apt stable/main amd64 Packages
             *** 0.9.0-1 100
                    100 /var/lib/dpkg/status
            """
        try script("apt-cache", "cat <<'EOF'\n\(policy)\nEOF")
        try script("apt-get", """
            if [ -e \(tools)/unsigned ]; then
              echo "Err:1 http://gym.local/apt stable InRelease"
              echo "E: The repository 'http://gym.local/apt stable InRelease' is not signed." >&2
              exit 100
            fi
            echo "DEBIAN_FRONTEND=$DEBIAN_FRONTEND LC_ALL=$LC_ALL"
            """)
    }

    func script(_ name: String, _ body: String) throws {
        let path = tools + "/" + name
        try Data("#!/bin/sh\necho \"$0 $*\" >> \(tools)/calls\n\(body)\n".utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o755)
    }

    var calls: [String] {
        ((try? String(contentsOfFile: tools + "/calls", encoding: .utf8)) ?? "").split(separator: "\n").map {
            $0.replacingOccurrences(of: tools + "/", with: "")
        }
    }

    var source: AptPackageSource { AptPackageSource(sourcesFile: tools + "/gymtimer.sources", tools: tools) }

    @Test func eachStepRunsApt() throws {
        try Data("Types: deb\n".utf8).write(to: URL(fileURLWithPath: tools + "/gymtimer.sources"))
        try source.refresh()
        #expect(try source.versions() == PackageVersions(installed: "0.9.0-1", candidate: "0.9.0-2"))
        try source.download()
        try source.install()
        let only = "-o Dir::Etc::SourceList=\(tools)/gymtimer.sources -o Dir::Etc::SourceParts=- -o APT::Get::List-Cleanup=0"
            .replacingOccurrences(of: tools + "/", with: "")
        let keep = "-y -q --only-upgrade -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold gymtimer gymtimer-server"
        #expect(calls == [
            "apt-get -q update --error-on=any \(only)", "apt-cache policy gymtimer \(only)",
            "apt-get install --download-only \(keep)", "apt-get install \(keep)",
        ])
        #expect(!calls.joined().contains("allow-unauthenticated") && !calls.joined().contains("trusted"))
    }

    @Test func aRepositoryAptRefusesIsTheErrorsReason() throws {
        try Data("Types: deb\n".utf8).write(to: URL(fileURLWithPath: tools + "/gymtimer.sources"))
        _ = FileManager.default.createFile(atPath: tools + "/unsigned", contents: nil)
        #expect(throws: UpgradeError(
            "refreshing the gym's package source",
            "apt-get exited with 100: Err:1 http://gym.local/apt stable InRelease / E: The repository 'http://gym.local/apt stable InRelease' is not signed."
        )) { try source.refresh() }
    }

    @Test func noSourcesFileSaysWhatToDo() {
        #expect(throws: UpgradeError(
            "refreshing the gym's package source",
            "no \(tools)/gymtimer.sources: point the station at the gym's repository first (docs/upgrades.md)"
        )) { try source.refresh() }
        #expect(calls.isEmpty)
    }

    @Test func policyWithNothingInstalled() {
        let versions = AptPackageSource.parsePolicy("gymtimer:\n  Installed: (none)\n  Candidate: 0.9.0-2\n")
        #expect(versions == PackageVersions(installed: nil, candidate: "0.9.0-2"))
        #expect(!versions.offersNewer)
    }
}
