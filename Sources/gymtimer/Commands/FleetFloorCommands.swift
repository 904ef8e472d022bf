import ArgumentParser
import GymTimerCore
import GymTimerFleet

/// `gymtimer fleet message`: a short text on the stations' displays, over whatever runs.
struct FleetMessage: CoachCommand {
    static let configuration = CommandConfiguration(
        commandName: "message",
        abstract: "Show a short text on the stations' displays (scrolled when longer than 4 characters); what runs goes on underneath.")
    @OptionGroup var broker: FleetBrokerOptions
    @OptionGroup var target: FleetTargetOptions

    @Argument(help: "The text: letters and digits a 7-segment digit can draw (e.g. \"GO\", \"HYdrAtE\"), up to 64.")
    var text: String

    @Option(name: .long, help: "How long it shows, 1 to 60 s.")
    var seconds = FleetCommand.defaultMessageSeconds

    func validate() throws {
        if let problem = FloorMessage.problem(with: text) { throw CLIError.usage("message: \(problem)") }
        guard FloorMessage.seconds.contains(seconds) else { throw CLIError.usage("--seconds \(seconds): must be 1 to 60") }
    }

    func command() -> FleetCommand { .message(text: text, seconds: seconds) }
}

/// `gymtimer fleet lock`: the wall's buttons and knob do nothing until `unlock` (a class timer
/// members cannot take over); the coach's commands still work, and a restart keeps the lock.
struct FleetLock: CoachCommand {
    static let configuration = CommandConfiguration(
        commandName: "lock", abstract: "Lock the stations' buttons and knob (they show Loc); coach commands still work.")
    @OptionGroup var broker: FleetBrokerOptions
    @OptionGroup var target: FleetTargetOptions
    func command() -> FleetCommand { .lock }
}

/// `gymtimer fleet unlock`: the wall's buttons and knob work again.
struct FleetUnlock: CoachCommand {
    static let configuration = CommandConfiguration(commandName: "unlock", abstract: "Unlock the stations' buttons and knob.")
    @OptionGroup var broker: FleetBrokerOptions
    @OptionGroup var target: FleetTargetOptions
    func command() -> FleetCommand { .unlock }
}

/// `gymtimer fleet upgrade`: each station hands an upgrade from the gym's package source to its
/// upgrade agent, which installs it once the station is idle (docs/upgrades.md); a station with
/// no agent, or nothing newer, refuses and says why.
struct FleetUpgrade: CoachCommand {
    static let configuration = CommandConfiguration(
        commandName: "upgrade", abstract: "Upgrade the stations from the gym's package source, each once it is idle.")
    @OptionGroup var broker: FleetBrokerOptions
    @OptionGroup var target: FleetTargetOptions
    func command() -> FleetCommand { .upgrade }
}

/// `gymtimer fleet brightness`: how bright the stations' displays are (kept across restarts).
struct FleetBrightness: CoachCommand {
    static let configuration = CommandConfiguration(
        commandName: "brightness", abstract: "Set the stations' display brightness, 0 to 100 % (kept across restarts).")
    @OptionGroup var broker: FleetBrokerOptions
    @OptionGroup var target: FleetTargetOptions

    @Argument(help: "Percent of the display's brightest, 0 to 100.")
    var percent: Int

    func validate() throws {
        guard (0...100).contains(percent) else { throw CLIError.usage("brightness \(percent): must be 0 to 100") }
    }

    func command() -> FleetCommand { .brightness(percent: percent) }
}

/// `gymtimer fleet sleep`: the hours the stations' displays go dark while idle and untouched
/// (a touch only wakes them for a few minutes); `--off` ends it. Kept across restarts.
struct FleetSleep: CoachCommand {
    static let configuration = CommandConfiguration(
        commandName: "sleep",
        abstract: "Set the hours the stations' displays sleep (dark while idle; a touch wakes them), or --off (kept across restarts).")
    @OptionGroup var broker: FleetBrokerOptions
    @OptionGroup var target: FleetTargetOptions

    @Option(name: .long, help: "When the displays go dark, HH:MM in the station's local time (e.g. 22:00).")
    var from: String?
    @Option(name: .long, help: "When they light again, HH:MM (e.g. 06:00; before --from crosses midnight).")
    var until: String?
    @Flag(name: .long, help: "No sleep window: the displays stay lit.")
    var off = false

    func validate() throws {
        if off {
            guard from == nil, until == nil else { throw CLIError.usage("sleep: --off takes no --from or --until") }
            return
        }
        guard let from, let until else { throw CLIError.usage("sleep: give --from and --until (HH:MM), or --off") }
        if case .failure(let refusal) = SleepWindow.parse(from: from, until: until) { throw CLIError.usage("sleep: \(refusal.reason)") }
    }

    func command() -> FleetCommand {
        guard !off, let from, let until, case .success(let window) = SleepWindow.parse(from: from, until: until) else { return .sleep(nil) }
        return .sleep(window)
    }
}

/// `gymtimer fleet athlete`: the coach's class list — puts an athlete on a station (their card,
/// and the short name its display shows for a moment) as a tap of their card would, or `--off`
/// takes whoever is on it off (the next workouts are a guest's).
struct FleetAthlete: CoachCommand {
    static let configuration = CommandConfiguration(
        commandName: "athlete",
        abstract: "Put an athlete on a station by their card (the class list), or --off: its next workouts are theirs.")
    @OptionGroup var broker: FleetBrokerOptions
    @OptionGroup var target: FleetTargetOptions

    @Option(name: .long, help: "The athlete's card: its pseudonym as `athletes list` prints it, or its UID in hex (e.g. 04A1B2C3) with --card-key.")
    var card: String?
    @Option(name: .customLong("card-key"), help: "The gym's card key file (the stations' [athletes] card_key), which turns a typed UID into the card's pseudonym: the UID never goes on the network.")
    var cardKey: String?
    @Option(name: .long, help: "What the display shows for a moment: up to 4 characters a digit draws (e.g. AnnA).")
    var short: String?
    @Option(name: .long, help: "rx or scaled: how their program results are recorded (default: a fresh athlete starts rx, one already on the station keeps theirs).")
    var division: String?
    @Flag(name: .long, help: "Nobody: the station's next workouts are a guest's.")
    var off = false

    func validate() throws {
        if off {
            guard card == nil, short == nil, division == nil else { throw CLIError.usage("athlete: --off takes no --card, --short or --division") }
            return
        }
        guard let card else { throw CLIError.usage("athlete: give --card CARD, or --off") }
        _ = try CardArgument.card(card, option: "athlete --card", keyFile: cardKey)
        if let short, short.isEmpty || !DisplayContent.canDraw(short) {
            throw CLIError.usage("athlete --short: up to 4 characters a 7-segment digit draws")
        }
        if let division, Division(rawValue: division) == nil {
            throw CLIError.usage("athlete --division \(division.prefix(32)): rx or scaled")
        }
    }

    func command() -> FleetCommand {
        // Checked by `validate`: the card is one, its key readable.
        .athlete(card.flatMap { try? CardArgument.card($0, option: "--card", keyFile: cardKey) }.map {
            CardTap(card: $0, shortName: short, division: division.flatMap(Division.init(rawValue:)))
        })
    }
}
