/// The release this source tree is: what `gymtimer --version` prints, and the version of the
/// Debian packages (scripts/build-deb.sh reads the line below). Change it here only.
public enum GymTimerVersion {
    public static let current = "0.9.0"
}
