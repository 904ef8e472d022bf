import Testing
@testable import GymTimerConsole

@Suite struct ConsoleLockTests {
    let pin = try! ConsolePIN.checked("4821").get()

    @Test func thePINMatchesOnlyItself() {
        #expect(pin.matches("4821"))
        #expect(!pin.matches("4822"))
        #expect(!pin.matches("482"))
        #expect(!pin.matches("48210"))
        #expect(!pin.matches(""))
        #expect(!ConsolePIN.constantTimeEqual(Array(repeating: 1, count: 256), []))
        #expect(ConsolePIN.constantTimeEqual([], []))
    }

    @Test func shortOrUnprintablePINsAreRefused() {
        #expect(throws: ConsolePIN.Problem.self) { try ConsolePIN.checked("123").get() }
        #expect(throws: ConsolePIN.Problem.self) { try ConsolePIN.checked("12 34").get() }
        #expect(throws: ConsolePIN.Problem.self) { try ConsolePIN.checked(String(repeating: "1", count: 65)).get() }
    }

    @Test func fiveWrongPINsLockOutTheirAddressOnly() {
        var sessions = ConsoleSessions(random: { "t" })
        for _ in 0..<4 { #expect(sessions.login("0000", pin: pin, now: 100, from: "10.0.0.66") == .wrongPIN) }
        #expect(sessions.login("0000", pin: pin, now: 100, from: "10.0.0.66") == .wrongPIN)
        // Locked out: even the right PIN is not looked at, from that address.
        #expect(sessions.login("4821", pin: pin, now: 130, from: "10.0.0.66") == .lockedOut(seconds: 30))
        // The coach's phone, on another address, is not.
        guard case .opened(let session) = sessions.login("4821", pin: pin, now: 131, from: "10.0.0.7") else {
            Issue.record("a guesser on another address locked the coach out")
            return
        }
        #expect(sessions.session(session.id, now: 200) == session)
        #expect(sessions.session(session.id, now: 131 + ConsoleSessions.lifetime) == nil)
        #expect(sessions.session("other", now: 200) == nil)
        sessions.logout(session.id)
        #expect(sessions.session(session.id, now: 200) == nil)
        if case .opened = sessions.login("4821", pin: pin, now: 161, from: "10.0.0.66") {} else {
            Issue.record("the right PIN after the lock-out opens a session")
        }
    }

    /// A guesser with many addresses: past 20 wrong PINs in 10 minutes, only devices that have
    /// opened a session before may try; the coach's phone keeps its way in.
    @Test func aGuesserWithManyAddressesLocksOutOnlyDevicesNeverLoggedIn() {
        var sessions = ConsoleSessions(random: { "t" })
        guard case .opened = sessions.login("4821", pin: pin, now: 0, from: "10.0.0.7") else {
            Issue.record("the coach logs in")
            return
        }
        for n in 0..<ConsoleSessions.floodFailures {
            #expect(sessions.login("0000", pin: pin, now: 10 + Double(n), from: "10.0.1.\(n % 250)") == .wrongPIN)
        }
        #expect(sessions.login("4821", pin: pin, now: 40, from: "10.0.2.1") == .lockedOut(seconds: 570), "a new device waits")
        if case .opened = sessions.login("4821", pin: pin, now: 41, from: "10.0.0.7") {} else {
            Issue.record("the coach's phone, which logged in before, is let in")
        }
        if case .opened = sessions.login("4821", pin: pin, now: 611, from: "10.0.2.1") {} else {
            Issue.record("once the window has room, a new device may try")
        }
    }
    @Test func sessionTokensAreRandomHex() {
        let a = ConsoleSessions.token(), b = ConsoleSessions.token()
        #expect(a.count == 64 && a != b && a.allSatisfy(\.isHexDigit))
    }

    @Test func anActionNeedsTheOriginTheSessionAndItsToken() {
        let session = ConsoleSessions.Session(id: "s", csrf: "token-1", expires: 1000)
        let host = "127.0.0.1:8080"
        #expect(ConsoleRequestCheck.check(session: session, token: "token-1", origin: "http://127.0.0.1:8080", referer: nil, host: host) == nil)
        #expect(ConsoleRequestCheck.check(session: session, token: "token-1", origin: "http://evil.example", referer: nil, host: host)
            == .foreignOrigin("http://evil.example"))
        #expect(ConsoleRequestCheck.check(session: session, token: "token-1", origin: nil, referer: nil, host: host) == .foreignOrigin(nil))
        #expect(ConsoleRequestCheck.check(session: session, token: "token-1", origin: nil, referer: "http://127.0.0.1:8080/", host: host) == nil)
        #expect(ConsoleRequestCheck.check(session: session, token: "token-1", origin: nil, referer: "http://127.0.0.1:80801/", host: host)
            == .foreignOrigin(nil))
        #expect(ConsoleRequestCheck.check(session: nil, token: "token-1", origin: "http://127.0.0.1:8080", referer: nil, host: host) == .notLoggedIn)
        #expect(ConsoleRequestCheck.check(session: session, token: "token-2", origin: "http://127.0.0.1:8080", referer: nil, host: host) == .badToken)
        #expect(ConsoleRequestCheck.check(session: session, token: nil, origin: "http://127.0.0.1:8080", referer: nil, host: host) == .badToken)
        #expect(ConsoleRequestCheck.check(session: session, token: "token-1", origin: "http://127.0.0.1:8080", referer: nil, host: nil)
            == .foreignOrigin("http://127.0.0.1:8080"))
    }

    @Test func listenAddressesAreParsed() throws {
        #expect(try ConsoleListen.parse("127.0.0.1:8080").get() == ConsoleListen(host: "127.0.0.1", port: 8080))
        #expect(try ConsoleListen.parse("[::1]:9000").get() == ConsoleListen(host: "::1", port: 9000))
        #expect(try ConsoleListen.parse("gym-pi.local:80").get() == ConsoleListen(host: "gym-pi.local", port: 80))
        for bad in ["8080", ":8080", "host:0", "host:99999", "a b:80", "::1:80", "[::1]80"] {
            #expect(throws: ConsolePIN.Problem.self, "\(bad)") { try ConsoleListen.parse(bad).get() }
        }
    }

    @Test func theConsoleAnswersOnlyToItsOwnHostNames() {
        let lan = ConsoleHosts(listen: ConsoleListen(host: "192.168.1.10", port: 8080), hostname: "gym-server")
        #expect(lan.allows("192.168.1.10:8080"))
        #expect(lan.allows("gym-server:8080") && lan.allows("GYM-SERVER.local:8080") && lan.allows("gym-server.local.:8080"))
        // DNS rebinding: another site's name pointed at the console's address.
        #expect(!lan.allows("evil.example:8080"))
        #expect(!lan.allows("192.168.1.10:8081") && !lan.allows("192.168.1.10") && !lan.allows("localhost:8080"))
        for malformed in [nil, "", "192.168.1.10:", "192.168.1.10:99999", "192.168.1.10:80:80", "a b:8080", "[::1", "::1:8080"] {
            #expect(!lan.allows(malformed), "\(String(describing: malformed))")
        }
        #expect(lan.preferred == "192.168.1.10:8080")
        let loopback = ConsoleHosts(listen: ConsoleListen(host: "127.0.0.1", port: 9000), hostname: "gym-server")
        #expect(loopback.allows("127.0.0.1:9000") && loopback.allows("localhost:9000") && !loopback.allows("gym-server:9000"))
        let every = ConsoleHosts(
            listen: ConsoleListen(host: "0.0.0.0", port: 80), extraNames: ["Timer.Gym.Example"],
            machineAddresses: ["192.168.1.10", "fe80::1", "127.0.0.1"], hostname: "gym-server")
        #expect(every.allows("192.168.1.10") && every.allows("192.168.1.10:80") && every.allows("[fe80::1]") && every.allows("[::1]"))
        #expect(every.allows("timer.gym.example") && every.allows("gym-server") && !every.allows("evil.example"))
        #expect(every.preferred == "timer.gym.example")
        let six = ConsoleHosts(listen: ConsoleListen(host: "::1", port: 8080))
        #expect(six.allows("[::1]:8080") && !six.allows("[::2]:8080"))
        #expect(ConsoleHosts.isValidName("gym-server.example.org") && !ConsoleHosts.isValidName("evil/x") && !ConsoleHosts.isValidName(""))
    }
}
