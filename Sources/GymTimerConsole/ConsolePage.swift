/// The console's page: one HTML document (made per request from Page/console.html, every value
/// in it escaped), its stylesheet and its script (Page/console.css, Page/console.js), all served
/// by the binary (ConsolePage+Files): nothing from the internet, so the page
/// works on a gym's LAN with no way out. The script builds every tile with `textContent`,
/// never markup, and counts each countdown down from the station's published deadline.
public enum ConsolePage {
    /// What the page says about the lock.
    public enum Lock: Hashable, Sendable {
        /// No `--pin-file`: the page only shows the floor.
        case noPIN
        case locked(message: String?)
        /// Logged in: the page carries the session's anti-forgery token.
        case unlocked(csrf: String)
    }

    /// Which page: the coach's (the floor, the class controls, the scores) or the TV's (the
    /// floor's clocks and the leaderboard, full screen, large type, no controls).
    public enum View: Hashable, Sendable {
        case coach, tv
    }

    public static func html(title: String, lock: Lock, view: View = .coach) -> String {
        if view == .tv { return tv(title: title) }
        let csrf: String
        var lockPanel: String
        switch lock {
        case .noPIN:
            csrf = ""
            lockPanel = #"<p class="note">Read-only: start the console with <code>--pin-file</code> to run classes from here.</p>"#
        case .locked(let message):
            csrf = ""
            lockPanel = """
                <form id="login" method="post" action="/login" autocomplete="off">
                <label for="pin">Coach's PIN</label>
                <input id="pin" name="pin" type="password" inputmode="numeric" maxlength="64" required>
                <button type="submit">Sign in</button></form>
                """
            if let message {
                lockPanel += #"<p id="login-error" class="error" role="alert">\#(ConsoleHTML.escape(message))</p>"#
            }
        case .unlocked(let token):
            csrf = token
            lockPanel = """
                <form id="logout" method="post" action="/logout"><input type="hidden" name="csrf" value="\(ConsoleHTML.escape(token))">
                <span class="unlocked">Coach signed in</span> <button type="submit">Sign out</button></form>
                """
        }
        let classPanel = csrf.isEmpty ? "" : coachControls
        return document(
            title: title, csrf: csrf, bodyClass: csrf.isEmpty ? "viewer" : "coach",
            header: #"<a class="tv-link" href="/tv">TV view</a>"# + lockPanel, classPanel: classPanel,
            chart: #"<h2>This week</h2><div id="chart"></div>"#)
    }

    /// The TV's page: the same floor and scores, fed by the same events, without any control.
    static func tv(title: String) -> String {
        document(title: title, csrf: "", bodyClass: "tv", header: "", classPanel: "", chart: #"<div id="chart" hidden></div>"#)
    }

    /// The document both pages are: the header (`header` after the broker's state), the floor,
    /// `classPanel`, the scores and `chart`; every value in it escaped by the caller or here.
    private static func document(title: String, csrf: String, bodyClass: String, header: String, classPanel: String, chart: String) -> String {
        documentTemplate.filled([
            "csrf": ConsoleHTML.escape(csrf), "title": ConsoleHTML.escape(title), "body-class": bodyClass,
            "header": header, "class-panel": classPanel, "chart": chart,
        ])
    }
}
