#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GymTimerHAL
import Testing
@testable import GymTimerSimulation

/// Keys written to a pipe (standing in for the terminal) and a clock the test moves by hand:
/// every wait uses a zero timeout, so nothing sleeps.
@Suite struct TerminalInputsTests {
    /// A pipe whose read end feeds a `TerminalInputs`, and the time it sees.
    final class Harness {
        var now = Duration.seconds(10)
        let readEnd: Int32
        let writeEnd: Int32
        private var writeEndOpen = true
        var inputs: TerminalInputs!

        init() {
            var fds: [Int32] = [0, 0]
            precondition(pipe(&fds) == 0)
            readEnd = fds[0]
            writeEnd = fds[1]
            inputs = TerminalInputs(fd: readEnd, now: { [unowned self] in self.now })
        }

        deinit {
            close(readEnd)
            endInput()
        }

        /// Closes the write end (end of input), once: a second close could hit another
        /// test's descriptor that got the same number.
        func endInput() {
            if writeEndOpen { close(writeEnd) }
            writeEndOpen = false
        }

        func type(_ bytes: [UInt8]) {
            _ = bytes.withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
        }

        func type(_ text: String) { type(Array(text.utf8)) }

        /// Edges pending at `time`, without blocking.
        func edges(at time: Duration) throws -> [InputEdge] {
            now = time
            return try inputs.wait(timeout: .zero)
        }
    }

    static let t0 = Duration.seconds(10)
    static let ms = Duration.milliseconds(1)

    @Test func sClicksStartWithTheReleaseEightyMillisecondsLater() throws {
        let h = Harness()
        h.type("s")
        #expect(try h.edges(at: Self.t0) == [InputEdge(line: "start", active: true)])
        #expect(h.inputs.nextEdgeTime == Self.t0 + Self.ms * 80)
        #expect(try h.edges(at: Self.t0 + Self.ms * 79) == [])
        #expect(try h.edges(at: Self.t0 + Self.ms * 80) == [InputEdge(line: "start", active: false)])
        #expect(h.inputs.lines["start"]?.level == false)
        #expect(h.inputs.nextEdgeTime == nil)
    }

    @Test func aLateWakeUpDatesTheEdgeWhenItWasDue() throws {
        let h = Harness()
        h.type("d")
        #expect(try h.edges(at: Self.t0) == [InputEdge(line: "dismiss", active: true)])
        #expect(try h.edges(at: Self.t0 + Self.ms * 83) == [InputEdge(line: "dismiss", active: false, age: Self.ms * 3)])
    }

    @Test func capitalLettersHoldForTwoPointTwoSeconds() throws {
        let h = Harness()
        h.type("D")
        #expect(try h.edges(at: Self.t0) == [InputEdge(line: "dismiss", active: true)])
        #expect(h.inputs.nextEdgeTime == Self.t0 + .milliseconds(2200))
        #expect(try h.edges(at: Self.t0 + .milliseconds(2199)) == [])
        #expect(try h.edges(at: Self.t0 + .milliseconds(2200)) == [InputEdge(line: "dismiss", active: false)])
    }

    @Test func rightArrowIsOneClockwiseDetentWithALeadingB() throws {
        let h = Harness()
        h.type([0x1B, UInt8(ascii: "["), UInt8(ascii: "C")])
        #expect(try h.edges(at: Self.t0) == [InputEdge(line: "encoder-a", active: true)])
        #expect(h.inputs.nextEdgeTime == Self.t0 + Self.ms * 2)
        #expect(try h.edges(at: Self.t0 + Self.ms * 2) == [InputEdge(line: "encoder-b", active: true)])
        #expect(try h.edges(at: Self.t0 + Self.ms * 6) == [
            InputEdge(line: "encoder-a", active: false, age: Self.ms * 2),
            InputEdge(line: "encoder-b", active: false),
        ])
    }

    @Test func leftArrowLetsBLead() throws {
        let h = Harness()
        h.type([0x1B, UInt8(ascii: "O"), UInt8(ascii: "D")])
        #expect(try h.edges(at: Self.t0 + Self.ms * 6) == [
            InputEdge(line: "encoder-b", active: true),
        ])
        #expect(try h.edges(at: Self.t0 + Self.ms * 12) == [
            InputEdge(line: "encoder-a", active: true, age: Self.ms * 4),
            InputEdge(line: "encoder-b", active: false, age: Self.ms * 2),
            InputEdge(line: "encoder-a", active: false),
        ])
    }

    @Test func anEscapeSequenceSplitAcrossReadsStillTurns() throws {
        let h = Harness()
        h.type([0x1B, UInt8(ascii: "[")])
        #expect(try h.edges(at: Self.t0) == [])
        h.type([UInt8(ascii: "C")])
        #expect(try h.edges(at: Self.t0) == [InputEdge(line: "encoder-a", active: true)])
    }

    @Test func keysFasterThanAGestureQueueBehindIt() throws {
        let h = Harness()
        h.type("]]")
        // The second detent starts when the first has finished, as `turn 2` would.
        let expected = InputGestures.turn(2, at: Self.t0)
        #expect(try h.edges(at: Self.t0) == [InputEdge(line: "encoder-a", active: true)])
        var delivered: [ScheduledEdge] = [ScheduledEdge(time: Self.t0, line: "encoder-a", active: true)]
        while let next = h.inputs.nextEdgeTime {
            for edge in try h.edges(at: next) { delivered.append(ScheduledEdge(time: next, line: edge.line, active: edge.active)) }
        }
        #expect(delivered == Array(expected))
    }

    @Test func aSecondClickWaitsForTheFirstToBeReleased() throws {
        let h = Harness()
        h.type("ss")
        #expect(try h.edges(at: Self.t0) == [InputEdge(line: "start", active: true)])
        #expect(try h.edges(at: Self.t0 + Self.ms * 80) == [InputEdge(line: "start", active: false)])
        #expect(h.inputs.nextEdgeTime == Self.t0 + Self.ms * 160)
        #expect(try h.edges(at: Self.t0 + Self.ms * 160) == [InputEdge(line: "start", active: true)])
    }

    @Test(arguments: [
        ("s", TerminalInputs.Command.click("start")), (" ", .click("start")),
        ("d", .click("dismiss")), ("\r", .click("dismiss")), ("\n", .click("dismiss")),
        ("S", .hold("start")), ("D", .hold("dismiss")),
        ("+", .turn(1)), ("]", .turn(1)), ("\u{1B}[C", .turn(1)), ("\u{1B}[1;5C", .turn(1)),
        ("-", .turn(-1)), ("[", .turn(-1)), ("\u{1B}[D", .turn(-1)),
        ("q", .quit), ("\u{03}", .quit), ("\u{0C}", .redraw),
    ])
    func keyMap(key: String, command: TerminalInputs.Command) {
        let inputs = TerminalInputs(fd: -1, now: { .zero })
        #expect(inputs.commands(in: Array(key.utf8)) == [command])
    }

    @Test func keysActInTheOrderTypedWhicheverControlTheyUse() throws {
        let h = Harness()
        h.type("\u{1B}[D\u{1B}[D\u{1B}[D\u{1B}[D\u{1B}[D\u{1B}[Ds")
        var delivered: [ScheduledEdge] = []
        for edge in try h.edges(at: Self.t0) { delivered.append(ScheduledEdge(time: Self.t0, line: edge.line, active: edge.active)) }
        while let next = h.inputs.nextEdgeTime {
            for edge in try h.edges(at: next) { delivered.append(ScheduledEdge(time: next, line: edge.line, active: edge.active)) }
        }
        // Six whole detents first, exactly as `turn -6`, then the click once the knob is still.
        let turn = InputGestures.turn(-6, at: Self.t0)
        #expect(Array(delivered.prefix(turn.count)) == Array(turn))
        #expect(Array(delivered.dropFirst(turn.count))
            == Array(InputGestures.click("start", at: Self.t0 + InputGestures.detentInterval * 6)))
    }

    @Test func ctrlLAndAResizeAskForARedrawOnce() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        var keys: [Int32] = [0, 0]
        #expect(pipe(&keys) == 0)
        defer { close(keys[0]); close(keys[1]) }
        let inputs = TerminalInputs(fd: keys[0], resizeFD: fds[0], now: { Self.t0 })
        #expect(try inputs.wait(timeout: .zero) == [])
        #expect(!inputs.takeRedrawRequest())
        // The SIGWINCH handler's byte (twice: two resizes in a row) ends a wait that has no timeout.
        var byte: [UInt8] = [1, 1]
        _ = write(fds[1], &byte, 2)
        #expect(try inputs.wait(timeout: nil) == [])
        #expect(inputs.takeRedrawRequest())
        #expect(!inputs.takeRedrawRequest())
        byte = [0x0C]
        _ = write(keys[1], &byte, 1)
        #expect(try inputs.wait(timeout: nil) == [])
        #expect(inputs.takeRedrawRequest())
        #expect(!inputs.quitRequested)
    }

    @Test func otherKeysAndSequencesDoNothing() throws {
        let h = Harness()
        h.type("x\u{1B}[A7")
        #expect(try h.edges(at: Self.t0) == [])
        #expect(h.inputs.nextEdgeTime == nil)
        #expect(!h.inputs.quitRequested)
    }

    @Test func qAndCtrlCAndEndOfInputQuit() throws {
        for input in ["q", "\u{03}", nil] {
            let h = Harness()
            if let input { h.type(input) } else { h.endInput() }
            #expect(try h.edges(at: Self.t0) == [])
            #expect(h.inputs.quitRequested)
        }
    }

    @Test func pollWaitsForTheTimeoutOrTheNextScheduledEdgeWhicheverIsFirst() throws {
        let h = Harness()
        #expect(h.inputs.pollTimeout(until: nil, now: Self.t0) == nil)
        #expect(h.inputs.pollTimeout(until: Self.t0 + .seconds(5), now: Self.t0) == .seconds(5))
        h.type("s")
        _ = try h.edges(at: Self.t0)
        #expect(h.inputs.pollTimeout(until: nil, now: Self.t0 + Self.ms * 30) == Self.ms * 50)
        #expect(h.inputs.pollTimeout(until: Self.t0 + .seconds(5), now: Self.t0) == Self.ms * 80)
        #expect(h.inputs.pollTimeout(until: Self.t0 + Self.ms * 10, now: Self.t0) == Self.ms * 10)
    }
}
