import Foundation
import GymTimerCore
import Testing
@testable import GymTimerBenchmark
@testable import GymTimerRuntime

@Suite struct BenchmarkStatisticsTests {
    @Test func medianP99AndMaxOfOneToAHundred() throws {
        let stats = try #require(BenchmarkStatistics((1...100).map(Double.init).shuffled()))
        #expect(stats.count == 100)
        #expect(stats.median == 50.5)
        #expect(stats.p99 == 99)
        #expect(stats.max == 100)
    }

    @Test func oddCountsTakeTheMiddleAndSmallSetsTheirMaximumAsP99() throws {
        let stats = try #require(BenchmarkStatistics([3, 1, 2]))
        #expect(stats.median == 2)
        #expect(stats.p99 == 3)
        #expect(stats.max == 3)
    }

    @Test func oneOutlierInAThousandStaysOutOfP99ButNotMax() throws {
        let stats = try #require(BenchmarkStatistics(Array(repeating: 0.2, count: 999) + [40]))
        #expect(stats.p99 == 0.2)
        #expect(stats.max == 40)
    }

    @Test func noSamplesIsNotMeasured() {
        #expect(BenchmarkStatistics([]) == nil)
        #expect(BenchmarkFigure(name: "x", unit: .milliseconds, statistics: nil, target: .init(.p99, .below, 1)).status == .notMeasured)
    }
}

@Suite struct BenchmarkReportTests {
    let figures = [
        BenchmarkFigure(name: "fast", unit: .milliseconds, statistics: BenchmarkStatistics([0.2, 0.3, 0.4]), target: .init(.p99, .below, 1)),
        BenchmarkFigure(name: "slow", unit: .milliseconds, statistics: BenchmarkStatistics([0.5, 1.5]), target: .init(.p99, .below, 1), note: "why it is slow"),
        BenchmarkFigure(name: "exact", unit: .perSecond, statistics: BenchmarkStatistics([3, 3]), target: .init(.max, .atMost, 3)),
        BenchmarkFigure(name: "enough", unit: .hoursPerSecond, statistics: BenchmarkStatistics([3599]), target: .init(.median, .atLeast, 3600)),
        BenchmarkFigure(name: "info", unit: .percent, statistics: BenchmarkStatistics([1])),
    ]

    @Test func targetsAreMetOrMissedOnTheirStatistic() {
        #expect(figures.map(\.status) == [.met, .missed, .met, .missed, .noTarget])
    }

    @Test func theTableSaysMetAndMissedAndListsEveryMiss() {
        let table = BenchmarkReport(figures: figures, quick: false).table
        let lines = table.split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("figure"))
        #expect(lines.contains { $0.hasPrefix("fast ") && $0.hasSuffix("met") && $0.contains("p99 < 1.00 ms") })
        #expect(lines.contains { $0.hasPrefix("slow [1]") && $0.hasSuffix("MISSED") && $0.contains("1.50 ms") })
        #expect(lines.contains { $0.hasPrefix("info") && $0.hasSuffix("-") })
        #expect(lines.contains("[1] why it is slow"))
        #expect(lines.last == "MISSED 2 targets: slow; enough")
    }

    @Test func allMetSaysSo() {
        let table = BenchmarkReport(figures: [figures[0]], quick: true).table
        #expect(table.hasSuffix("All targets met."))
        #expect(table.contains("--quick"))
    }

    @Test func jsonCarriesEveryFigureAndItsResult() throws {
        let json = BenchmarkReport(figures: figures, quick: false).json
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let rows = try #require(object["figures"] as? [[String: Any]])
        #expect(rows.count == figures.count)
        #expect(rows[1]["result"] as? String == "MISSED")
        #expect(rows[1]["p99"] as? Double == 1.5)
        #expect(rows[4]["target"] == nil)
    }

    @Test func displayTextsReadAsSecondsOnlyWhenTheyAreTimes() {
        #expect(KioskBenchmark.seconds(shownAs: "0130") == 90)
        #expect(KioskBenchmark.seconds(shownAs: "0000") == 0)
        #expect(KioskBenchmark.seconds(shownAs: "    ") == nil)
        #expect(KioskBenchmark.seconds(shownAs: " 150") == nil)
    }
}

@Suite(.serialized) struct BenchmarkSmokeTests {
    /// A shortened run through the real loop on the real clock: every figure but start-up
    /// (no gymtimer binary here) must be measured. No timing is asserted: CI machines vary.
    @Test func quickRunMeasuresEveryFigure() throws {
        let options = KioskBenchmark.Options.quick()
        let report = KioskBenchmark(options: options).run()
        func figure(_ prefix: String) throws -> BenchmarkFigure {
            try #require(report.figures.first { $0.name.hasPrefix(prefix) }, "no figure '\(prefix)'")
        }
        let edge = try #require(try figure("press→output, line edge").statistics)
        let press = try #require(try figure("press→output, debounced").statistics)
        // Not all: a loop woken late (a loaded CI machine, a sanitizer) is handed a press and
        // its release together and the debouncer drops the press; the table notes how many.
        #expect(edge.count > 0 && edge.count <= options.presses)
        #expect(press.count == edge.count)
        #expect(edge.median >= 10, "the edge figure includes the 10 ms settle")
        #expect(press.median >= 0)
        // Real time too: a press the loop was woken too late for is dropped with its release,
        // and that rest never runs (the note says how many sounded).
        let rests = try #require(try figure("deadline error").statistics).count
        #expect(rests > 0 && rests <= options.rests)
        #expect(try #require(try figure("display tick").statistics).count >= rests)
        #expect(try figure("deadline error").statistics.map { $0.median >= 0 } == true, "never early")
        #expect(try figure("wake-ups per second, idle").statistics?.count == options.idleSeconds)
        #expect(try figure("wake-ups per second, counting down").statistics?.count == options.countdownSeconds)
        #expect(try #require(try figure("CPU, idle").statistics).median >= 0)
        #expect(try #require(try figure("peak RSS, this bench").statistics).median > 0)
        #expect(try #require(try figure("virtual-time throughput").statistics).median > 0)
        #expect(try figure("start-up").status == .notMeasured)
        #expect(try figure("fleet command→output").status == .notMeasured, "no binary to run as the station")
        #expect(!report.table.isEmpty)
    }

    /// `bench --only throughput`: that figure alone, the others not run at all.
    @Test func onlyTheChosenMeasurementIsRun() throws {
        var options = KioskBenchmark.Options.quick()
        options.only = [.throughput]
        let report = KioskBenchmark(options: options).run()
        #expect(report.figures.map(\.name) == ["virtual-time throughput (ScriptedSimulation)"])
        #expect(try #require(report.figures.first?.statistics).count == options.throughputRuns)
    }
}

extension BenchmarkSmokeTests {
    /// `bench --only reader`: the real libnfc asks the simulated PN532 on its own thread while
    /// the loop sleeps (no wake-up without a card: a count, which load does not change), and
    /// every card placed in the field reaches the kiosk; how fast is the bench's to say.
    @Test func theCardReaderCostsTheIdleLoopNoWakeUpAndEveryTapArrives() throws {
        var options = KioskBenchmark.Options.quick()
        options.only = [.reader]
        let report = KioskBenchmark(options: options).run()
        #expect(report.figures.map(\.name) == [
            "wake-ups per second, idle with a card reader", "CPU, the card reader's thread (idle)", "tap → name on the display",
        ])
        #expect(report.figures[0].statistics?.max == 0, "\(report.table)")
        #expect(report.figures[1].statistics?.count == 1, "the reader's thread is found by its name: \(report.table)")
        #expect(report.figures[2].statistics?.count == 3, "every tap arrived: \(report.table)")
    }
}

/// The start-up probe, on the real binary.
@Suite struct StartupProbeTests {
    /// The probe's peak is its own, not this (much bigger) test process's: a child's `ru_maxrss`
    /// starts from its parent's peak, which exec keeps, so reading it made every probe at least
    /// as big as the bench.
    @Test func theProbesPeakIsItsOwnNotItsParents() throws {
        // This process is big (the test runner, every suite loaded); make sure of it.
        var ballast = [UInt8](repeating: 1, count: 64 << 20)
        for index in stride(from: 0, to: ballast.count, by: 4096) { ballast[index] = UInt8(truncatingIfNeeded: index) }
        let parent = try #require(ResourceUsage.imagePeakResidentBytes())
        let sample = try StartupProbe.measure(executable: GymtimerBinary.path).get()
        #expect(ballast.count > 0 && parent > 64 << 20)
        #expect(sample.child.peakResidentBytes > 1 << 20, "a real process's peak: \(sample.child.peakResidentBytes)")
        #expect(sample.child.peakResidentBytes < parent / 2, "the child's peak \(sample.child.peakResidentBytes), this process's \(parent)")
    }
}

/// The fleet's figures: against a real Mosquitto and the gymtimer binary as a headless station.
@Suite struct FleetBenchmarkTests {
    @Test func eachCommandIsMatchedToTheFirstWriteOfWhatItSetsAfterIt() {
        let trace = [
            #"{"t":0,"device":"display","text":"0130","colon":true,"unix":100.000}"#,
            #"{"t":1,"device":"display","text":"0100","colon":true,"unix":101.012}"#,
            #"{"t":1,"device":"led","name":"ready","on":true,"unix":101.013}"#,
            #"{"t":2,"device":"display","text":"0130","colon":true,"unix":102.030}"#,
        ].joined(separator: "\n")
        let sent = [(at: 101.0, shows: "0100"), (at: 102.0, shows: "0130"), (at: 103.0, shows: "0100")]
        let (samples, unanswered) = FleetBenchmark.latencies(sent, trace: trace)
        #expect(samples.map { ($0 * 1000).rounded() / 1000 } == [12, 30])
        #expect(unanswered == 1, "the last command has no write after it")
    }

    @Test func aSlowAnswerIsALatencyAndTwoCommandsTakenTogetherLoseTheFirst() {
        func display(_ text: String, _ unix: Double) -> String {
            #"{"t":0,"device":"display","text":"\#(text)","colon":true,"unix":\#(unix)}"#
        }
        // Each answered after the next command was sent: both count, at 80 ms.
        let slow = [display("0100", 101.08), display("0130", 101.13)].joined(separator: "\n")
        let (late, lost) = FleetBenchmark.latencies([(101.0, "0100"), (101.05, "0130")], trace: slow)
        #expect(late.map { $0.rounded() } == [80, 80] && lost == 0)
        // The first two taken together: 0100 never showed; the third's 0100 is not the first's.
        let together = [display("0130", 101.2), display("0100", 101.3)].joined(separator: "\n")
        let (answered, unanswered) = FleetBenchmark.latencies([(101.0, "0100"), (101.05, "0130"), (101.1, "0100")], trace: together)
        #expect(answered.map { $0.rounded() } == [150, 200] && unanswered == 1)
    }

    @Test func theBrokerKillDrillCountsNoRecordLost() throws {
        let figure = RecordLossDrill(records: 5).run()
        let lost = try #require(figure.statistics, "measured: \(figure.note ?? "")")
        #expect(lost.max == 0, "\(figure.note ?? "")")
        #expect(figure.status == .met && figure.unit == .records)
    }

    @Test func aStationOnARealBrokerIsTimedAndItsWakeUpsCounted() throws {
        // Commands 0.3 s apart, round trips allowed 10 s: on a loaded machine a station may take
        // two commands 50 ms apart in one wake-up (only the second shows), which is no error.
        let figures = FleetBenchmark(
            executable: GymtimerBinary.path, commands: 10, idleSeconds: 2, starts: 2, roundTripCommands: 3, commandGap: 0.3,
            roundTripLimit: 10).run()
        let latency = try #require(figures.first { $0.name == FleetBenchmark.latencyName })
        let wakeups = try #require(figures.first { $0.name == FleetBenchmark.wakeupsName })
        let samples = try #require(latency.statistics, "measured: \(latency.note ?? "")")
        #expect(samples.count == 10, "every command reached the display: \(latency.note ?? "")")
        #expect(samples.median > 0 && samples.max < 1000)
        #expect(wakeups.statistics?.count == 2, "\(wakeups.note ?? "")")
        // The synchronised starts: both stations began each (correctness here, with a margin
        // that holds under load; the figure is the bench's).
        let offset = try #require(figures.first { $0.name == FleetBenchmark.offsetName }?.statistics, "measured")
        let skew = try #require(figures.first { $0.name == FleetBenchmark.skewName }?.statistics, "measured")
        #expect(offset.count == 6 && skew.count == 2, "three stations, two starts")
        #expect(offset.max < 250 && skew.max < 250)
        // Every command answered by all three stations (the figure's p99 is the bench's).
        let roundTrip = try #require(figures.first { $0.name == FleetBenchmark.roundTripName })
        #expect(roundTrip.statistics?.count == 3 && (roundTrip.statistics?.max ?? .infinity) < 10_000, "\(roundTrip.note ?? "")")
    }

    /// The chain's figures on real processes (two bridged gyms' Mosquittos, the centre's, a
    /// PostgreSQL server, two gymtimer-central collectors): every record timed arrives, once.
    @Test func aChainsRecordsAreCountedIntoPostgreSQLAndEachTimed() throws {
        let figures = ChainBenchmark(executable: GymtimerBinary.path, stations: 4, burst: 5, pacedSeconds: 2).run()
        let throughput = try #require(figures.first { $0.name == ChainBenchmark.throughputName })
        let latency = try #require(figures.first { $0.name == ChainBenchmark.latencyName })
        let rate = try #require(throughput.statistics, "measured: \(throughput.note ?? "")")
        #expect(rate.count == 1 && rate.median > 0)
        let samples = try #require(latency.statistics, "measured: \(latency.note ?? "")")
        #expect(samples.count == 8, "each of 4 stations' 2 paced records timed, once: \(latency.note ?? "")")
        #expect(samples.max < 30_000 && samples.median > 0)
    }

    @Test func aConsoleClickIsMatchedToTheFirstIdleScreenAfterIt() {
        func display(_ text: String, _ unix: Double) -> String {
            #"{"t":0,"device":"display","text":"\#(text)","colon":true,"unix":\#(unix)}"#
        }
        // The idle screen (the first write), a rest counting, reset; the second click's idle
        // screen comes after the third click: it answers the third.
        let trace = [display("0130", 100.0), display("0129", 100.5), display("0130", 101.04), display("0129", 102.0),
                     display("0128", 103.5), display("0130", 104.2)].joined(separator: "\n")
        let samples = ConsoleBenchmark.latencies([101.0, 103.0, 104.0], trace: trace)
        #expect(samples.map { $0.rounded() } == [40, 200])
        #expect(ConsoleBenchmark.latencies([1], trace: "").isEmpty)
    }

    @Test func aClickOnTheConsoleIsTimedToARealStationsDisplay() throws {
        let figure = ConsoleBenchmark(executable: GymtimerBinary.path, clicks: 3).run()
        let samples = try #require(figure.statistics, "measured: \(figure.note ?? "")")
        #expect(samples.count == 3, "every reset reached the display: \(figure.note ?? "")")
        #expect(samples.median > 0 && samples.max < 1000)
    }

    /// The console's figure comes from `gymtimer-console` beside the gymtimer binary: without
    /// it the figure is "not measured", naming the file, not a console run through gymtimer.
    @Test func theConsoleFigureNeedsGymtimerConsoleBesideTheBinary() throws {
        let files = try ScratchDirectory()
        try FileManager.default.linkItem(atPath: GymtimerBinary.path, toPath: files.path + "/gymtimer")
        let figure = ConsoleBenchmark(executable: files.path + "/gymtimer", clicks: 1).run()
        #expect(figure.status == .notMeasured)
        #expect(figure.note?.contains("not measured: no \(files.path)/gymtimer-console") == true, "\(figure.note ?? "")")
    }

    @Test func countdownBeginsAreTheRestLEDLightingFromTheFirstStartOn() {
        let trace = [
            #"{"device":"led","name":"rest","on":true,"unix":90.0}"#,
            #"{"device":"led","name":"rest","on":false,"unix":100.5}"#,
            #"{"device":"led","name":"rest","on":true,"unix":101.001}"#,
            #"{"device":"display","text":"0130","unix":101.001}"#,
            #"{"device":"led","name":"rest","on":true,"unix":103.002}"#,
        ].joined(separator: "\n")
        #expect(FleetBenchmark.countdownBegins(trace: trace, after: 101) == [101.001, 103.002])
    }
}
