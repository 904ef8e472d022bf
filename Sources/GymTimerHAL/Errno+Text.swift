#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSystemShim
import SystemPackage

/// errno in words, the one way for all of gymtimer: swift-system's `Errno` is the one errno
/// type (thrown as an error, or turned into the text of a message here), so no module calls
/// strerror(3) or keeps a table of errno numbers of its own.
extension Errno {
    /// The errno the C call that just failed left.
    public static var last: Errno { Errno(rawValue: errno) }

    /// What strerror(3) says of it ("No such file or directory"), as every message shows it
    /// (swift-system's `description` is strerror's text).
    public var text: String { description }

    /// `text` from a small letter, then its C name: "input/output error (EIO)", the end of a
    /// device's fault line (`HALError.io`). A value the C library does not name: "errno N".
    public var textWithName: String {
        guard let name = gymtimer_errno_name(rawValue) else { return "errno \(rawValue)" }
        return "\(text.prefix(1).lowercased())\(text.dropFirst()) (\(String(cString: name)))"
    }
}
