import Foundation
import Testing

/// The kiosk's binary links no PostgreSQL client nor the SwiftNIO under it (every kiosk process
/// would map it): none of their modules' mangled symbols (`$s<length><name>`) is in the file.
@Suite struct KioskLinksNoPostgresTests {
    @Test func gymtimerHoldsNoPostgresNIOSymbol() throws {
        try #require(FileManager.default.isExecutableFile(atPath: CentralProcessTests.gymtimer), "build first: swift build")
        let binary = try Data(contentsOf: URL(fileURLWithPath: CentralProcessTests.gymtimer))
        for module in ["PostgresNIO", "NIOCore", "NIOPosix"] {
            #expect(binary.range(of: Data("$s\(module.count)\(module)".utf8)) == nil, "gymtimer links \(module)")
        }
        let central = try Data(contentsOf: CentralProcessTests.built.appendingPathComponent("gymtimer-central"))
        #expect(central.range(of: Data("$s11PostgresNIO".utf8)) != nil, "the check finds the module where it is linked")
    }
}
