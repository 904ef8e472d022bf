import CGPIOD

/// Which libgpiod API this build was compiled against: 1 (Debian 12, Raspberry Pi OS bookworm)
/// or 2 (Raspberry Pi OS trixie).
public let gpiodAPIVersion = Int(gymtimer_gpiod_api())
