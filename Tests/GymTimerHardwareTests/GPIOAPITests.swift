import Testing
@testable import GymTimerHardware

/// Which libgpiod the build picked: the API compiled in (from the header) must be the one of
/// the library linked (from its own version string), whichever of the two it is.
@Suite struct GPIOAPITests {
    @Test func compiledAPIMatchesTheLinkedLibrary() {
        #expect([1, 2].contains(gpiodAPIVersion))
        #expect(gpiodLibraryVersion.split(separator: ".").first == "\(gpiodAPIVersion)",
                "header says v\(gpiodAPIVersion), library says \(gpiodLibraryVersion)")
    }

    @Test func libraryVersionIsADottedNumber() {
        let parts = gpiodLibraryVersion.split(separator: ".")
        #expect(parts.count >= 2 && parts.allSatisfy { part in part.allSatisfy(\.isNumber) }, "\(gpiodLibraryVersion)")
    }
}
