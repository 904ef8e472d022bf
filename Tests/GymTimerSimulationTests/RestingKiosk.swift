import GymTimerCore

/// A kiosk whose rest of `seconds` was started `startedBefore` ahead of `moment`: the journal's
/// content in the clock tests (`ClockTrustTests`, `ClockSyncResumeTests`), which save it at
/// `moment` and restart it on another clock.
func restingKiosk(_ seconds: Int, startedBefore: Duration, savedAt moment: Moment) -> Kiosk {
    var settings = KioskSettings()
    settings.rest.defaultSeconds = seconds
    var kiosk = Kiosk(settings: settings)
    _ = kiosk.handle(.pressed(.start), at: moment - startedBefore)
    return kiosk
}
