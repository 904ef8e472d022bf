import GymTimerHAL

/// Opens GPIO chips with the backend for the libgpiod API this build was compiled against
/// (`gpiodAPIVersion`, from Modules/CGPIOD/shim.h).
///
/// The seam for libgpiod v2: its header lacks every v1 function, so `GPIOChipV1.swift` is
/// compiled only without the `GYMTIMER_GPIOD_V2` condition; a v2 build sets it
/// (`-Xswiftc -DGYMTIMER_GPIOD_V2`) and adds `GPIOChipV2.swift` under `#if GYMTIMER_GPIOD_V2`,
/// returned from `open` below. Nothing above this file changes.
public enum GPIOChips {
    /// Opens `chip`: a name (`gpiochip0`, looked up in /dev) or a device path.
    public static func open(_ chip: String) throws(HALError) -> any GPIOChip {
        let path = devicePath(for: chip)
        #if GYMTIMER_GPIOD_V2
        throw .unsupported(device: path, detail: "the libgpiod v2 backend is not written yet (GPIOChipV2)")
        #else
        guard gpiodAPIVersion == 1 else {
            throw .unsupported(
                device: path,
                detail: "built against libgpiod v\(gpiodAPIVersion) without -DGYMTIMER_GPIOD_V2; rebuild with it")
        }
        return try GPIOChipV1(path: path)
        #endif
    }

    /// `/dev/<chip>` for a bare name, the path itself otherwise.
    public static func devicePath(for chip: String) -> String {
        chip.hasPrefix("/") ? chip : "/dev/" + chip
    }
}
