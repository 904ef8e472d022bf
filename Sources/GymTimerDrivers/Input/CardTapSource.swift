import Foundation
import GymTimerSystem
import GymTimerCore
import GymTimerHAL

/// An NFC reader at the wall as one more input source of the loop. A reader is asked for the
/// card in its field many times a second, and one question can take a slow reader a second, so
/// the asking runs on a thread of its own (`gymtimer-nfc`); the loop's one blocking point waits
/// on this source's pipe (it is a `PollSource`) and hears only changes: a card arriving, the
/// reader failing, the reader working again. A card held to the reader for an hour is one
/// arrival; a card must be gone for `departure` before the same card arrives again, so one
/// missed read of a card still held is not a second tap (which would tap its athlete out).
///
/// The reader is opened on that thread too: one absent at boot, or unplugged mid-class, is one
/// fault (`Report.fault`) and is opened again every `retryInterval` until it answers
/// (`Report.recovered`); the kiosk runs on meanwhile. One read that fails is not a fault: the
/// reader is opened again at once, and only if that fails too is it one (a loaded machine, a
/// noisy UART would otherwise fill the log with fault/recovered pairs). Reports wait in a bounded queue: a flood
/// of taps faster than the loop takes them keeps the latest `capacity`.
public final class CardTapSource: PollSource, Sendable {
    /// Opens the reader (`{ try LibNFCCardReader("pn532_uart:/dev/serial0") }`); called on the
    /// reader's thread, at start and after each failure.
    public typealias Opener = @Sendable () throws(HALError) -> any CardReader

    /// What the reader's thread tells the loop.
    public enum Report: Hashable, Sendable {
        /// A card came into the field: its UID, which the loop turns into its pseudonym at once.
        case arrived(CardUID)
        /// The reader could not be opened, or stopped answering (logged once until it recovers).
        case fault(HALError)
        /// A card whose UID no card has (0 or more than 10 bytes): nobody taps in.
        case unreadableCard(byteCount: Int)
        /// The reader answers again after a fault.
        case recovered
    }

    /// Where the reader is (its libnfc connection string), for the log.
    public let name: String
    private let mailbox: Mailbox

    /// The most reports kept for the loop.
    public static let capacity = 16

    /// - Parameters:
    ///   - interval: how often the field is asked for a card (a PN532 answers within ~30 ms).
    ///   - departure: how long a card must be missing from the field to count as gone.
    ///   - retryInterval: how often a reader that failed is opened again.
    public init(
        name: String, interval: Duration = .milliseconds(150), departure: Duration = .milliseconds(600),
        retryInterval: Duration = .seconds(5), open: @escaping Opener
    ) throws(HALError) {
        self.name = name
        let mailbox = try Mailbox()
        self.mailbox = mailbox
        let thread = Thread {
            // The name the system shows (top -H, /proc/PID/task/*/comm): Foundation keeps its own.
            SystemCall.nameThread("gymtimer-nfc")
            Worker(mailbox: mailbox, interval: interval, departure: departure, retryInterval: retryInterval, open: open).run()
        }
        thread.name = "gymtimer-nfc"
        thread.start()
    }

    deinit { shutdown() }

    public var pollRequest: pollfd? { pollfd(fd: mailbox.readEnd, events: Int16(POLLIN), revents: 0) }

    public func serve(revents: Int16) { mailbox.drainPipe() }

    /// The reports since the last call, oldest first.
    public func take() -> [Report] { mailbox.take() }

    /// Asks the reader now rather than at the end of the current interval: a reader that knows
    /// when its field changes (the headless station's simulated one) need not be asked often,
    /// so an idle station's thread sleeps instead of asking many times a second.
    public func askNow() { mailbox.wake() }

    /// Ends the reader's thread (it closes the reader); waits for it, but no longer than
    /// `limit`: a reader hung in a read must not keep the kiosk from stopping.
    @discardableResult
    public func shutdown(waitingAtMost limit: Duration = .seconds(2)) -> Bool { mailbox.shutdown(waitingAtMost: limit) }
}

extension CardTapSource {
    /// The hand-over between the reader's thread and the loop: the reports and a self-pipe that
    /// wakes the loop's poll when the first one is queued.
    ///
    /// `@unchecked Sendable` is safe: `reports`, `closing` and `finished` are read and written
    /// only while holding `condition`'s lock; the descriptors never change after `init`.
    final class Mailbox: @unchecked Sendable {
        let readEnd: Int32
        private let writeEnd: Int32
        private let condition = NSCondition()
        private var reports: [Report] = []
        private var closing = false
        private var finished = false

        init() throws(HALError) {
            (readEnd, writeEnd) = try SystemCall.wakeUpPipe("card reader pipe")
        }

        deinit {
            close(readEnd)
            close(writeEnd)
        }

        /// Queues `report` (dropping the oldest beyond `capacity`) and wakes the loop.
        func post(_ report: Report) {
            condition.lock()
            reports.append(report)
            if reports.count > CardTapSource.capacity { reports.removeFirst(reports.count - CardTapSource.capacity) }
            condition.unlock()
            var byte: UInt8 = 1
            _ = write(writeEnd, &byte, 1)
        }

        func take() -> [Report] {
            condition.lock()
            defer { condition.unlock() }
            let taken = reports
            reports = []
            return taken
        }

        func drainPipe() {
            var bytes = [UInt8](repeating: 0, count: 64)
            while read(readEnd, &bytes, bytes.count) > 0 {}
        }

        /// Waits `duration`, or less when a shutdown is asked for; returns whether it was.
        func pause(_ duration: Duration) -> Bool {
            condition.lock()
            defer { condition.unlock() }
            if !closing { _ = condition.wait(until: Date(timeIntervalSinceNow: Double(duration.nanoseconds) / 1e9)) }
            return closing
        }

        /// Ends the worker's current pause early (it then asks the reader).
        func wake() {
            condition.lock()
            condition.broadcast()
            condition.unlock()
        }

        var isClosing: Bool {
            condition.lock()
            defer { condition.unlock() }
            return closing
        }

        func shutdown(waitingAtMost limit: Duration) -> Bool {
            condition.shutDownWorker(waitingAtMost: limit, close: { closing = true }, isFinished: { finished })
        }

        func workerFinished() {
            condition.broadcast {
                finished = true
            }
        }
    }

    /// The reader's thread: opens the reader, asks it for the card in the field, and posts the
    /// changes. Lives and dies on that thread, with the reader.
    final class Worker {
        private let mailbox: Mailbox
        private let interval: Duration
        private let departure: Duration
        private let retryInterval: Duration
        private let open: Opener
        private var reader: (any CardReader)?
        private var failing = false
        /// Whether the reader was opened again after one failed read, which the next read must
        /// confirm before a failure is a fault.
        private var reopenedAfterMiss = false
        /// The UID in the field, and how long it has been missing (while it may still come back).
        private var present: [UInt8]?
        private var missingFor: Duration = .zero

        init(mailbox: Mailbox, interval: Duration, departure: Duration, retryInterval: Duration, open: @escaping Opener) {
            self.mailbox = mailbox
            self.interval = interval
            self.departure = departure
            self.retryInterval = retryInterval
            self.open = open
        }

        func run() {
            defer { mailbox.workerFinished() }
            while !mailbox.isClosing {
                guard let reader = reader ?? opened() else {
                    if mailbox.pause(retryInterval) { return }
                    continue
                }
                do {
                    let uid = try reader.cardInField()
                    reopenedAfterMiss = false
                    if failing {
                        failing = false
                        mailbox.post(.recovered)
                    }
                    see(uid)
                } catch {
                    self.reader = nil
                    if !reopenedAfterMiss && !failing {
                        // One missed answer (a busy machine, a noisy wire) is no fault yet: the
                        // reader is opened again at once, and the card held on it stays the one
                        // arrival. Only a reader that fails again is a fault, logged.
                        reopenedAfterMiss = true
                        continue
                    }
                    fail(error)
                    present = nil
                }
                if mailbox.pause(interval) { return }
            }
        }

        private func opened() -> (any CardReader)? {
            do {
                reader = try open()
            } catch {
                fail(error)
                present = nil
            }
            return reader
        }

        private func fail(_ error: HALError) {
            guard !failing else { return }
            failing = true
            mailbox.post(.fault(error))
        }

        /// What one read found in the field.
        private func see(_ uid: [UInt8]?) {
            guard let uid else {
                guard present != nil else { return }
                missingFor += interval
                if missingFor >= departure { present = nil }
                return
            }
            missingFor = .zero
            guard uid != present else { return }
            present = uid
            mailbox.post(CardUID(bytes: uid).map { .arrived($0) } ?? .unreadableCard(byteCount: uid.count))
        }
    }
}
