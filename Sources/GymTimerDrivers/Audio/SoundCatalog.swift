import GymTimerCore

/// The one place that says how each `Sound` sounds: its built-in tone pattern, the words
/// espeak-ng says for it, its buzzer fallback (for when no sound can be heard) and how long one
/// play lasts. `SoundLibrary`, `BuzzerFallback` and the simulator all read it here, so a new
/// cue is a case in `Sound` and an entry in `cue(for:)`.
public enum SoundCatalog {
    /// Everything the kiosk knows about one cue.
    public struct Cue: Sendable {
        /// The built-in tones, exactly `length` long (one loop period for a looping cue).
        public var tones: TonePattern
        /// What espeak-ng says for it; nil for a cue that is only a tone.
        public var spoken: String?
        /// Its buzzer version; nil for cues the core already pairs with a buzzer pattern of
        /// their own (the alarm; `complete` and `time-cap` come with the long beep).
        public var buzzer: BuzzerPattern?
        /// One play, or one loop period of a looping cue.
        public var length: Duration
    }

    /// The cue `sound` is. A table, one case per sound: its length is the sounds' data, not logic.
    public static func cue(for sound: Sound) -> Cue {
        switch sound {
        case .alarm:
            return Cue(tones: Tones.alarm, buzzer: nil, length: .milliseconds(1000))
        case .warning:
            return Cue(tones: TonePattern([.note(1000, 180), .silence(120)]),
                       buzzer: beeps(100, 100, 100), length: .milliseconds(300))
        case .complete:
            return Cue(tones: Tones.complete, spoken: "Workout complete", buzzer: nil, length: .milliseconds(2000))
        case .restOver:
            return Cue(tones: TonePattern([.note(783.99, 300), .silence(100), .note(1046.5, 500), .silence(300)]),
                       buzzer: beeps(400), length: .milliseconds(1200))
        case .setCompleting(let n):
            return Cue(tones: Tones.setCompleting, spoken: "Set \(n) completing in 3, 2, 1", buzzer: beeps(150, 150, 150, 150, 150),
                       length: .milliseconds(2800))
        case .go:
            // One bright, high note: the start.
            return Cue(tones: TonePattern([.note(1318.5, 600), .silence(400)]), spoken: "Go",
                       buzzer: beeps(600), length: .milliseconds(1000))
        case .work:
            // Rising: back to work.
            return Cue(tones: TonePattern([.note(659.25, 200), .silence(50), .note(987.77, 400), .silence(350)]),
                       spoken: "Work", buzzer: beeps(100, 100, 300), length: .milliseconds(1000))
        case .rest:
            // Falling: ease off.
            return Cue(tones: TonePattern([.note(987.77, 200), .silence(50), .note(659.25, 400), .silence(350)]),
                       spoken: "Rest", buzzer: beeps(300, 100, 100), length: .milliseconds(1000))
        case .round(let n):
            // Two quick calls: a new round.
            return Cue(tones: TonePattern([.note(880, 150), .silence(100), .note(880, 150), .silence(600)]),
                       spoken: "Round \(n)", buzzer: beeps(200, 150, 200), length: .milliseconds(1000))
        case .halfway:
            return Cue(tones: Tones.halfway, spoken: "Halfway", buzzer: beeps(100, 100, 100, 100, 100, 100, 100), length: .milliseconds(1000))
        case .lastMinute:
            return Cue(tones: Tones.lastMinute, spoken: "Last minute", buzzer: beeps(300, 150, 300, 150, 300), length: .milliseconds(1200))
        case .timeCap:
            return Cue(tones: Tones.timeCap, spoken: "Time cap", buzzer: nil, length: .milliseconds(1200))
        case .personalRecord:
            return Cue(tones: Tones.personalRecord, spoken: "Personal record!", buzzer: beeps(100, 80, 100, 80, 100, 80, 600),
                       length: .milliseconds(2200))
        }
    }

    /// The longer tone patterns, by name, so the table above stays a table.
    enum Tones {
        /// Loud two-tone hi-lo, twice per one-second period: cuts through gym music.
        static let alarm = TonePattern([
            .note(1175, 225), .silence(25), .note(880, 225), .silence(25),
            .note(1175, 225), .silence(25), .note(880, 225), .silence(25),
        ])
        /// Rising C-E-G-C fanfare.
        static let complete = TonePattern([
            .note(523.25, 250), .silence(50), .note(659.25, 250), .silence(50),
            .note(783.99, 250), .silence(50), .note(1046.5, 800), .silence(300),
        ])
        /// Stands in for "Set N completing in 3, 2, 1": a call tone, then three counting beeps.
        static let setCompleting = TonePattern([
            .note(659.25, 200), .silence(300),
            .note(880, 200), .silence(400), .note(880, 200), .silence(400), .note(880, 200), .silence(400),
            .note(1318.5, 300), .silence(200),
        ])
        static let halfway = TonePattern([
            .note(783.99, 150), .silence(100), .note(783.99, 150), .silence(100), .note(783.99, 150), .silence(350),
        ])
        static let lastMinute = TonePattern([
            .note(1046.5, 300), .silence(100), .note(1046.5, 300), .silence(100), .note(1046.5, 300), .silence(100),
        ])
        /// Falling G-E-C: time is up.
        static let timeCap = TonePattern([
            .note(783.99, 250), .silence(50), .note(659.25, 250), .silence(50), .note(523.25, 500), .silence(100),
        ])
        /// A bright rising run to a held top note, twice the end's fanfare: a record beaten.
        static let personalRecord = TonePattern([
            .note(783.99, 120), .silence(30), .note(1046.5, 120), .silence(30), .note(1318.5, 120), .silence(30),
            .note(1568, 600), .silence(150), .note(1318.5, 120), .silence(30), .note(1568, 700), .silence(150),
        ])
    }

    /// The file an owner's override of `sound` is read from (`<name>.wav`).
    public static func overrideFileName(of sound: Sound) -> String { "\(sound.name).wav" }

    /// Length of one play of `sound`; nil for a looping sound, which plays until stopped.
    public static func duration(of sound: Sound) -> Duration? {
        sound.loops ? nil : cue(for: sound).length
    }

    /// Length of one play, or of one loop period for a looping sound (the alarm's pattern
    /// repeats every second, so a dismissed alarm never lingers more than a beat).
    public static func period(of sound: Sound) -> Duration { cue(for: sound).length }

    /// A one-shot buzzer pattern of alternating on/off steps in milliseconds.
    private static func beeps(_ milliseconds: Int...) -> BuzzerPattern {
        BuzzerPattern(steps: milliseconds.map { .milliseconds($0) }, loops: false)
    }
}
