import GymTimerCore
import Testing

/// How the signed-out world names an athlete: the initial by default, their short name, or
/// `guest` for a member who opts out.
@Suite struct PublicNameTests {
    @Test(arguments: [
        (PublicName.initial, "Anna Maria Berg", "AnnA", "Anna B."),
        (.initial, "Madonna", "AdOn", "Madonna"),
        (.short, "Anna Berg", "AnnA", "AnnA"),
        (.short, "Anna Berg", "", "Anna B."),
        (.guest, "Anna Berg", "AnnA", "guest"),
    ])
    func eachChoiceShows(choice: PublicName, name: String, short: String, shown: String) {
        #expect(choice.shown(name: name, shortName: short) == shown)
    }

    @Test func theChoicesAreTheirWords() {
        #expect(PublicName.allCases.map(\.rawValue) == ["initial", "short", "guest"])
        #expect(PublicName(rawValue: "full") == nil, "a full name is never a choice")
    }
}
