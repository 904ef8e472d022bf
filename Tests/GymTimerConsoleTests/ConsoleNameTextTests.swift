import Foundation
import GymTimerBenchSupport
import GymTimerCore
import GymTimerFleet
import Synchronization
import Testing
@testable import GymTimerConsole

/// The console's entry points for names, through its real request handlers (`ConsoleServer`
/// on loopback, signed in as the coach's page is: session cookie, token, Origin): the program
/// builder (`/api/program`), a roster edit (`/api/roster-name`, `/api/roster-rename`) and a
/// class's program name (`/api/class`) each refuse a name holding a control or format
/// character with a 400 whose one-line message names the character and shows none; the
/// builder still saves a name in any script.
@Suite(.serialized) struct ConsoleNameTextTests {
    /// A console serving on a free loopback port until `body` returns, with its coach's session.
    func withConsole(_ body: (BenchHTTP, _ cookie: String, _ token: String, ConsoleLibrary) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("console-names-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let port = try LocalBroker.freePort()
        let listen = ConsoleListen(host: "127.0.0.1", port: port)
        let broadcast = ConsoleBroadcast()
        let link = ConsoleLink(options: .init(clientID: "console-names", host: "127.0.0.1", port: 1), prefix: "gymtimer", broadcast: broadcast)
        let gate = ConsoleGate(pin: try ConsolePIN.checked("4821").get())
        let library = ConsoleLibrary(path: directory + "/programs.json")
        let server = ConsoleServer(link: link, broadcast: broadcast, gate: gate, hosts: ConsoleHosts(listen: listen), library: library)
        let ready = Ready()
        let serving = Task { try await server.run(listen: listen, ready: { _ in ready.flag.withLock { $0 = true } }) }
        defer { serving.cancel() }
        // Margins for a loaded machine running every suite at once: the wait ends as soon as it listens.
        let end = ContinuousClock.now + .seconds(120)
        while !ready.flag.withLock({ $0 }), ContinuousClock.now < end { try await Task.sleep(for: .milliseconds(20)) }
        guard ready.flag.withLock({ $0 }) else {
            Issue.record("the console did not listen within 120 s")
            return
        }
        guard case .opened(let session) = gate.login("4821", from: "127.0.0.1") else {
            Issue.record("the PIN did not open a session")
            return
        }
        try await body(BenchHTTP(port: port), "\(ConsoleServer.cookie)=\(session.id)", session.csrf, library)
        serving.cancel()
        _ = await serving.result
    }

    /// `POST path` with `json` as the page sends it, off the cooperative pool (the client blocks):
    /// the status and the response's `message`.
    func post(_ http: BenchHTTP, _ path: String, _ json: [String: Any], cookie: String, token: String) async throws -> (status: Int, message: String) {
        let body = String(decoding: try JSONSerialization.data(withJSONObject: json), as: UTF8.self)
        let port = http.port
        let (status, text) = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(Int, String), Error>) in
            DispatchQueue.global().async {
                continuation.resume(with: Result {
                    let response = try BenchHTTP(port: port).request(
                        "POST", path, body: body, type: "application/json", cookie: cookie, token: token, waiting: 60)
                    return (response.status, response.body)
                })
            }
        }
        let fields = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        return (status, fields?["message"] as? String ?? text)
    }

    /// Whether the server listens yet.
    final class Ready: Sendable {
        let flag = Mutex(false)
    }

    static let rule = "names may not hold control or format characters"

    @Test func theProgramBuilderRefusesSuchANameAndSavesOrdinaryOnes() async throws {
        try await withConsole { http, cookie, token, library in
            for (name, words) in [("\u{202E}Fran", "a right-to-left override (U+202E) at character 1"), ("Fran\nRow", "a line break (U+000A) at character 5")] {
                let said = try await post(http, "/api/program", ["name": name, "label": "FrAn", "kind": "for-time"], cookie: cookie, token: token)
                #expect(said.status == 400, "\(said)")
                #expect(said.message == "Not saved: \"program.name\" has \(words): \(Self.rule)", "\(said)")
                #expect(!said.message.unicodeScalars.contains(where: NameText.isRefused))
            }
            let label = try await post(http, "/api/program", ["name": "Fran", "label": "F\u{2066}", "kind": "for-time"], cookie: cookie, token: token)
            #expect(label.status == 400 && label.message.contains("\"program.label\" has a left-to-right isolate (U+2066) at character 2"), "\(label)")
            #expect(library.all.isEmpty, "nothing refused was saved")
            for name in ["Ångström", "Zoë 北京 💪"] {
                let saved = try await post(http, "/api/program", ["name": name, "label": "FrAn", "kind": "for-time"], cookie: cookie, token: token)
                #expect(saved.status == 200 && saved.message == "Saved \(name) in the gym's programs", "\(saved)")
            }
            #expect(library.all.map(\.name) == ["Ångström", "Zoë 北京 💪"])
        }
    }

    @Test func aRosterEditRefusesSuchANameBeforeAskingTheCollector() async throws {
        try await withConsole { http, cookie, token, _ in
            let named = try await post(http, "/api/roster-name", ["card": "2AECF06F995E56DA14B97703", "name": "\u{202E}Anna Berg"], cookie: cookie, token: token)
            #expect(named.status == 400, "\(named)")
            #expect(named.message == #"the name "\u{202E}Anna Berg" has a right-to-left override (U+202E) at character 1: "# + Self.rule, "\(named)")
            let renamed = try await post(http, "/api/roster-rename", ["id": 3, "name": "Anna\nBerg"], cookie: cookie, token: token)
            #expect(renamed.status == 400, "\(renamed)")
            #expect(renamed.message == #"the name "Anna\u{000A}Berg" has a line break (U+000A) at character 5: "# + Self.rule, "\(renamed)")
            let short = try await post(http, "/api/roster-rename", ["id": 3, "short": "A\u{200B}"], cookie: cookie, token: token)
            #expect(short.status == 400 && short.message.contains("the short name \"A\\u{200B}\" has a zero-width space (U+200B)"), "\(short)")
            // An ordinary name gets past the check to the collector (none runs here: 503, not 400).
            let ordinary = try await post(http, "/api/roster-name", ["card": "2AECF06F995E56DA14B97703", "name": "Zoë Ångström"], cookie: cookie, token: token)
            #expect(ordinary.status == 503, "\(ordinary)")
        }
    }

    @Test func aClassNamingSuchAProgramIsRefused() async throws {
        try await withConsole { http, cookie, token, _ in
            let said = try await post(http, "/api/class", ["stations": ["rack-1"], "program": "\u{202E}Fran", "lead": 10], cookie: cookie, token: token)
            #expect(said.status == 400, "\(said)")
            #expect(said.message.hasSuffix(#""\u{202E}Fran" has a right-to-left override (U+202E) at character 1: "# + Self.rule), "\(said)")
        }
    }
}
