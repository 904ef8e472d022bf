import Foundation

extension FleetCommand {
    /// The payload that says this command (what `parse` reads back as it): what the coach's
    /// tools publish, so the command's shape is written in one place, beside its parser.
    public var json: String {
        switch self {
        case .start(nil): return #"{"do":"start"}"#
        case .start(let at?): return #"{"do":"start","at":"# + String(format: "%.3f", at) + "}"
        case .classStart(let at, .named(let mode, nil)):
            return #"{"do":"start","at":"# + String(format: "%.3f", at) + #","mode":"# + JSONValue.quoted(mode) + "}"
        case .classStart(let at, .named(let mode, let name?)):
            return #"{"do":"start","at":"# + String(format: "%.3f", at) + #","mode":"# + JSONValue.quoted(mode)
                + #","name":"# + JSONValue.quoted(name) + "}"
        case .classStart(let at, .defined(let program)):
            return #"{"do":"start","at":"# + String(format: "%.3f", at) + #","program":"# + program.definitionJSON + "}"
        case .cancel: return #"{"do":"cancel"}"#
        case .ping: return #"{"do":"ping"}"#
        case .dismiss: return #"{"do":"dismiss"}"#
        case .pause: return #"{"do":"pause"}"#
        case .resume: return #"{"do":"resume"}"#
        case .reset: return #"{"do":"reset"}"#
        case .lock: return #"{"do":"lock"}"#
        case .brightness(let percent): return #"{"do":"brightness","percent":"# + String(percent) + "}"
        case .unlock: return #"{"do":"unlock"}"#
        case .sleep(nil): return #"{"do":"sleep","off":true}"#
        case .sleep(let window?):
            return #"{"do":"sleep","from":""# + window.fromText + #"","until":""# + window.untilText + #""}"#
        case .message(let text, let seconds):
            return #"{"do":"message","text":"# + JSONValue.quoted(text) + #","seconds":"# + String(seconds) + "}"
        case .setRest(let seconds): return #"{"do":"set","rest_seconds":"# + String(seconds) + "}"
        case .athlete(nil): return #"{"do":"athlete","card":null}"#
        case .athlete(let tap?):
            return #"{"do":"athlete","card":""# + tap.card.hex + "\"" + (tap.shortName.map { #","short":"# + JSONValue.quoted($0) } ?? "")
                + (tap.division.map { #","division":""# + $0.rawValue + "\"" } ?? "") + "}"
        case .forget(let card): return #"{"do":"forget","card":""# + card.hex + #""}"#
        case .select(let mode, nil): return #"{"do":"select","mode":"# + JSONValue.quoted(mode) + "}"
        case .select(let mode, let name?):
            return #"{"do":"select","mode":"# + JSONValue.quoted(mode) + #","name":"# + JSONValue.quoted(name) + "}"
        }
    }
}
