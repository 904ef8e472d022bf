/// The gym's desk (fleet.md, "The console asks the collector"): the console's asks, the
/// collector's answers and its scores. Under the reserved `all`, so no station's topics can be
/// them, and not under any topic a station reads.
extension FleetTopics {
    /// Where the console asks the collector (`GymDeskAsk`, QoS 1).
    public static func gymAsk(prefix: String) -> String { "\(prefix)/all/gym/ask" }

    /// Where the collector answers the console whose ask named `reply` (`GymDeskAnswer`, QoS 1).
    public static func gymAnswer(prefix: String, to reply: String) -> String { "\(prefix)/all/gym/answer/\(reply)" }

    /// Today's scores (`GymScores`), retained by the collector.
    public static func gymScores(prefix: String) -> String { "\(prefix)/all/gym/scores" }
}
