import ArgumentParser
import Glibc
import GymTimerHAL
import SystemPackage
import GymTimerCommandLine
import GymTimerConfig

/// `gymtimer chain bridge`: a gym's Mosquitto bridge to the chain's central broker
/// (`ChainBridge`), for /etc/mosquitto/conf.d/: on stdout, or written mode 0600 (it holds the
/// gym's password) with `--output`.
struct ChainBridgeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bridge",
        abstract: "Write a gym's Mosquitto bridge to the chain's central broker (a conf.d snippet).")

    @Option(help: "The gym's name in the chain (1 to 32 of a-z, 0-9 and -; not \"all\").")
    var gym: String

    @Option(help: "The central broker: mqtts://HOST:PORT.")
    var centre: String

    @Option(help: "The gym's account on the central broker (default: the gym's name, as `gymtimer chain centre` names it).")
    var username: String?

    @Option(name: .customLong("password-file"), help: "A file holding the account's password on its first line.")
    var passwordFile: String

    @Option(name: .customLong("ca-file"), help: "The CA certificate (PEM) that signed the central broker's certificate.")
    var caFile: String?

    @Option(help: "The gym's own topic prefix (its stations' [fleet] topic_prefix).")
    var prefix = "gymtimer"

    @Option(help: "The chain's topic prefix on the central broker.")
    var chain = "gyms"

    @Flag(help: "Allow a plain mqtt:// centre (password and records in clear: a private network only).")
    var insecure = false

    @Option(help: "Write the snippet here (mode 0600) instead of printing it, e.g. /etc/mosquitto/conf.d/gymtimer-chain.conf.")
    var output: String?

    func run() throws {
        let password: String
        do {
            password = try FleetPassword.read(from: passwordFile)
        } catch {
            throw CLIError.usage("--password-file: \(error)")
        }
        if let caFile, let why = FleetFiles.whyUnreadable(caFile) {
            throw CLIError.usage("--ca-file \(caFile) \(why) (the PEM that signed the central broker's certificate)")
        }
        let bridge: ChainBridge
        do {
            bridge = try ChainBridge(
                gym: gym, centre: centre, insecure: insecure, username: username ?? gym, password: password, caFile: caFile,
                prefix: prefix, chain: chain)
        } catch {
            throw CLIError.usage(error.description)
        }
        guard let output else {
            print(bridge.text, terminator: "")
            return
        }
        try write(bridge.text, to: output)
    }

    /// Writes `text` to `path`, readable by its owner only (mode 0600 even if the file was there).
    private func write(_ text: String, to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw CLIError.failed("--output \(path): cannot be written: \(Errno.last.text)") }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        guard fchmod(fd, 0o600) == 0, written == bytes.count else {
            throw CLIError.failed("--output \(path): could not be written whole: \(Errno.last.text)")
        }
    }
}
