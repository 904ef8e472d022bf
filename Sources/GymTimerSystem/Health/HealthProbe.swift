/// Reads the machine's health figures (uptime, clock, CPU temperature, free space, Wi-Fi), the
/// HAL's way: the real backend (`SystemHealthProbe`) reads the kernel's files and calls; the
/// simulator and the tests use `SimulatedHealthProbe`. A read never fails the caller: a figure
/// that cannot be had is nil. Called seldom (the fleet's heartbeat, a fault): a few small reads.
public protocol HealthProbe: AnyObject {
    func sample() -> HealthSample
}
