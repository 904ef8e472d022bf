/// An audio output taking interleaved signed 16-bit samples (ALSA, or a simulated sink).
public protocol PCMOutput: AnyObject {
    /// The device name, for error messages.
    var name: String { get }
    /// Frames per second the device was opened at.
    var sampleRate: Int { get }
    /// Queues mono samples for playback; returns how many were accepted (may be fewer when
    /// the device's buffer is full). Never blocks longer than the device's latency.
    func write(_ samples: ArraySlice<Int16>) throws(HALError) -> Int
    /// Stops at once, discarding what is queued.
    func stop() throws(HALError)
}
