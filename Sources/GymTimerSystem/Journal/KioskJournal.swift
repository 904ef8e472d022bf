import Foundation
import GymTimerHAL
import SystemPackage

/// The running state and the records not yet in the history, in ONE pre-allocated file written
/// in place, so they change together and a full disk cannot stop a save.
///
/// The file has two fixed-size slots. Each save writes the older slot (header with a sequence
/// number, length and CRC-32, then the JSON) and syncs it; a load takes the valid slot with the
/// higher sequence. A power cut tears at most the slot being written, so the other one — the
/// previous save — is still whole. The file is created once at full size (through a unique
/// temporary name opened `O_EXCL|O_NOFOLLOW`, synced, renamed, directory synced) while there is
/// space; later saves need no new blocks.
///
/// On a `JournalMemory` (the scripted simulator's virtual time) the same bytes go to memory,
/// unsynced: the run's restarts read them back as a new process reads the file.
public final class KioskJournal<Content: Codable> {
    public let path: String
    /// Bytes per slot, header included.
    public let slotSize: Int
    /// The simulated medium instead of the file at `path` (which then only names it in messages).
    private let memory: JournalMemory?
    private var descriptor: Int32 = -1
    /// On `memory`: whether this journal took it up (as `descriptor >= 0` for the file).
    private var memoryOpen = false
    private var sequence: UInt64 = 0

    static var headerSize: Int { 24 }
    private static var magic: [UInt8] { Array("GYMTJRN1".utf8) }

    /// The mode the journal (and a copy kept of it) is made with, at most whatever the umask:
    /// the kiosk's alone (and root's), it holds the cards of the run and the records waiting.
    public static var fileMode: mode_t { 0o600 }

    /// Where a journal that other local users could open, closed to them when it is opened,
    /// is told (the kiosk's log).
    public var log: (String) -> Void = { _ in }

    /// `memory`: keep the journal there instead of in the file at `path`.
    public init(path: String, slotSize: Int = 1 << 20, memory: JournalMemory? = nil) {
        self.path = path
        self.slotSize = slotSize
        self.memory = memory
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// What was last saved, nil when there is no journal yet. A journal that is not one (wrong
    /// size, a symlink, no valid slot) is moved aside to `PATH.corrupt-DATE` and reported, so
    /// the kiosk starts afresh instead of refusing to start.
    public func load() throws(KioskJournalError) -> Content? {
        guard let payload = try openExisting() else { return nil }
        do {
            return try JSONDecoder().decode(Content.self, from: Data(payload))
        } catch {
            throw setAside("its content is not valid: \(error)")
        }
    }

    /// Opens the journal at `path` if there is one, taking up its sequence; returns the newest
    /// whole save's bytes, nil when there is no file.
    private func openExisting() throws(KioskJournalError) -> [UInt8]? {
        if let memory { return try openExisting(memory) }
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        let fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            if errno == ELOOP { throw setAside("it is a symbolic link") }
            throw .unusable(path: path, reason: Errno.last.text)
        }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) == 2 * slotSize else {
            close(fd)
            throw setAside("not a journal of \(2 * slotSize) bytes")
        }
        var best: (sequence: UInt64, payload: [UInt8])?
        for slot in 0..<2 {
            if let found = readSlot(fd, slot), found.sequence >= best?.sequence ?? 0 { best = found }
        }
        guard let best else {
            close(fd)
            throw setAside("no slot holds a whole save")
        }
        if let line = PrivateFile.closeToOthers(path) { log(line) }
        descriptor = fd
        sequence = best.sequence
        return best.payload
    }

    /// The newest whole save's bytes, read without taking the journal up: another process's
    /// look (the upgrade agent asking whether a run is under way). Nothing is moved aside or
    /// kept open; nil when there is no journal or it holds no whole save.
    public func newestSave() -> [UInt8]? {
        if let memory {
            guard let image = memory.image, image.count == 2 * slotSize else { return nil }
            return (0..<2).compactMap { Self.slot(image[($0 * slotSize)..<(($0 + 1) * slotSize)], $0) }.max { $0.sequence < $1.sequence }?.payload
        }
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) == 2 * slotSize else { return nil }
        return (0..<2).compactMap { readSlot(fd, $0) }.max { $0.sequence < $1.sequence }?.payload
    }

    /// `openExisting` on the simulated medium: the same checks on its bytes.
    private func openExisting(_ memory: JournalMemory) throws(KioskJournalError) -> [UInt8]? {
        memoryOpen = false
        guard let image = memory.image else { return nil }
        guard image.count == 2 * slotSize else { throw setAside("not a journal of \(2 * slotSize) bytes") }
        var best: (sequence: UInt64, payload: [UInt8])?
        for slot in 0..<2 {
            if let found = Self.slot(image[(slot * slotSize)..<((slot + 1) * slotSize)], slot), found.sequence >= best?.sequence ?? 0 { best = found }
        }
        guard let best else { throw setAside("no slot holds a whole save") }
        memoryOpen = true
        sequence = best.sequence
        return best.payload
    }

    /// Writes `content` into the older slot and syncs it; creates the file at full size first.
    public func save(_ content: Content) throws(KioskJournalError) {
        try save(content, padded: false)
    }

    /// `save`; `padded`: the slot is written whole, zeros after the save.
    private func save(_ content: Content, padded: Bool) throws(KioskJournalError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let payload = (try? encoder.encode(content)).map(Array.init) else { throw .unwritable(path: path, reason: "cannot encode the state") }
        guard payload.count <= slotSize - Self.headerSize else {
            throw .tooLarge(path: path, bytes: payload.count, capacity: slotSize - Self.headerSize)
        }
        if let memory {
            if !memoryOpen, (try? openExisting(memory)) == nil || !memoryOpen {
                memory.image = [UInt8](repeating: 0, count: 2 * slotSize)
                memoryOpen = true
                sequence = 0
            }
        } else if descriptor < 0 {
            // Another instance (an earlier controller) may have made it: write into that one,
            // which needs no new space; make a new one only when there is none to use.
            if (try? openExisting()) == nil || descriptor < 0 { try create() }
        }
        let next = sequence &+ 1
        var bytes = Self.magic
        Self.append(next, to: &bytes)
        Self.append(UInt32(payload.count), to: &bytes)
        Self.append(CRC32.checksum(Array(bytes[8..<20]) + payload), to: &bytes)
        bytes += payload
        if padded { bytes += [UInt8](repeating: 0, count: slotSize - bytes.count) }
        if let memory {
            memory.write(bytes, at: Int(next % 2) * slotSize)
            sequence = next
            return
        }
        let offset = off_t(Int(next % 2) * slotSize)
        let written = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, offset) }
        guard written == bytes.count, fdatasync(descriptor) == 0 else {
            throw .unwritable(path: path, reason: written < 0 ? Errno.last.text : "short write")
        }
        sequence = next
    }

    /// Saves `content` into both slots, each padded with zeros to its end: no byte of an earlier
    /// save is left in the file (a forgotten athlete's card, which the older slot or the tail of
    /// a longer save would keep). Two syncs; for the rare erasure, not every save.
    public func saveOverwritingEverything(_ content: Content) throws(KioskJournalError) {
        for _ in 0..<2 { try save(content, padded: true) }
    }

    /// Moves the file aside (the next save creates a fresh one) and says so.
    public func setAside(_ reason: String) -> KioskJournalError {
        let aside = SafeFiles.asideName(for: path)
        if let memory {
            memory.setAside()
            memoryOpen = false
            return .unreadable(path: path, movedTo: aside, reason: reason)
        }
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
        rename(path, aside)
        return .unreadable(path: path, movedTo: aside, reason: reason)
    }

    /// Copies the journal beside itself (`PATH.corrupt-DATE`), for content this release cannot
    /// read but the release that wrote it can (a downgrade), before its saves overwrite it;
    /// says where, or why not.
    public func keepCopy() -> String {
        if let memory {
            memory.setAside(keeping: true)
            return "the journal is kept as \(SafeFiles.asideName(for: path))"
        }
        guard let bytes = FileManager.default.contents(atPath: path) else { return "no copy of \(path) could be read" }
        let copy = SafeFiles.asideName(for: path)
        do {
            try SafeFiles.replace(copy, with: Array(bytes), mode: Self.fileMode)
        } catch {
            return "no copy of \(path) could be kept: \(error)"
        }
        return "the journal is kept as \(copy)"
    }

    private func create() throws(KioskJournalError) {
        let zeros = [UInt8](repeating: 0, count: 2 * slotSize)
        do {
            try SafeFiles.replace(path, with: zeros, mode: Self.fileMode)
        } catch {
            throw .unwritable(path: path, reason: "\(error)")
        }
        let fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw .unwritable(path: path, reason: Errno.last.text) }
        descriptor = fd
        sequence = 0
    }

    private func readSlot(_ fd: Int32, _ slot: Int) -> (sequence: UInt64, payload: [UInt8])? {
        var bytes = [UInt8](repeating: 0, count: slotSize)
        let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, slotSize, off_t(slot * slotSize)) }
        guard count == slotSize else { return nil }
        return Self.slot(bytes[...], slot)
    }

    /// The save in `slot`'s bytes, nil when they do not hold a whole one.
    private static func slot(_ stored: ArraySlice<UInt8>, _ slot: Int) -> (sequence: UInt64, payload: [UInt8])? {
        let bytes = Array(stored)
        let slotSize = bytes.count
        guard Array(bytes[0..<8]) == Self.magic else { return nil }
        let sequence = Self.read(UInt64.self, bytes, at: 8)
        let length = Int(Self.read(UInt32.self, bytes, at: 16))
        let crc = Self.read(UInt32.self, bytes, at: 20)
        guard sequence > 0, Int(sequence % 2) == slot, length <= slotSize - Self.headerSize else { return nil }
        let payload = Array(bytes[Self.headerSize..<(Self.headerSize + length)])
        guard CRC32.checksum(Array(bytes[8..<20]) + payload) == crc else { return nil }
        return (sequence, payload)
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    private static func read<T: FixedWidthInteger>(_: T.Type, _ bytes: [UInt8], at offset: Int) -> T {
        var value: T = 0
        for index in (0..<MemoryLayout<T>.size).reversed() { value = value << 8 | T(bytes[offset + index]) }
        return value
    }
}

/// Why the journal could not be read or written.
public enum KioskJournalError: Error, CustomStringConvertible {
    case unreadable(path: String, movedTo: String, reason: String)
    case unusable(path: String, reason: String)
    case unwritable(path: String, reason: String)
    /// The content does not fit in a slot; nothing was written.
    case tooLarge(path: String, bytes: Int, capacity: Int)

    public var description: String {
        switch self {
        case .unreadable(let path, let aside, let reason):
            return "stored state \(path) is unusable (\(reason)); moved to \(aside), starting fresh"
        case .unusable(let path, let reason):
            return "cannot read the stored state \(path): \(reason)"
        case .unwritable(let path, let reason):
            return "cannot save the running state to \(path): \(reason)"
        case .tooLarge(let path, let bytes, let capacity):
            return "cannot save the running state to \(path): \(bytes) bytes do not fit in its \(capacity)"
        }
    }
}
