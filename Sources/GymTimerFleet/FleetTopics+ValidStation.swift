extension FleetTopics {
    /// The station `topic` is about, when its name is one the fleet allows
    /// (`FleetStationName`): a message on any other (`gymtimer/<svg onload=…>/workout`,
    /// which anyone who can publish can send) is no station's, and is neither stored nor shown.
    public static func validStation(in topic: String, prefix: String) -> String? {
        guard let station = station(in: topic, prefix: prefix), FleetStationName.isValid(station) else { return nil }
        return station
    }
}
