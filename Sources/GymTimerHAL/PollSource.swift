#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A descriptor besides the input lines that the loop's one blocking point also waits on (a
/// stop signal's self-pipe, the fleet station's socket). Every `InputWaiter` that waits on
/// descriptors takes these as extra sources: before blocking it asks each for its
/// `pollRequest`, and when poll finds one ready it calls `serve(revents:)` and returns, so the
/// loop looks at the kiosk (a command may have arrived, a stop may be asked for).
public protocol PollSource: AnyObject {
    /// The descriptor and the events wanted now — they may change between waits (the fleet
    /// station wants POLLOUT only while it has bytes queued, and its socket changes across
    /// reconnects) — or nil while there is none.
    var pollRequest: pollfd? { get }
    /// Poll found the descriptor ready with `revents`: read (and write) what is due.
    func serve(revents: Int16)
}

extension Array where Element == any PollSource {
    /// Each source's request in order, an ignored entry (fd -1) for one with none, so entry
    /// `i` is source `i`'s.
    public var pollRequests: [pollfd] {
        map { $0.pollRequest ?? pollfd(fd: -1, events: 0, revents: 0) }
    }

    /// Serves every source whose entry of `polled` (laid out as `pollRequests`) is ready;
    /// returns whether any was.
    @discardableResult
    public func serve(_ polled: ArraySlice<pollfd>) -> Bool {
        var served = false
        for (source, entry) in zip(self, polled) where entry.fd >= 0 && entry.revents != 0 {
            source.serve(revents: entry.revents)
            served = true
        }
        return served
    }
}
