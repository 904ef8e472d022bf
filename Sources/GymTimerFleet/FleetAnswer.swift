/// A station's answer to a command that carried an id (fleet.md, "Commands are answered"): the
/// `command`, `scheduled` or `started` event it published under that id (done), or its `error`
/// event (refused, and why).
public enum FleetAnswer: Hashable, Sendable {
    case done
    case refused(reason: String)

    /// The longest refusal reason kept (a station's reasons are one line; anyone able to
    /// publish on an event topic could send more).
    public static let reasonWidth = 160

    /// The id an event answers and its answer, or nil for an event that answers no command
    /// (no id, another event). The reason is made safe to print (`FleetCell`).
    public static func parse(event payload: [UInt8]) -> (id: String, answer: FleetAnswer)? {
        guard payload.count <= FleetCommand.maximumSize, case .object(let fields)? = JSONValue.parse(payload),
              let id = fields["id"]?.string, FleetRequest.isValidID(id), let event = fields["event"]?.string else { return nil }
        switch event {
        case "command", "scheduled", "started":
            return (id, .done)
        case "error":
            let reason = fields["reason"]?.string ?? fields["kind"]?.string ?? "refused"
            return (id, .refused(reason: FleetCell.text(reason, width: reasonWidth)))
        default:
            return nil
        }
    }
}
