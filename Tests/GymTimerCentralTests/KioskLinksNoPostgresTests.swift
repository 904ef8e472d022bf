import Foundation
import Testing

/// The kiosk's binary holds no PostgreSQL client (every kiosk process would map it): neither
/// the central store's loader of libpq nor the module that uses it is in the file, while
/// gymtimer-central holds both.
@Suite struct KioskLinksNoPostgresTests {
    @Test func gymtimerHoldsNoPostgresClient() throws {
        try #require(FileManager.default.isExecutableFile(atPath: CentralProcessTests.gymtimer), "build first: swift build")
        let binary = try Data(contentsOf: URL(fileURLWithPath: CentralProcessTests.gymtimer))
        let marks = ["libpq.so.5", "$s15GymTimerCentral"]
        for mark in marks {
            #expect(binary.range(of: Data(mark.utf8)) == nil, "gymtimer holds \(mark)")
        }
        let central = try Data(contentsOf: CentralProcessTests.built.appendingPathComponent("gymtimer-central"))
        for mark in marks {
            #expect(central.range(of: Data(mark.utf8)) != nil, "the check finds \(mark) where it is linked")
        }
    }
}
