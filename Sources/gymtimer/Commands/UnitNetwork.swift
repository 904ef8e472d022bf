import ArgumentParser
import Foundation
import GymTimerConfig

/// `gymtimer unit-network`: the systemd drop-in that lets the installed service reach its
/// `[fleet]` broker and nothing else (UnitNetworkRule). Printed, or with `--write` written in
/// place (removed without a `[fleet]`, so the service keeps no network). install.sh, the
/// package's postinst and gymtimer-config.service (on every config change) run it.
struct UnitNetwork: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unit-network",
        abstract: "Print (or --write) the systemd drop-in opening the service's network to its [fleet] broker only.")

    @Option(help: "The TOML config file.")
    var config = defaultKioskConfigPath

    @Option(help: "Write the drop-in to this file (\(UnitNetworkRule.defaultPath)), or remove it without a [fleet].")
    var write: String?

    @Option(help: .hidden)
    var resolvConf = "/etc/resolv.conf"

    func run() throws {
        let configuration = try loadConfiguration(config)
        let resolvText = (try? String(contentsOfFile: resolvConf, encoding: .utf8)) ?? ""
        let rule: UnitNetworkRule?
        do {
            rule = try UnitNetworkRule.make(fleet: configuration.fleet, resolvConf: resolvText, resolve: HostAddresses.resolve)
        } catch {
            throw CLIError.usage("\(config): \(error)")
        }
        guard let write else {
            if let rule { print(rule.dropIn, terminator: "") } else { StandardError.writeLine("\(config): no [fleet]: the service keeps no network (no drop-in)") }
            return
        }
        let manager = FileManager.default
        guard let rule else {
            if manager.fileExists(atPath: write) {
                do { try manager.removeItem(atPath: write) } catch { throw CLIError.failed("cannot remove \(write): \(error.localizedDescription)") }
            }
            print("\(write): none (no [fleet]): the service keeps no network")
            return
        }
        let old = try? String(contentsOfFile: write, encoding: .utf8)
        if old != rule.dropIn {
            do {
                try manager.createDirectory(atPath: (write as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try rule.dropIn.write(toFile: write, atomically: true, encoding: .utf8)
                try manager.setAttributes([.posixPermissions: 0o644], ofItemAtPath: write)
            } catch {
                throw CLIError.failed("cannot write \(write): \(error.localizedDescription) (run as root)")
            }
        }
        let allowed = (rule.brokerAddresses + rule.resolvers).joined(separator: " ")
        print("\(write): \(old == rule.dropIn ? "unchanged" : "written"): the service may reach \(rule.broker) (\(allowed), localhost) and nothing else")
    }
}
