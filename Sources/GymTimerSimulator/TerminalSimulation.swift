import Foundation
import GymTimerConfig
import GymTimerCore
import GymTimerFleet
import GymTimerHAL
import GymTimerHistory
import GymTimerRuntime
import GymTimerSetup
import GymTimerSimulation
import GymTimerStationLink
import GymTimerSystem

/// `gymtimer simulate` without a script: the same event loop, core and drivers as the kiosk,
/// on the simulated devices, in real time, with keys for hands and the terminal for a front
/// panel. The loop blocks in `TerminalInputs.wait`; the screen is redrawn after a wake-up
/// only where an output changed, and whole after a resize or Ctrl-L. What happens (keys,
/// beeps, cues, records, faults) is listed under the panel, so nothing is missed for being short.
///
/// With a data directory it keeps what the kiosk keeps, as `run` does: the SQLite history and
/// the journal of the running state, on the wall clock's timeline, so a simulator killed
/// mid-rest and started again carries on, and `gymtimer history --db DIR/history.sqlite` reads it.
///
/// With a `[fleet]` section it is a fleet station too, wired as every kiosk's is (`KioskFleet`):
/// its outbox beside the data directory's history (in memory without one), its happenings
/// ("fleet: connected…", a scheduled start, a coach's command) in the event list, and
/// `offline` said on the way out (q, Ctrl-C, or a signal in `stopSignals`).
public final class TerminalSimulation {
    public let devices: SimulatedDevices
    public let inputs: TerminalInputs
    public let screen: KioskScreen
    public let history = InMemoryHistory()
    /// What happened lately, shown under the panel.
    public private(set) var events = TerminalEventLog()
    private let clock = ContinuousClock()
    private let origin: ContinuousClock.Instant
    private let settings: KioskSettings
    private let configuration: GymTimerConfiguration
    private let stopSignals: StopSignals?
    private var faults: FaultLog!
    private let write: (String) -> Void
    private let terminalSize: () -> TerminalSize
    private let bell: Bool
    private var recordsShown = 0
    /// A hold of dismiss in progress: when it is released, and how many records there were
    /// before it, so a hold that ends a workout with nothing to record says so.
    private var dismissHold: (releasedAt: Duration, records: Int)?
    /// What the data directory holds, when there is one.
    private var storage: KioskDataDirectory?
    /// Where the data directory is, for the user.
    public let dataDirectory: String?

    /// Reads keys from `fd` (a terminal in raw mode) and resizes from `resizeFD` (see
    /// `TerminalInputs`); `size` reads the terminal's size; `write` receives the screen updates.
    /// With `bell`, every beep also rings the terminal's bell. `configuration` gives the kiosk's
    /// settings, display, audio and `[fleet]`; a signal
    /// in `stopSignals` ends the run as `q` does.
    public init(
        configuration: GymTimerConfiguration,
        fd: Int32 = 0, resizeFD: Int32? = nil, size: @escaping () -> TerminalSize = { .standard },
        colour: Bool = true, bell: Bool = false, dataDirectory: String? = nil, wallTime: Duration = .zero,
        stopSignals: StopSignals? = nil, write: @escaping (String) -> Void
    ) throws(SimulationSetupError) {
        self.dataDirectory = dataDirectory
        devices = SimulatedDevices(display: configuration.hardware.display.kind, audio: configuration.audio.enabled)
        settings = configuration.kiosk
        self.configuration = configuration
        self.stopSignals = stopSignals
        self.write = write
        self.bell = bell
        terminalSize = size
        let clock = self.clock
        let origin = clock.now
        self.origin = origin
        kioskOrigin = origin
        inputs = TerminalInputs(
            fd: fd, resizeFD: resizeFD, start: ControlButton.start.rawValue, dismiss: ControlButton.dismiss.rawValue,
            now: { origin.duration(to: clock.now) })
        screen = KioskScreen(colour: colour)
        screen.size = size()
        // A fault would scroll the panel away on stderr; it goes to the event list instead.
        faults = FaultLog(sink: { [unowned self] in self.events.note("fault: " + $0, at: self.now) })
        if let dataDirectory { storage = try KioskDataDirectory.simulator(dataDirectory, faults: faults) }
        // With storage, moments are wall time (as on a kiosk), so stored deadlines survive a restart.
        kioskOrigin = storage == nil ? origin : origin.advanced(by: .zero - wallTime)
        observeOutputs()
        inputs.onCommand = { [unowned self] command, time in self.typed(command, at: time) }
    }

    /// The origin of the kiosk's timeline: the simulator's start, or the Unix epoch with storage.
    private var kioskOrigin: ContinuousClock.Instant

    /// Runs until `q`, Ctrl-C, the end of input or a stop signal; a fleet station says
    /// `offline` on the way out.
    public func run() throws(HALError) {
        let (clock, kioskOrigin) = (self.clock, self.kioskOrigin)
        let fleet = KioskFleet(
            configuration, historyPath: storage.map { $0.path + "/history.sqlite" },
            now: { Moment(kioskOrigin.duration(to: clock.now)) },
            log: { [unowned self] in self.events.note($0, at: self.now) })
        fleet.station?.onEvent = { [unowned self] event in
            if let text = Self.fleetText(event) { self.events.note(text, at: self.now) }
        }
        let runtime: KioskRuntime<ContinuousClock>
        if let storage {
            runtime = storage.runtime(
                settings: settings, clock: clock, origin: kioskOrigin, devices: devices.kioskDevices(inputs: inputs),
                history: fleet.history(HistoryFanOut([storage.history, history])), extraDrivers: fleet.drivers,
                sleepClock: .system())
            events.note(storage.stored == nil ? "keeping history and state in \(dataDirectory ?? "")"
                : "resumed from \(dataDirectory ?? "")", at: now)
        } else {
            runtime = KioskRuntime(
                kiosk: Kiosk(settings: settings), clock: clock, origin: origin,
                devices: devices.kioskDevices(inputs: inputs), history: fleet.history(history), faults: faults,
                extraDrivers: fleet.drivers, sleepClock: .system())
        }
        fleet.attach(runtime)
        inputs.sources = fleet.sources + (stopSignals.map { [$0] } ?? []) + (storage.map { [$0.clockSteps] } ?? [])
        if let station = fleet.station {
            stationName = station.settings.station
            events.note("fleet: station \(station.settings.station), broker \(station.settings.broker)", at: now)
        }
        runtime.start()
        fleet.observe(runtime)
        draw(runtime.kiosk)
        while !inputs.quitRequested && stopSignals?.stopRequested != true {
            try runtime.step()
            fleet.observe(runtime)
            if inputs.takeRedrawRequest() {
                screen.size = terminalSize()
                screen.invalidate()
            }
            draw(runtime.kiosk)
        }
        fleet.stop()
        inputs.sources = []
    }

    /// The fleet station's name, shown in the status line, once it runs.
    private var stationName: String?

    /// A fleet happening in the panel's words, or nil for what the panel already shows (a
    /// phase change, a record).
    static func fleetText(_ event: FleetEvent) -> String? {
        switch event.event {
        case "online": return "fleet: connected, online"
        case "scheduled":
            guard let at = event.at?.text.flatMap(Double.init) else { return "fleet: start scheduled" }
            let formatter = DateFormatter()
            formatter.dateFormat = "HH:mm:ss.SSS"
            return "fleet: start scheduled for \(formatter.string(from: Date(timeIntervalSince1970: at)))"
        case "started": return "fleet: started by the coach"
        case "command":
            switch event.verb ?? "" {
            case "start": return "fleet: started by the coach"
            case "dismiss": return "fleet: dismissed by the coach"
            case "set": return "fleet: rest time set by the coach"
            case "select": return "fleet: \(event.mode ?? "") chosen by the coach"
            case let other: return "fleet: \(other) by the coach"
            }
        case "error":
            // As the payload escapes it (but its quotes): a control character in a hostile
            // command's name stays a visible escape on the terminal.
            let escaped = FleetJSONEncoder().quoted(event.reason ?? "").dropFirst().dropLast()
            return "fleet: refused a command: \(escaped.replacingOccurrences(of: "\\\"", with: "\""))"
        default: return nil
        }
    }

    /// The time on the kiosk's timeline.
    private var now: Duration { origin.duration(to: clock.now) }

    /// Every output change updates the screen's model and the event list; `draw` shows them.
    private func observeOutputs() {
        let screen = self.screen
        screen.frame = devices.display.frame
        devices.display.onFrame = { screen.frame = $0 }
        screen.buzzer = devices.buzzer.level
        devices.buzzer.onChange = { [unowned self] on in
            screen.buzzer = on
            if self.events.buzzer(on, at: self.now), self.bell { self.write("\u{07}") }
        }
        for (led, line) in devices.leds {
            screen.leds[led] = line.level
            line.onChange = { screen.leds[led] = $0 }
        }
        screen.sound = devices.sound.playing?.name
        devices.sound.onChange = { [unowned self] name in
            screen.sound = name
            self.events.sound(name, at: self.now)
        }
    }

    /// Logs what a key asked the hands to do.
    private func typed(_ command: TerminalInputs.Command, at time: Duration) {
        switch command {
        case .click(let button): events.note("\(button) pressed", at: time)
        case .hold(let button):
            events.note("\(button) held 2 s", at: time)
            if button == ControlButton.dismiss.rawValue {
                dismissHold = (time + TerminalInputs.holdLength, history.records.count)
            }
        case .turn(let detents): events.knob(detents, at: time)
        case .redraw, .quit: break
        }
    }

    /// What the kiosk is doing, in plain words, with the keys that act in the menu.
    static func statusText(_ kiosk: Kiosk) -> String {
        if case .menu = kiosk.mode { return kiosk.statusLine + " — knob (←/→) chooses, s picks, d leaves" }
        return kiosk.statusLine
    }

    /// The event list's line for a record: `recorded: rest workout, 3 sets`, `recorded: guided
    /// workout full-body, 8 exercises`, `recorded: program Tabata, 8 rounds`.
    static func recordedText(_ record: WorkoutRecord) -> String {
        func count(_ n: Int, _ noun: String) -> String { n == 1 ? "1 \(noun)" : "\(n) \(noun)s" }
        if let score = record.score { return "recorded: program \(record.preset ?? ""), \(score)" }
        switch record.kind {
        case .workout:
            return "recorded: guided workout\(record.preset.map { " " + $0 } ?? ""), \(count(record.sets, "exercise"))"
        default: return "recorded: \(record.kind.rawValue) workout, \(count(record.sets, "set"))"
        }
    }

    /// Whether a run was under way at the last draw (`Kiosk.runInProgress`).
    private var runWasInProgress = false

    /// Whether the kiosk went from a run under way (`before`) to idle without recording it: a
    /// dismiss while paused, a hold of dismiss, a coach's dismiss. Programs, interval
    /// workouts and guided sessions alike.
    static func threwAwayARun(before: Bool, after kiosk: Kiosk, recorded: Bool) -> Bool {
        before && !kiosk.runInProgress && kiosk.isIdle && !recorded
    }

    /// Writes what changed since the last draw, if anything.
    private func draw(_ kiosk: Kiosk) {
        screen.status = Self.statusText(kiosk) + (stationName.map { " · station \($0)" } ?? "")
        if Self.threwAwayARun(before: runWasInProgress, after: kiosk, recorded: history.records.count != recordsShown) {
            events.note("workout ended: nothing recorded", at: now)
            dismissHold = nil  // a hold that did it is said once, here
        }
        runWasInProgress = kiosk.runInProgress
        if history.records.count != recordsShown {
            for record in history.records[recordsShown...] { events.note(Self.recordedText(record), at: now) }
            recordsShown = history.records.count
        }
        if let hold = dismissHold, now >= hold.releasedAt {
            if history.records.count == hold.records { events.note("workout ended: nothing recorded", at: hold.releasedAt) }
            dismissHold = nil
        }
        screen.events = events.lines()
        let update = screen.update()
        if !update.isEmpty { write(update) }
    }
}
