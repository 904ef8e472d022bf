import ArgumentParser
import Foundation
import GymTimerCommandLine
import GymTimerConsole
import GymTimerCore

/// `gymtimer-console` (what `gymtimer console` runs): the coach's web console
/// (`GymTimerConsole`): every station's tile live, a class started on chosen stations at one
/// instant, pause/resume/reset, today's scores. An executable of its own so that the kiosk's
/// `gymtimer` links no HTTP server (Hummingbird, SwiftNIO): every kiosk process would map and
/// initialise it (peak RSS 14.8 → 23 MB).
@main
struct ConsoleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gymtimer-console",
        abstract: "Serve the coach's web console: the floor live, classes started at one instant, today's scores.",
        version: GymTimerVersion.current)

    @OptionGroup var broker: FleetBrokerOptions

    @Option(name: .long, help: "The address to serve on, HOST:PORT (only that address is bound): 192.168.1.10:8080, 127.0.0.1:8080.")
    var listen: String

    @Option(name: .long, help: ArgumentHelp(
        "A name the gym's devices reach the console by (its DNS name), beside its address and this machine's name; repeat for more.",
        discussion: "Requests naming any other host are refused, so a page on another site cannot reach the console through a browser."))
    var name: [String] = []

    /// Gone: the console asks the collector (`gymtimer collect --db`) over the broker. Kept
    /// (hidden) only to say so in one line rather than ArgumentParser's unknown-option error.
    @Option(name: .long, help: .hidden)
    var db: String?

    @Option(name: .long, help: "The gym's programs built in the console, a JSON file it keeps (without it they last until the console stops).")
    var library: String?

    @Option(name: .customLong("pin-file"), help: "File whose first line is the coach's PIN (4-64 characters); without it the console only shows the floor.")
    var pinFile: String?

    @Option(name: .customLong("client-id"), help: "The console's MQTT client id.")
    var clientID: String?

    @Option(name: .long, help: "On a chain's CENTRAL broker: the chain's prefix C (docs/chain.md); the page shows a gym picker for the floor and the chain's leaderboard.")
    var chain: String?

    @Option(name: .long, help: "With --chain: the gyms to show, comma-separated (default: those whose stations' statuses are seen).")
    var gyms: String?

    func run() async throws {
        if db != nil {
            throw CLIError.usage("--db is gone: the console asks the collector (gymtimer collect --db FILE) over the broker; give the programs' file with --library FILE")
        }
        let address: ConsoleListen
        switch ConsoleListen.parse(listen) {
        case .success(let parsed): address = parsed
        case .failure(let problem): throw CLIError.usage("\(problem)")
        }
        if let bad = name.first(where: { !ConsoleHosts.isValidName($0) }) {
            throw CLIError.usage("--name \(bad): give a host name such as gym-server or gym-server.example.org")
        }
        var pin: ConsolePIN?
        if let pinFile {
            switch ConsolePIN.read(from: pinFile) {
            case .success(let read): pin = read
            case .failure(let problem): throw CLIError.usage("\(problem)")
            }
        }
        let options = try broker.options(clientID: clientID ?? "gymtimer-console-\(getpid())")
        let broadcast = ConsoleBroadcast()
        var chainFloor: ConsoleChainFloor?
        if let chain {
            switch ConsoleChainFloor.parse(chain: chain, gyms: gyms) {
            case .success(let floor): chainFloor = floor
            case .failure(let problem): throw CLIError.usage("\(problem)")
            }
        } else if gyms != nil {
            throw CLIError.usage("--gyms goes with --chain C (the console on the chain's central broker)")
        }
        let link = ConsoleLink(
            options: options, prefix: broker.topicPrefix, broadcast: broadcast, chain: chainFloor, log: { StandardError.writeLine($0) })
        do {
            try link.start()
        } catch {
            throw CLIError.failed("\(error)")
        }
        let hosts = ConsoleHosts.onThisMachine(listen: address, extraNames: name)
        let programs = ConsoleLibrary(path: library)
        if let problem = programs.problem { StandardError.writeLine("console: \(problem)") }
        let server = ConsoleServer(link: link, broadcast: broadcast, gate: ConsoleGate(pin: pin), hosts: hosts, library: programs)
        let lockNote = pin == nil ? "read-only: no --pin-file" : "actions need the PIN"
        // One lifecycle (ConsoleServer.run): the server and the link in one ServiceGroup;
        // SIGINT or SIGTERM stops them in that order.
        let sides = [ConsoleThreadService(name: "mqtt") { link.stop() }]
        defer { broadcast.finish() }
        do {
            try await server.run(listen: address, sides: sides) { port in
                StandardError.writeLine("console: serving http://\(ConsoleListen(host: address.host, port: port)) (\(lockNote))")
            }
        } catch {
            throw CLIError.failed("console on \(address): \(error)")
        }
    }
}
