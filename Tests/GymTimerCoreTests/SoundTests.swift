import Foundation
import Testing
@testable import GymTimerCore

/// Sounds are a type, but their names (the simulator trace's, simulation.md) and the journal's
/// format are what they were when sounds were strings.
@Suite struct SoundTests {
    static let all: [(Sound, String)] = [
        (.alarm, "alarm"), (.warning, "warning"), (.complete, "complete"), (.restOver, "rest-over"),
        (.setCompleting(3), "set-3"), (.setCompleting(12), "set-12"), (.go, "go"), (.work, "work"), (.rest, "rest"),
        (.round(2), "round-2"), (.halfway, "halfway"), (.lastMinute, "last-minute"), (.timeCap, "time-cap"),
        (.personalRecord, "personal-record"),
    ]

    @Test func namesAreTheTracesAndReadBack() {
        for (sound, name) in Self.all {
            #expect(sound.name == name && sound.description == name)
            #expect(Sound(name: name) == sound)
        }
        for unknown in ["", "Alarm", "set-", "set-x", "set-+3", "round-03", "beep"] {
            #expect(Sound(name: unknown) == nil, "\(unknown)")
        }
        #expect(Self.all.filter(\.0.loops).map(\.0) == [.alarm])
    }

    @Test func theJournalFormatIsUnchanged() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(String(decoding: try encoder.encode(Sound.setCompleting(3)), as: UTF8.self) == #"{"loops":false,"name":"set-3"}"#)
        #expect(String(decoding: try encoder.encode(Sound.alarm), as: UTF8.self) == #"{"loops":true,"name":"alarm"}"#)
        // As a journal written while sounds were strings holds them.
        let old = #"[{"name":"round-4","loops":false},{"name":"alarm","loops":true},{"name":"last-minute"}]"#
        #expect(try JSONDecoder().decode([Sound].self, from: Data(old.utf8)) == [.round(4), .alarm, .lastMinute])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Sound.self, from: Data(#"{"name":"boing"}"#.utf8)) }
    }
}
