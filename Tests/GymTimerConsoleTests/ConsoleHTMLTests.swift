import GymTimerFleet
import Testing
@testable import GymTimerConsole

@Suite struct ConsoleHTMLTests {
    @Test func escapesEveryCharacterHTMLGivesAMeaning() {
        #expect(ConsoleHTML.escape(#"<img src=x onerror="a('b')">&"#) == "&lt;img src=x onerror=&quot;a(&#39;b&#39;)&quot;&gt;&amp;")
    }

    @Test func thePageEscapesTheTitleTheTokenAndTheLoginMessage() {
        let page = ConsolePage.html(title: "<b>gym</b>", lock: .locked(message: "<script>x</script>"))
        #expect(page.contains("&lt;b&gt;gym&lt;/b&gt;"))
        #expect(page.contains("&lt;script&gt;x&lt;/script&gt;"))
        #expect(!page.contains("<script>x"))
        let unlocked = ConsolePage.html(title: "t", lock: .unlocked(csrf: "\"><x"))
        #expect(unlocked.contains(#"content="&quot;&gt;&lt;x""#))
        #expect(!unlocked.contains("\"><x"))
    }

    @Test func aLockedPageCarriesNoTokenAndNoClassControls() {
        let page = ConsolePage.html(title: "t", lock: .locked(message: nil))
        #expect(page.contains(#"<meta name="csrf" content="">"#))
        #expect(!page.contains(#"id="start""#))
        #expect(page.contains(#"name="pin""#))
        #expect(ConsolePage.html(title: "t", lock: .unlocked(csrf: "abc")).contains(#"id="start""#))
    }

    @Test func theTVPageHasTheFloorAndScoresAndNoControlWhateverTheSession() {
        let tv = ConsolePage.html(title: "<gym>", lock: .unlocked(csrf: "abc"), view: .tv)
        #expect(tv.contains(#"<body class="tv">"#) && tv.contains(#"id="floor""#) && tv.contains(#"id="boards""#))
        #expect(tv.contains(#"<meta name="csrf" content="">"#) && tv.contains("&lt;gym&gt;"))
        for control in ["<button", "<input", "<select", "<form"] { #expect(!tv.contains(control), "\(control)") }
    }

    /// The page's files (Page/, embedded in the binary): every slot of the document filled, each
    /// file served without the newline that ends it, the script's escapes as the browser needs them.
    @Test func thePagesFilesAreFilledAndServedAsTheyAre() {
        for lock in [ConsolePage.Lock.noPIN, .locked(message: "m"), .unlocked(csrf: "abc")] {
            let page = ConsolePage.html(title: "t", lock: lock)
            #expect(!page.contains("{{") && page.hasPrefix("<!doctype html>") && page.hasSuffix("</body></html>"))
        }
        #expect(ConsoleTemplate("a{{x}}b{{y}}{{x}}").filled(["x": "1", "y": "2"]) == "a1b21")
        #expect(ConsolePage.css.hasPrefix(":root") && ConsolePage.css.hasSuffix("} }"))
        #expect(ConsolePage.script.contains(#"names.join("\n")"#) && ConsolePage.script.hasSuffix("setInterval(tick, 200);"))
    }

    @Test func theChartEscapesStationNames() {
        let week = GymScores.Week(days: ["2026-11-24"], stations: ["<rack>"], counts: [[2]])
        let svg = ConsoleChart.svg(week)
        #expect(svg.hasPrefix("<svg"))
        #expect(svg.contains("&lt;rack&gt;: 2 on 2026-11-24"))
        #expect(!svg.contains("<rack>"))
    }

    @Test func formFieldsAreDecoded() {
        #expect(ConsoleForm.value("pin", in: "a=1&pin=12%2034+5") == "12 34 5")
        #expect(ConsoleForm.value("pin", in: "a=1") == nil)
        #expect(ConsoleForm.value("pin", in: "pin=%zz") == nil)
        #expect(ConsoleForm.value("pin", in: "pin=%ff") == nil)
    }
}
