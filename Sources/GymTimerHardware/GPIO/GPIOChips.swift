import GymTimerHAL

/// Opens GPIO chips through libgpiod. There is one backend (`LibgpiodChip`) for both libgpiod
/// APIs: the C seam under it (Sources/CGPIODShim) is compiled against v1 or v2, whichever
/// <gpiod.h> the build finds, so nothing here or above knows which it is.
public enum GPIOChips {
    /// Opens `chip`: a name (`gpiochip0`, looked up in /dev) or a device path.
    public static func open(_ chip: String) throws(HALError) -> any GPIOChip {
        try LibgpiodChip(path: devicePath(for: chip))
    }

    /// `/dev/<chip>` for a bare name, the path itself otherwise.
    public static func devicePath(for chip: String) -> String {
        chip.hasPrefix("/") ? chip : "/dev/" + chip
    }
}
