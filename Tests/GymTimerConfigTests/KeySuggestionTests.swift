import Testing
@testable import GymTimerConfig

@Suite struct KeySuggestionTests {
    @Test func editDistance() {
        #expect(KeySuggestion.editDistance("step_secs", "step_seconds") == 3)
        #expect(KeySuggestion.editDistance("", "abc") == 3)
        #expect(KeySuggestion.editDistance("kitten", "sitting") == 3)
        #expect(KeySuggestion.editDistance("same", "same") == 0)
    }

    @Test func suggestsOnlyCloseKeys() {
        let keys = ["min_seconds", "max_seconds", "step_seconds"]
        #expect(KeySuggestion.closest(to: "step_secs", among: keys) == "step_seconds")
        #expect(KeySuggestion.closest(to: "min_second", among: keys) == "min_seconds")
        #expect(KeySuggestion.closest(to: "colour", among: keys) == nil)
        #expect(KeySuggestion.closest(to: "clk", among: ["dio"]) == nil)
    }
}
