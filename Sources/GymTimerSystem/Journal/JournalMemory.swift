/// A simulated medium for `KioskJournal`: the journal file's bytes kept in memory, for a
/// controller that runs in virtual time (the scripted simulator without `--data-dir`), where
/// nobody can read the file and a sync to a real disk would cost more than the whole loop.
/// The journal writes it slot by slot exactly as it writes the file, only never syncs; a
/// controller rebuilt after a simulated restart reads it back through the same code. Shared
/// by every journal of one run, so it outlives each controller as a file would.
public final class JournalMemory {
    /// The file's bytes; nil while there is no journal.
    var image: [UInt8]?
    /// Saves written into it (each one a `pwrite` + `fdatasync` on a real file).
    public private(set) var writes = 0
    /// Journals set aside or copied beside it (`KioskJournal.setAside`, `keepCopy`); only
    /// counted, as nobody can read them.
    public private(set) var asides = 0

    public init() {}

    /// Writes `bytes` at `offset` in the image.
    func write(_ bytes: [UInt8], at offset: Int) {
        guard var file = image else { return }
        image = nil // keeps the array uniquely referenced, so it is changed in place
        file.replaceSubrange(offset..<(offset + bytes.count), with: bytes)
        image = file
        writes += 1
    }

    /// Moves the image aside (nil after), or copies it when `keeping`.
    func setAside(keeping: Bool = false) {
        guard image != nil else { return }
        asides += 1
        if !keeping { image = nil }
    }
}
