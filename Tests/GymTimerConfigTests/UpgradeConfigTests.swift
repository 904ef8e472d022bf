import GymTimerConfig
import GymTimerCore
import Testing

/// `[upgrade] window`: the hours a station may upgrade unasked, and each way to get it wrong.
@Suite struct UpgradeConfigTests {
    @Test func aWindowAcrossMidnight() throws {
        let configuration = try GymTimerConfiguration.parse("[upgrade]\nwindow = \"23:30-05:00\"\n")
        let window = try #require(configuration.upgrade.window)
        #expect(window.description == "23:30–05:00")
        #expect(window.contains(minute: 0) && !window.contains(minute: 12 * 60))
        #expect(try GymTimerConfiguration.parse("").upgrade.window == nil, "none: only asked-for upgrades")
    }

    @Test func mistakes() {
        #expect(problems("[upgrade]\nwindow = \"02:00\"\n") == [
            "upgrade.window = \"02:00\": is written \"HH:MM-HH:MM\", like \"02:00-05:00\" (local time; it may cross midnight)"
        ])
        #expect(problems("[upgrade]\nwindow = \"2:00-5:00\"\n") == [
            "upgrade.window = \"2:00-5:00\": the times are written HH:MM, 00:00 to 23:59, like \"02:00-05:00\""
        ])
        #expect(problems("[upgrade]\nwindow = \"03:00-03:00\"\n") == [
            "upgrade.window = \"03:00-03:00\": from and until are the same time, like \"02:00-05:00\""
        ])
        #expect(problems("[upgrade]\nwindow = 3\n") == ["upgrade.window = 3: must be a string"])
        #expect(problems("[upgrade]\nwindows = \"02:00-05:00\"\n").first?.contains("unknown key") == true)
    }
}
