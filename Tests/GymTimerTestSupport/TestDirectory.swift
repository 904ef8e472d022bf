import Foundation

/// A new, empty directory of its own under the system's temporary directory, named after
/// `name` (`name-XXXXXX`, as mkdtemp makes it): where one test keeps its files.
public func testDirectory(_ name: String) -> String {
    var template = Array((NSTemporaryDirectory() + "\(name)-XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else { fatalError("cannot make a temporary directory for \(name): errno \(errno)") }
    return String(cString: made)
}
