import Foundation
import GymTimerConfig
import GymTimerCore
import GymTimerDrivers
import GymTimerHAL
import GymTimerHistory
import GymTimerRuntime
import GymTimerSetup
import GymTimerSimulation
import GymTimerSystem
import Synchronization

/// `gymtimer simulate --script`: the whole kiosk — event loop, core, debouncers, decoder and
/// drivers — run against simulated devices in virtual time, writing the JSON Lines trace.
/// The same script and settings always give the same trace, byte for byte. With a `[fleet]`
/// in its configuration, every controller of the run hosts its station on an in-memory broker
/// (`ScriptedFleet`): the script's `fleet` and `broker` lines act on it, and what the station
/// sends is in the trace.
public final class ScriptedSimulation {
    public let clock = VirtualClock()
    public let inputs: ScriptedInputs
    public let devices: SimulatedDevices
    public var display: any SimulatedDisplay { devices.display }
    public var buzzer: SimulatedLine { devices.buzzer }
    public var leds: [StatusLED: SimulatedLine] { devices.leds }
    public var sound: SimulatedSoundPlayer { devices.sound }
    /// The workouts this run recorded (the SQLite history in the data directory has them too).
    public let history = InMemoryHistory()
    /// The history in the data directory, kept across runs like the kiosk's (synced as the
    /// kiosk's only in a data directory of the user's: the run's own temporary one is deleted
    /// at its end).
    public let store: HistoryStore
    /// Where a run started on a data directory an earlier run left state in resumes (zero otherwise).
    public let resumedAt: Duration
    /// Where the controller stores its running state (and history) between restarts.
    public let dataDirectory: String
    private let ownsDataDirectory: Bool
    /// Where the journal is kept when the run has no `dataDirectory` of the user's: in memory
    /// (a simulated medium, never synced), as nobody reads it after the run; nil when it is
    /// the file in the user's data directory, kept and synced as the kiosk's.
    public let journalMemory: JournalMemory?
    private let script: SimulationScript
    private let settings: KioskSettings
    private let trace: TraceRecorder
    private let faults: FaultLog
    private let lock: DataDirectoryLock
    private let timeline: Timeline
    /// The station's network, when the configuration has a `[fleet]`.
    private let fleet: ScriptedFleet?
    /// The virtual wall clock and zone (UTC) a sleep window is read in.
    private let sleepClock: SleepClock
    /// The card key the run's taps are made pseudonyms with: the config's `[athletes] card_key`,
    /// or the simulator's public one (`CardKey.simulation`), so a script's trace is the same on
    /// every machine.
    private let cardKey: Result<CardKey, CardKeyFile.Problem>
    /// What the data directory held when the run began.
    private var initial: StoredKiosk<StoredWorkout>?

    /// `write` receives each trace line; `log` each fault line. `display` picks the display
    /// as the config's `hardware.display.type` does: a TM1637, HT16K33 or MAX7219 is its real
    /// driver over the simulated chip (the trace shows what the chip decoded, one record per
    /// complete frame, so it is the same trace); `none` is the plain simulated display.
    /// `audio` false plays every cue on the buzzer (see `SimulatedDevices`). `fleet`, a
    /// configuration with a `[fleet]`, makes the run host that station.
    public init(
        script: SimulationScript, settings: KioskSettings, display: DisplayHardware.Kind = .none,
        audio: Bool = true, dataDirectory: String? = nil, fleet: GymTimerConfiguration? = nil,
        write: @escaping (String) -> Void, log: @escaping (String) -> Void = { _ in }
    ) throws(SimulationSetupError) {
        if let dataDirectory {
            guard Self.makeDirectory(dataDirectory) else { throw .unusableDataDirectory(dataDirectory) }
            self.dataDirectory = dataDirectory
            ownsDataDirectory = false
            journalMemory = nil
        } else {
            var template = Array((NSTemporaryDirectory() + "gymtimer-sim-XXXXXX").utf8CString)
            guard let made = mkdtemp(&template) else { throw .unusableDataDirectory(NSTemporaryDirectory()) }
            self.dataDirectory = String(cString: made)
            ownsDataDirectory = true
            journalMemory = JournalMemory()
        }
        self.script = script
        self.settings = settings
        let cardKey: Result<CardKey, CardKeyFile.Problem> = settings.athletes.cardKeyPath.map { path in
            Result { () throws(CardKeyFile.Problem) in try CardKeyFile.read(path) }
        } ?? .success(.simulation)
        self.cardKey = cardKey
        devices = SimulatedDevices(display: display, audio: audio)
        faults = FaultLog(sink: log)
        do {
            lock = try DataDirectoryLock(directory: self.dataDirectory)
        } catch {
            throw .dataDirectoryInUse("\(error)")
        }
        let clock = self.clock
        let timeline = Timeline()
        self.timeline = timeline
        // The virtual wall clock: the virtual epoch plus the kiosk's timeline.
        let wall = WallClock(epoch: Self.virtualEpoch.timeIntervalSince1970) { timeline.moment(at: clock.now).sinceOrigin }
        store = HistoryStore.opening(
            path: self.dataDirectory + "/history.sqlite", faults: faults, timeZone: TimeZone(identifier: "UTC")!,
            wall: wall, durable: !ownsDataDirectory)
        // A run on a data directory an earlier run was killed in carries on from where that
        // state was saved, as the world carries on after a crash: virtual time resumes there,
        // the script's edges up to it are in the past (a finger put down then is still down).
        // One that ended cleanly is over: the next run starts at 0 with its history and its
        // idle kiosk, its t=0 being where the kiosk's timeline left off (so the new run's
        // records are new ones, not replays of the old run's).
        let stored = KioskStore(directory: self.dataDirectory, history: store, faults: faults, memory: journalMemory).load()
        if let stored, stored.ended {
            timeline.runOrigin = stored.savedAt
            resumedAt = .zero
            initial = stored.restartingIdle
        } else if let stored {
            timeline.runOrigin = stored.runOrigin
            resumedAt = stored.runOrigin.isWithin(KioskRestore.window, of: stored.savedAt)
                ? max(.zero, stored.savedAt - stored.runOrigin) : .zero
            initial = stored
        } else {
            resumedAt = .zero
        }
        clock.advance(to: .init(offset: resumedAt))
        inputs = ScriptedInputs(clock: clock, buttons: SimulatedDevices.buttonNames)
        inputs.schedule(ScriptedInputs.gestures(for: script))
        if resumedAt > .zero { inputs.skip(through: resumedAt) }
        inputs.limit = script.end
        let trace = TraceRecorder(now: { clock.now.offset }, write: write)
        self.trace = trace
        devices.report(to: trace)
        // The sleep window is read on the virtual wall clock, in UTC (as the history is), trusted.
        sleepClock = SleepClock(wall: wall, utcOffset: { _ in 0 }, trusted: { true })
        let historyPath = self.dataDirectory + "/history.sqlite"
        self.fleet = fleet.flatMap {
            ScriptedFleet(
                configuration: $0, historyPath: historyPath, clock: clock,
                now: { timeline.moment(at: clock.now) }, cardKey: try? cardKey.get(),
                wall: wall, trace: trace, log: log)
        }
    }

    deinit {
        if ownsDataDirectory { try? FileManager.default.removeItem(atPath: dataDirectory) }
    }

    /// The wall-clock time virtual time 0 stands for in the simulator's history (a Monday morning).
    public static let virtualEpoch = Date(timeIntervalSince1970: 1_767_600_000)

    /// The journal (running state and waiting records) in the data directory (in `journalMemory`
    /// instead, when there is one).
    public var statePath: String { dataDirectory + "/" + KioskStore<HistoryStore>.journalName }

    /// Runs the script to its end.
    public func run() throws(HALError) {
        // Virtual time is the wall clock here, so the origin is the same for every controller
        // of this run: the kiosk's timeline is the run's time plus where earlier runs left it.
        let origin = VirtualClock.Instant(offset: .zero - timeline.runOrigin.sinceOrigin)
        let end = timeline.runOrigin + script.end
        var runtime = makeRuntime(origin: origin)
        trace.begin()
        fleet?.report()
        // Lines that are not a hand on the hardware, in the script's order: the loop runs up
        // to each, then it is carried out.
        for step in script.steps {
            let at = timeline.runOrigin + step.time
            guard at < end else { break }
            switch step.action {
            case .restart:
                try advance(runtime, until: at)
                // The controller is torn down as if killed and built again from what it stored;
                // the devices (and the world's hands on them) stay.
                runtime = makeRuntime(origin: origin)
            case .fleet(let action) where step.time >= resumedAt:
                try advance(runtime, until: at)
                fleet?.perform(action, line: step.line)
            case .tap(let card) where step.time >= resumedAt:
                try advance(runtime, until: at)
                runtime.tapped(card, at: at)
            default:
                continue
            }
        }
        try advance(runtime, until: end)
        runtime.save(ended: true)
        fleet?.stop()
    }

    /// Runs the loop until `limit`, the station (if any) told of the kiosk after every wake-up
    /// and what it sent written to the trace. With a station, what falls due at `limit` itself
    /// is done first (a reconnection's subscription, say), so a script line at that instant
    /// acts on the world as it is then; a bound on those steps keeps a busy loop from hanging.
    private func advance(_ runtime: KioskRuntime<VirtualClock>, until limit: Moment) throws(HALError) {
        guard let fleet, let station = fleet.current else { return try runtime.run(until: limit) }
        var atLimit = 0
        while runtime.now < limit || (atLimit < Self.maxStepsAtOneInstant && runtime.nextDeadline.map { $0 <= limit } == true) {
            if runtime.now >= limit { atLimit += 1 }
            try runtime.step(notAfter: limit)
            station.observe(runtime)
            fleet.report()
        }
    }

    /// The most steps `advance` takes at its limit's instant.
    static let maxStepsAtOneInstant = 100

    /// A controller built from what is stored in the data directory, as a new process would
    /// be, started (with its fleet station, if any).
    private func makeRuntime(origin: VirtualClock.Instant) -> KioskRuntime<VirtualClock> {
        let kioskStore = KioskStore(directory: dataDirectory, history: store, faults: faults, memory: journalMemory)
        kioskStore.runOrigin = timeline.runOrigin
        let stored = initial ?? kioskStore.load()
        initial = nil
        let station = fleet?.station()
        let history = HistoryFanOut([store, history])
        var kiosk = kioskStore.restore(stored, settings: settings)
        if case .success(let key) = cardKey {
            store.cardKey = key
            kiosk = kiosk.carryingCards(with: key)
        }
        let runtime = KioskRuntime(
            kiosk: kiosk, clock: clock, origin: origin,
            devices: devices.kioskDevices(inputs: inputs), history: station?.history(history) ?? history, faults: faults,
            extraDrivers: station?.drivers ?? [], store: kioskStore, held: stored?.held ?? [:], sleepClock: sleepClock)
        runtime.cardKey = cardKey
        station?.attach(runtime)
        runtime.start()
        station?.observe(runtime)
        return runtime
    }

    static func makeDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) { return isDirectory.boolValue && access(path, W_OK) == 0 }
        return (try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)) != nil
    }
}

/// Where this run's virtual time 0 lies on the kiosk's timeline, which goes on across runs.
/// Sendable (behind a lock) because the virtual wall clock reads it.
private final class Timeline: Sendable {
    private let origin = Mutex(Moment.origin)

    var runOrigin: Moment {
        get { origin.withLock { $0 } }
        set { origin.withLock { $0 = newValue } }
    }

    func moment(at instant: VirtualClock.Instant) -> Moment { runOrigin + instant.offset }
}
