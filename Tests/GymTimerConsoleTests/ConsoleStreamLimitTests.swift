import Foundation
import Synchronization
import Testing
@testable import GymTimerConsole

/// The pages' live updates (`/events`) on a Wi-Fi that guests share: a few streams per address
/// for the signed-out, room kept for the coach's session, a closed page's room free again.
/// The limiter alone and the broadcast that holds it; the real server over sockets is
/// Tests/console/hostile_test.py's (a guest on 127.0.0.2 and up, the coach on 127.0.0.1).
@Suite struct ConsoleStreamLimitTests {
    @Test func oneAddressHoldsAtMostItsShare() {
        var limit = ConsoleStreamLimit(maximum: 10, perAddress: 3, keptForTheCoach: 2)
        for _ in 0..<3 { #expect(limit.admit(.guest(address: "192.168.1.20")) == nil) }
        #expect(limit.admit(.guest(address: "192.168.1.20")) == .address(limit: 3))
        #expect(limit.streams(from: "192.168.1.20") == 3, "a refused stream is not counted")
        #expect(limit.admit(.guest(address: "192.168.1.21")) == nil, "another address is not held by it")
        #expect(
            "\(ConsoleStreamLimit.Refusal.address(limit: 3))" == "too many pages open from this address (3): close one"
                && ConsoleStreamLimit.Refusal.address(limit: 3).status == 429)
    }

    @Test func theSignedOutNeverTakeTheCoachsRoom() {
        var limit = ConsoleStreamLimit(maximum: 10, perAddress: 3, keptForTheCoach: 2)
        var address = 0
        var admitted = 0
        // Guests from as many addresses as they like: 8 streams, then every one refused.
        while address < 20 {
            address += 1
            while limit.admit(.guest(address: "10.0.0.\(address)")) == nil { admitted += 1 }
        }
        #expect(admitted == 8)
        #expect(limit.admit(.guest(address: "10.0.0.99")) == .guests(limit: 8, kept: 2))
        #expect(ConsoleStreamLimit.Refusal.guests(limit: 8, kept: 2).status == 503)
        #expect(limit.admit(.coach) == nil && limit.admit(.coach) == nil, "the coach takes the kept room")
        #expect(limit.admit(.coach) == .full(limit: 10), "and the total still bounds every stream")
        #expect(limit.open == 10)
    }

    @Test func theCoachIsNotHeldByAnAddressCap() {
        var limit = ConsoleStreamLimit(maximum: 10, perAddress: 3, keptForTheCoach: 2)
        for _ in 0..<6 { #expect(limit.admit(.coach) == nil) }
        #expect(limit.admit(.guest(address: "10.0.0.1")) == nil, "the coach's streams are not a guest address's")
        #expect(limit.open == 7)
    }

    @Test func aReleasedStreamIsRoomAgain() {
        var limit = ConsoleStreamLimit(maximum: 4, perAddress: 2, keptForTheCoach: 1)
        #expect(limit.admit(.guest(address: "a")) == nil && limit.admit(.guest(address: "a")) == nil)
        #expect(limit.admit(.guest(address: "a")) == .address(limit: 2))
        limit.release(.guest(address: "a"))
        #expect(limit.streams(from: "a") == 1)
        #expect(limit.admit(.guest(address: "a")) == nil)
        #expect(limit.admit(.guest(address: "b")) == nil)
        #expect(limit.admit(.guest(address: "c")) == .guests(limit: 3, kept: 1))
        #expect(limit.admit(.coach) == nil && limit.admit(.coach) == .full(limit: 4))
        limit.release(.coach)
        limit.release(.guest(address: "b"))
        #expect(limit.open == 2 && limit.streams(from: "b") == 0)
        limit.release(.guest(address: "never-admitted"))
        #expect(limit.open == 2, "a release with nothing held counts nothing out")
    }

    /// A console without a PIN: nobody can sign in, so nothing is kept; an address is held still.
    @Test func withoutAPINEveryStreamIsTheSignedOuts() {
        var limit = ConsoleStreamLimit(maximum: 6, perAddress: 2, keptForTheCoach: 2)
        var admitted = 0
        for address in 1...5 {
            while limit.admit(.guest(address: "10.0.0.\(address)"), keepingRoom: false) == nil { admitted += 1 }
        }
        #expect(admitted == 6)
        #expect(limit.admit(.guest(address: "10.0.0.9"), keepingRoom: false) == .full(limit: 6))
    }

    /// The broadcast counts a page in when it listens and out when its stream ends, however it ends.
    @Test func theBroadcastReleasesAPageWhenItsStreamEnds() async throws {
        let broadcast = ConsoleBroadcast(limit: ConsoleStreamLimit(maximum: 4, perAddress: 1, keptForTheCoach: 1))
        let first = try broadcast.listen(.guest(address: "a")).get()
        #expect(throws: ConsoleStreamLimit.Refusal.address(limit: 1)) { try broadcast.listen(.guest(address: "a")).get() }
        first.end()
        #expect(broadcast.limit.streams(from: "a") == 0 && broadcast.listenerCount == 0)
        var second: ConsoleBroadcast.Listener? = try broadcast.listen(.guest(address: "a")).get()
        #expect(broadcast.limit.streams(from: "a") == 1)
        second = nil  // a page's handler gone without ending its stream
        #expect(second == nil && broadcast.limit.open == 0)
        let coach = try broadcast.listen(.coach).get()
        #expect(broadcast.limit.open == 1)
        broadcast.finish()
        #expect(broadcast.limit.open == 0 && broadcast.listenerCount == 0, "the console stopping ends every page")
        var frames = coach.frames.makeAsyncIterator()
        #expect(await frames.next() == nil)
    }

    // The real server over real sockets (a guest holding every stream from 127.0.0.2 and more
    // addresses, the signed-in coach still served live) is Tests/console/hostile_test.py's, a
    // process of its own: in-process here, the whole suite's load on two cores starved it.
}
