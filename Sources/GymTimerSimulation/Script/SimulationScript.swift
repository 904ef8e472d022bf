import GymTimerCore

/// A parsed `simulate --script` file (simulation.md): timed actions and the end time.
public struct SimulationScript: Hashable, Sendable {
    /// One scripted action.
    public enum Action: Hashable, Sendable {
        case press(String)
        case release(String)
        case click(String)
        case hold(String, Duration)
        case bounce(String)
        case turn(Int)
        case restart
        /// A card with this UID held to the station's reader (`T tap 04A1B2C3`).
        case tap(CardUID)
        /// Something the gym's network does (a run whose config has a `[fleet]`).
        case fleet(FleetAction)
    }

    /// What a script may make the fleet's network do around the simulated station: a coach's
    /// message arriving on its command topic, the broker going away and coming back.
    public enum FleetAction: Hashable, Sendable {
        /// `payload`, exactly as written, published to the station's own command topic (or to
        /// every station's, `all`), retained or not: a command, or anything a hostile client sends.
        case message(payload: String, everyStation: Bool, retained: Bool)
        /// `payload`, retained on the station's `class` topic: the class's instants as the coach's
        /// console keeps them (`fleet class {"id":…,"at":…,"pauses":[…]}`; an empty payload clears them).
        case classRecord(payload: String)
        /// `payload`, retained on the gym's topic of `card` (`{prefix}/all/athletes/{card}`): the
        /// athlete's card as the collector publishes it (`fleet card 04A1B2C3 {"short":"AnnA",…}`;
        /// an empty payload clears it).
        case athleteCard(card: CardUID, payload: String)
        /// The broker goes down (its retained messages and sessions are kept, as Mosquitto's
        /// persistence keeps them): every client loses its connection.
        case brokerDown
        /// The broker accepts connections again.
        case brokerUp
    }

    /// An action at its time, with the script line it came from.
    public struct Step: Hashable, Sendable {
        public var time: Duration
        public var action: Action
        public var line: Int

        public init(time: Duration, action: Action, line: Int) {
            self.time = time
            self.action = action
            self.line = line
        }
    }

    public var steps: [Step]
    /// When the simulation stops.
    public var end: Duration

    public init(steps: [Step], end: Duration) {
        self.steps = steps
        self.end = end
    }
}
