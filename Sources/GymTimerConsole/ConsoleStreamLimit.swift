/// Who may open one more page's live updates (`/events`): a few streams per client address for
/// the signed-out, and the last of them all kept for requests with the coach's session. So a
/// guest on the gym's Wi-Fi holding every stream it can, from one address or many, never shuts
/// the coach's page out, and `maximum` still bounds the memory every stream takes. Pure: the
/// caller says who asks (the TCP peer's address, whether its cookie is a live session);
/// `ConsoleBroadcast` keeps one behind its lock and counts a page out when its stream ends.
public struct ConsoleStreamLimit: Hashable, Sendable {
    /// The most streams open at once, signed in or not: each holds a connection and a buffer
    /// of at most 32 frames (`ConsoleBroadcast`), so this bounds the console's memory.
    public static let maximumStreams = 64
    /// Streams one signed-out address may hold: a browser opens one per tab of the page (the
    /// TV's one, a phone's page and a reload while the old one closes), and on the gym's Wi-Fi
    /// every device has an address of its own.
    public static let streamsPerAddress = 4
    /// Streams only a signed-in request may take: the coach's phone, tablet and laptop, a
    /// tab or two each.
    public static let streamsForTheCoach = 8

    public let maximum: Int
    public let perAddress: Int
    public let keptForTheCoach: Int
    /// Open signed-out streams, per client address ("" for a client whose address is unknown).
    private var guests: [String: Int] = [:]
    private var guestTotal = 0
    private var coachTotal = 0

    public init(
        maximum: Int = ConsoleStreamLimit.maximumStreams, perAddress: Int = ConsoleStreamLimit.streamsPerAddress,
        keptForTheCoach: Int = ConsoleStreamLimit.streamsForTheCoach
    ) {
        self.maximum = maximum
        self.perAddress = perAddress
        self.keptForTheCoach = min(keptForTheCoach, maximum)
    }

    /// Who asks for a stream.
    public enum Client: Hashable, Sendable {
        /// A request carrying a live coach's session: no per-address cap, and the kept room.
        case coach
        /// A signed-out request from the TCP peer `address`.
        case guest(address: String)
    }

    /// Why a stream was refused: one line for the page's body, with its HTTP status.
    public enum Refusal: Error, Hashable, Sendable, CustomStringConvertible {
        /// The address holds `perAddress` streams already.
        case address(limit: Int)
        /// Signed-out streams fill their share; `kept` more are the coach's.
        case guests(limit: Int, kept: Int)
        /// Every stream is taken.
        case full(limit: Int)

        /// 429 for one address's own excess (it can close one), 503 when the console is full.
        public var status: Int {
            if case .address = self { return 429 }
            return 503
        }

        public var description: String {
            switch self {
            case .address(let limit): "too many pages open from this address (\(limit)): close one"
            case .guests(let limit, let kept):
                "too many pages open (\(limit) signed out; \(kept) more are kept for the coach): close one or sign in"
            case .full(let limit): "too many pages open (\(limit)): close one"
            }
        }
    }

    /// Streams open now, signed in or not.
    public var open: Int { guestTotal + coachTotal }

    /// Counts a stream for `client` in, or says why not (nothing counted). `keepingRoom` false
    /// (a console without a PIN: nobody can sign in) gives the signed-out every stream.
    public mutating func admit(_ client: Client, keepingRoom: Bool = true) -> Refusal? {
        guard open < maximum else { return .full(limit: maximum) }
        switch client {
        case .coach:
            coachTotal += 1
        case .guest(let address):
            guard guests[address, default: 0] < perAddress else { return .address(limit: perAddress) }
            let share = keepingRoom ? maximum - keptForTheCoach : maximum
            guard guestTotal < share else { return .guests(limit: share, kept: maximum - share) }
            guests[address, default: 0] += 1
            guestTotal += 1
        }
        return nil
    }

    /// Counts out a stream `admit` counted in (its page's stream ended).
    public mutating func release(_ client: Client) {
        switch client {
        case .coach:
            coachTotal = max(0, coachTotal - 1)
        case .guest(let address):
            guard let held = guests[address] else { return }
            guests[address] = held > 1 ? held - 1 : nil
            guestTotal -= 1
        }
    }

    /// The signed-out streams `address` holds.
    public func streams(from address: String) -> Int { guests[address] ?? 0 }
}
