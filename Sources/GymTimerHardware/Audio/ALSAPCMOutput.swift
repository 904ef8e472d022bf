import CALSA
import Glibc
import GymTimerHAL

/// Sound through ALSA: a PCM opened for mono S16_LE playback at 48 kHz (or the device's nearest
/// rate) with a short buffer, so a cue starts and stops within a few tens of milliseconds.
///
/// Blocking writes of a period at most: `write` returns within the device's latency. An
/// underrun (the normal state between cues) is recovered with `snd_pcm_recover`.
public final class ALSAPCMOutput: PCMOutput {
    public let name: String
    public let sampleRate: Int
    /// The buffer length the device granted; writes never wait longer than this.
    public let latency: Duration
    private var pcm: OpaquePointer?

    /// Opens the PCM called `name` ("default", "hw:1,0", "plughw:CARD=Device", …).
    /// - Parameters:
    ///   - sampleRate: the rate asked for; the device's nearest is used (see `sampleRate`).
    ///   - latency: the buffer length asked for, clamped to 20...50 ms.
    ///   - configuration: alsa-lib configuration text to use instead of the system's
    ///     (`pcm.NAME { … }`); tests use it to play into a `file` PCM with no sound card.
    public init(
        name: String = "default", sampleRate: Int = 48_000, latency: Duration = .milliseconds(40),
        configuration: String? = nil
    ) throws(HALError) {
        gymtimer_alsa_quiet()
        self.name = name
        let device = "ALSA PCM '\(name)'"
        var handle: OpaquePointer?
        var result: Int32
        if let configuration {
            let config = try Self.loadConfiguration(configuration, device: device)
            defer { snd_config_delete(config) }
            result = snd_pcm_open_lconf(&handle, name, SND_PCM_STREAM_PLAYBACK, 0, config)
        } else {
            result = snd_pcm_open(&handle, name, SND_PCM_STREAM_PLAYBACK, 0)
        }
        guard result >= 0, let handle else { throw Self.openError(result, device: device) }
        do throws(HALError) {
            let granted = try Self.configure(
                handle, device: device, rate: sampleRate,
                latencyMicroseconds: UInt32(min(max(Self.microseconds(latency), 20_000), 50_000))
            )
            self.sampleRate = granted.rate
            self.latency = granted.latency
        } catch {
            snd_pcm_close(handle)
            throw error
        }
        self.pcm = handle
    }

    deinit { close() }

    /// Closes the device (a `file` PCM finishes its file here). Later writes fail.
    public func close() {
        guard let pcm else { return }
        snd_pcm_close(pcm)
        self.pcm = nil
    }

    public func write(_ samples: ArraySlice<Int16>) throws(HALError) -> Int {
        guard let pcm else { throw .io(device: "ALSA PCM '\(name)'", operation: "write after close", errno: EBADF) }
        guard !samples.isEmpty else { return 0 }
        for _ in 0..<2 {
            let written = samples.withUnsafeBufferPointer { buffer in
                snd_pcm_writei(pcm, buffer.baseAddress, snd_pcm_uframes_t(buffer.count))
            }
            if written >= 0 { return written }
            let code = Int32(written)
            if code == -EAGAIN { return 0 }
            // Underrun (EPIPE) or suspend (ESTRPIPE): prepare again and retry once.
            let recovered = snd_pcm_recover(pcm, code, 1)
            if recovered < 0 { throw .io(device: "ALSA PCM '\(name)'", operation: "snd_pcm_writei", errno: -code) }
        }
        return 0
    }

    public func stop() throws(HALError) {
        guard let pcm else { return }
        var result = snd_pcm_drop(pcm)
        if result >= 0 { result = snd_pcm_prepare(pcm) }
        if result < 0 { throw .io(device: "ALSA PCM '\(name)'", operation: "snd_pcm_drop", errno: -result) }
    }

    // MARK: - Opening

    private static func microseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000
    }

    private static func openError(_ result: Int32, device: String) -> HALError {
        switch -result {
        case ENOENT, ENODEV, ENXIO:
            return .noSuchDevice(
                device: device,
                hint: "check the audio device in the config (aplay -L lists PCM names) and that the speaker is plugged in"
            )
        case EACCES, EPERM:
            return .permissionDenied(device: device, group: "audio")
        default:
            return .io(device: device, operation: "snd_pcm_open", errno: -result)
        }
    }

    private static func loadConfiguration(_ text: String, device: String) throws(HALError) -> OpaquePointer {
        var config: OpaquePointer?
        var input: OpaquePointer?
        guard snd_config_top(&config) >= 0, let config else {
            throw .unsupported(device: device, detail: "cannot create an ALSA configuration")
        }
        let bytes = Array(text.utf8)
        let opened = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                snd_input_buffer_open(&input, $0, buffer.count)
            }
        }
        guard opened >= 0, let input else {
            snd_config_delete(config)
            throw .unsupported(device: device, detail: "cannot read the ALSA configuration text")
        }
        defer { snd_input_close(input) }
        let loaded = snd_config_load(config, input)
        guard loaded >= 0 else {
            snd_config_delete(config)
            throw .unsupported(device: device, detail: "invalid ALSA configuration: \(String(cString: snd_strerror(loaded)))")
        }
        return config
    }

    private static func configure(
        _ pcm: OpaquePointer, device: String, rate: Int, latencyMicroseconds: UInt32
    ) throws(HALError) -> (rate: Int, latency: Duration) {
        func check(_ result: Int32, _ what: String) throws(HALError) {
            guard result >= 0 else {
                if result == -EINVAL {
                    throw HALError.unsupported(device: device, detail: "cannot \(what) for mono 16-bit playback: use a 'default' or 'plughw:' PCM, which converts")
                }
                throw HALError.io(device: device, operation: what, errno: -result)
            }
        }
        var hw: OpaquePointer?
        try check(snd_pcm_hw_params_malloc(&hw), "allocate hardware parameters")
        defer { snd_pcm_hw_params_free(hw) }
        try check(snd_pcm_hw_params_any(pcm, hw), "read hardware parameters")
        try check(snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED), "set interleaved access")
        try check(snd_pcm_hw_params_set_format(pcm, hw, SND_PCM_FORMAT_S16_LE), "set format S16_LE")
        try check(snd_pcm_hw_params_set_channels(pcm, hw, 1), "set 1 channel")
        var granted = UInt32(rate)
        try check(snd_pcm_hw_params_set_rate_near(pcm, hw, &granted, nil), "set rate \(rate)")
        var buffer = latencyMicroseconds
        try check(snd_pcm_hw_params_set_buffer_time_near(pcm, hw, &buffer, nil), "set buffer time")
        var period = buffer / 4
        try check(snd_pcm_hw_params_set_period_time_near(pcm, hw, &period, nil), "set period time")
        try check(snd_pcm_hw_params(pcm, hw), "apply hardware parameters")

        var bufferFrames: snd_pcm_uframes_t = 0
        var periodFrames: snd_pcm_uframes_t = 0
        try check(snd_pcm_hw_params_get_buffer_size(hw, &bufferFrames), "read buffer size")
        try check(snd_pcm_hw_params_get_period_size(hw, &periodFrames, nil), "read period size")

        // Start as soon as one period is queued, so the first sample is heard at once.
        var sw: OpaquePointer?
        try check(snd_pcm_sw_params_malloc(&sw), "allocate software parameters")
        defer { snd_pcm_sw_params_free(sw) }
        try check(snd_pcm_sw_params_current(pcm, sw), "read software parameters")
        try check(snd_pcm_sw_params_set_start_threshold(pcm, sw, max(1, periodFrames)), "set start threshold")
        try check(snd_pcm_sw_params_set_avail_min(pcm, sw, max(1, periodFrames)), "set avail min")
        try check(snd_pcm_sw_params(pcm, sw), "apply software parameters")
        try check(snd_pcm_prepare(pcm), "prepare")

        let rateGranted = Int(granted)
        let latency = Duration.nanoseconds(Int64(bufferFrames) * 1_000_000_000 / Int64(max(1, rateGranted)))
        return (rateGranted, latency)
    }
}
