/// The checks an action's request passes before the console obeys it: a session, a request
/// from the console's own page (its `Origin`), and the session's anti-forgery token. Pure, so
/// each refusal is tested without a server.
public enum ConsoleRequestCheck {
    /// Why an action was refused (each an HTTP 403 or 401 with this text).
    public enum Refusal: Error, Hashable, Sendable, CustomStringConvertible {
        case notLoggedIn
        case foreignOrigin(String?)
        case badToken

        public var description: String {
            switch self {
            case .notLoggedIn: "not logged in: enter the PIN first"
            case .foreignOrigin: "refused: the request did not come from this console's page"
            case .badToken: "refused: the page's token is stale; reload the page"
            }
        }
    }

    /// Whether a browser's request came from a page this console served: its `Origin` (or,
    /// without one, its `Referer`) must be `http://` + the `Host` it was sent to. A request
    /// with neither is refused: every browser the console supports sends `Origin` on a POST.
    public static func sameOrigin(origin: String?, referer: String?, host: String?) -> Bool {
        guard let host, !host.isEmpty else { return false }
        let mine = "http://" + host
        if let origin { return origin == mine }
        if let referer { return referer == mine || referer.hasPrefix(mine + "/") }
        return false
    }

    /// The checks in order: origin, session, token (compared in constant time).
    public static func check(
        session: ConsoleSessions.Session?, token: String?, origin: String?, referer: String?, host: String?
    ) -> Refusal? {
        guard sameOrigin(origin: origin, referer: referer, host: host) else { return .foreignOrigin(origin) }
        guard let session else { return .notLoggedIn }
        guard let token, ConsolePIN.constantTimeEqual(Array(token.utf8), Array(session.csrf.utf8)) else { return .badToken }
        return nil
    }
}
