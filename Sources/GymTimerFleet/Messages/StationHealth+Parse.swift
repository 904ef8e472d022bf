extension StationHealth {
    /// The health in `bytes` (a retained payload), or nil when they are no JSON object or too
    /// large. Every figure is read defensively: a missing, wrong-typed, non-finite or absurd one
    /// is nil (a device: `absent`), long texts are cut; the flags are computed again.
    public static func parse(_ bytes: [UInt8]) -> StationHealth? {
        guard bytes.count <= maximumSize, case .object(let fields)? = JSONValue.parse(bytes) else { return nil }
        var clock: Clock?
        if case .object(let figures)? = fields["clock"], case .bool(let synchronised)? = figures["synchronised"] {
            clock = Clock(synchronised: synchronised, offsetMs: number(figures["offset_ms"], within: -1e9...1e9))
        }
        var devices = Devices(display: .absent, audio: .absent, reader: .absent)
        if case .object(let states)? = fields["devices"] {
            func state(_ name: String) -> DeviceState { states[name]?.string.flatMap(DeviceState.init(rawValue:)) ?? .absent }
            devices = Devices(display: state("display"), audio: state("audio"), reader: state("reader"))
        }
        var fault: Fault?
        if case .object(let last)? = fields["fault"], let text = last["text"]?.string,
            let at = integer(last["at"], within: 0...1e11) {
            fault = Fault(at: at, text: text)
        }
        return StationHealth(
            version: fields["version"]?.string ?? "", uptime: integer(fields["uptime"], within: 0...1e11), clock: clock,
            cpuTemp: number(fields["cpu_temp"], within: -100...300),
            diskFreeMB: integer(fields["disk_free_mb"], within: 0...1e12),
            diskFreePercent: number(fields["disk_free_percent"], within: 0...100),
            wifiDbm: integer(fields["wifi_dbm"], within: -200...50), devices: devices, fault: fault,
            at: integer(fields["at"], within: 0...1e11) ?? 0)
    }

    /// A finite number in `range`, else nil.
    private static func number(_ value: JSONValue?, within range: ClosedRange<Double>) -> Double? {
        guard let number = value?.number, number.isFinite, range.contains(number) else { return nil }
        return number
    }

    /// A number in `range` (which keeps it far from Int's limits), rounded, else nil.
    private static func integer(_ value: JSONValue?, within range: ClosedRange<Double>) -> Int? {
        number(value, within: range).map { Int($0.rounded()) }
    }
}
