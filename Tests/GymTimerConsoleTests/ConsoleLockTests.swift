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

    @Test func aWrongPINOpensNoSessionAndFiveLockTheConsoleOut() {
        var sessions = ConsoleSessions(random: { "t" })
        for _ in 0..<4 { #expect(sessions.login("0000", pin: pin, now: 100) == .wrongPIN) }
        #expect(sessions.login("0000", pin: pin, now: 100) == .wrongPIN)
        // Locked out: even the right PIN is not looked at.
        #expect(sessions.login("4821", pin: pin, now: 130) == .lockedOut(seconds: 30))
        guard case .opened(let session) = sessions.login("4821", pin: pin, now: 161) else {
            Issue.record("the right PIN after the lock-out opens a session")
            return
        }
        #expect(sessions.session(session.id, now: 200) == session)
        #expect(sessions.session(session.id, now: 161 + ConsoleSessions.lifetime) == nil)
        #expect(sessions.session("other", now: 200) == nil)
        sessions.logout(session.id)
        #expect(sessions.session(session.id, now: 200) == nil)
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
}
