import ArgumentParser
import GymTimerHardware

/// `gymtimer bench-audio`: plays every cue through a real ALSA PCM and prints, per cue, the
/// latency from the cue to its first sample reaching ALSA and from stop to silence (median,
/// p99, max) against the targets (20 ms and 50 ms).
struct BenchAudio: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-audio", abstract: "Measure cue-to-sound and stop-to-silence latency through ALSA.")

    @Option(name: .long, help: "The ALSA PCM (aplay -L lists them).")
    var device = "default"

    @Option(name: .long, help: "Runs per cue.")
    var runs = 100

    func run() throws {
        do {
            print(try AudioLatencyBenchmark.run(pcmName: device, runs: runs))
        } catch {
            throw CLIError.usage("\(error)")
        }
    }
}
