import CGPIODShim

/// Which libgpiod API this build was compiled against: 1 (Debian 12, Raspberry Pi OS bookworm)
/// or 2 (Debian 13, Raspberry Pi OS trixie). Decided by the installed <gpiod.h>; both work.
public let gpiodAPIVersion = Int(gymtimer_gpio_api())

/// The linked libgpiod's own version ("1.6.3", "2.2.1"), for messages and diagnostics.
public let gpiodLibraryVersion = String(cString: gymtimer_gpio_library_version())
