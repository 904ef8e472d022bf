/// What every command here shares with `gymtimer-console` (CLIError, StandardError,
/// StandardOutput, FleetBrokerOptions), seen by all of this target's files without each
/// importing it.
@_exported import GymTimerCommandLine
