/// The page's files (Page/), embedded in the binary when it is built (SwiftPM's
/// `.embedInCode` resources: `PackageResources`, one [UInt8] a file): one binary, nothing to
/// install beside it, and each file read and changed as what it is (HTML, CSS, JavaScript).
extension ConsolePage {
    /// The stylesheet (`/console.css`), the coach's, the TV's and the athlete's pages' alike.
    public static let css = fileText(PackageResources.console_css)
    /// The script (`/console.js`): it builds the floor, the scores and the class controls.
    public static let script = fileText(PackageResources.console_js)
    /// The health view's script (`/health.js`): its upgrade buttons, for the signed-in coach.
    public static let healthScript = fileText(PackageResources.health_js)
    /// The document both pages are, its `{{…}}` slots split out once.
    static let documentTemplate = ConsoleTemplate(fileText(PackageResources.console_html))
    /// The coach's controls (run a class, the class list, the roster): shown once signed in.
    static let coachControls = fileText(PackageResources.coach_controls_html)

    /// A file's text without the newline that ends every text file: what was served when the
    /// page was Swift literals, byte for byte.
    static func fileText(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }
}
