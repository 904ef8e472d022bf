import GymTimerHAL

/// The station's MQTT socket is one more source of the loop's blocking point: `pollRequest`
/// (none while disconnected; POLLOUT too while bytes are queued) and `serve(revents:)`.
extension FleetStation: PollSource {}
