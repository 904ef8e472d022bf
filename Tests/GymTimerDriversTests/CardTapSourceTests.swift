import Foundation
import Glibc
import GymTimerCore
import GymTimerHAL
import Testing
@testable import GymTimerDrivers

/// A reader whose field a test fills and empties, counting the reads the source's thread makes,
/// so a test waits for reads, never for time.
final class FieldReader: CardReader, @unchecked Sendable {
    let name = "test reader"
    private let condition = NSCondition()
    private var field: [UInt8]?
    private var broken = false
    private var missesLeft = 0
    private var reads = 0
    private var attached = true

    /// Whether the reader is on its cable at all (the source's opener asks).
    var isAttached: Bool {
        get { condition.lock(); defer { condition.unlock() }; return attached }
        set { condition.lock(); attached = newValue; condition.unlock() }
    }

    func place(_ uid: [UInt8]?) {
        condition.lock()
        field = uid
        condition.unlock()
    }

    /// The next `count` reads fail, as one answer lost on a busy machine does.
    func miss(_ count: Int) {
        condition.lock()
        missesLeft = count
        condition.unlock()
    }

    func unplug(_ unplugged: Bool) {
        condition.lock()
        broken = unplugged
        condition.unlock()
    }

    func cardInField() throws(HALError) -> [UInt8]? {
        condition.lock()
        defer { condition.unlock() }
        reads += 1
        condition.broadcast()
        if broken { throw .io(device: name, operation: "read", errno: EIO) }
        if missesLeft > 0 {
            missesLeft -= 1
            throw .unsupported(device: name, detail: "the reader stopped answering: Timeout")
        }
        return field
    }

    /// Waits until the thread has read the field `count` more times (at most 30 s: a loaded machine).
    func awaitReads(_ count: Int) {
        condition.lock()
        defer { condition.unlock() }
        let target = reads + count
        let deadline = Date(timeIntervalSinceNow: 30)
        while reads < target, condition.wait(until: deadline) {}
    }
}

/// How often a source opened its reader (from the reader's thread).
final class OpenCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

@Suite struct CardTapSourceTests {
    /// The reports the loop would see after the source's descriptor became readable (waited for
    /// with poll, as the loop's one blocking point waits), or none within `seconds`.
    func reports(_ source: CardTapSource, within seconds: Int32 = 30) -> [CardTapSource.Report] {
        var fds = [source.pollRequest!]
        guard poll(&fds, 1, seconds * 1000) == 1 else { return [] }
        source.serve(revents: fds[0].revents)
        return source.take()
    }

    @Test func aCardHeldForLongIsOneArrivalAndAMissedReadIsNotASecondTap() throws {
        let reader = FieldReader()
        let source = try CardTapSource(name: reader.name, interval: .milliseconds(2), departure: .seconds(3600)) { reader }
        defer { source.shutdown() }
        reader.place([0x04, 0xA1, 0xB2, 0xC3])
        #expect(reports(source) == [.arrived(CardUID(hex: "04A1B2C3")!)])
        reader.awaitReads(200)
        reader.place(nil)
        reader.awaitReads(5)
        reader.place([0x04, 0xA1, 0xB2, 0xC3])
        reader.awaitReads(200)
        #expect(source.take().isEmpty, "held, then missed for a few reads: still the one arrival")
        var fds = [source.pollRequest!]
        #expect(poll(&fds, 1, 0) == 0, "nothing wakes the loop while the card is held")
    }

    @Test func aCardGoneLongEnoughArrivesAgainAndAnotherCardArrivesAtOnce() throws {
        let reader = FieldReader()
        let source = try CardTapSource(name: reader.name, interval: .milliseconds(2), departure: .milliseconds(10)) { reader }
        defer { source.shutdown() }
        reader.place([0x04, 0x01, 0x02, 0x03])
        #expect(reports(source) == [.arrived(CardUID(hex: "04010203")!)])
        reader.place(nil)
        reader.awaitReads(20)
        reader.place([0x04, 0x01, 0x02, 0x03])
        #expect(reports(source) == [.arrived(CardUID(hex: "04010203")!)])
        reader.place([0x08, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06])
        #expect(reports(source) == [.arrived(CardUID(hex: "08010203040506")!)])
        reader.place(Array(repeating: 0xEE, count: 11))
        #expect(reports(source) == [.unreadableCard(byteCount: 11)])
    }

    @Test func aReaderAbsentAtBootOrUnpluggedIsOneFaultThenItsRecovery() throws {
        let reader = FieldReader()
        reader.isAttached = false
        let source = try CardTapSource(name: "pn532_uart:/dev/ttyGONE", interval: .milliseconds(2), retryInterval: .milliseconds(2)) {
            () throws(HALError) -> any CardReader in
            guard reader.isAttached else { throw .noSuchDevice(device: "/dev/ttyGONE", hint: "check the reader's cable") }
            return reader
        }
        defer { source.shutdown() }
        guard case .fault(.noSuchDevice)? = reports(source).first else {
            Issue.record("no fault for a reader absent at boot")
            return
        }
        reader.isAttached = true
        #expect(reports(source) == [.recovered])
        reader.unplug(true)
        guard case .fault(.io)? = reports(source).first else {
            Issue.record("no fault for a reader that stopped answering")
            return
        }
        reader.awaitReads(1)
        reader.unplug(false)
        reader.place([0x04, 0x0A, 0x0B, 0x0C])
        var seen: [CardTapSource.Report] = []
        while seen.count < 2, case let more = reports(source), !more.isEmpty { seen += more }
        #expect(seen == [.recovered, .arrived(CardUID(hex: "040A0B0C")!)])
    }

    @Test func oneMissedAnswerIsNoFaultAndTheHeldCardStaysOneTap() throws {
        let reader = FieldReader()
        let opens = OpenCount()
        let source = try CardTapSource(name: reader.name, interval: .milliseconds(2), departure: .seconds(3600)) {
            opens.add()
            return reader
        }
        defer { source.shutdown() }
        reader.place([0x04, 0xA1, 0xB2, 0xC3])
        #expect(reports(source) == [.arrived(CardUID(hex: "04A1B2C3")!)])
        for _ in 0..<5 {
            reader.miss(1)
            reader.awaitReads(20)
        }
        #expect(source.take().isEmpty, "five single misses, each followed by a good read: no fault, no second tap")
        #expect(opens.value == 6, "each miss opened the reader again at once")
        reader.miss(2)
        guard case .fault(.unsupported)? = reports(source).first else {
            Issue.record("a miss right after the reader was opened again is a fault")
            return
        }
        var seen: [CardTapSource.Report] = []
        while seen.count < 2, case let more = reports(source), !more.isEmpty { seen += more }
        #expect(seen == [.recovered, .arrived(CardUID(hex: "04A1B2C3")!)], "then it answers again, the card read anew after a fault")
    }

    @Test func aFloodOfTapsKeepsTheLatestFewForTheLoop() throws {
        let reader = FieldReader()
        let source = try CardTapSource(name: reader.name, interval: .milliseconds(1), departure: .milliseconds(1)) { reader }
        defer { source.shutdown() }
        for index in 0..<100 {
            reader.place([0x04, 0x00, 0x00, UInt8(index)])
            reader.awaitReads(2)
        }
        reader.awaitReads(2)
        let taken = source.take()
        #expect(taken.count <= CardTapSource.capacity)
        #expect(taken.last == .arrived(CardUID(bytes: [0x04, 0x00, 0x00, 99])!), "the latest tap is kept")
    }
}
