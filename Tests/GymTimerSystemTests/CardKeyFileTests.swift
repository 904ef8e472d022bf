#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GymTimerCore
import GymTimerSystem
import Testing

/// The gym's card key file, on real files: made 0600 whatever the umask, never through a link;
/// one open to every local user, a link, a folder or a file without a key refused in one line.
@Suite struct CardKeyFileTests {
    let directory: String = {
        var template = Array((NSTemporaryDirectory() + "gymtimer-key-XXXXXX").utf8CString)
        return String(cString: mkdtemp(&template)!)
    }()

    func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o777 : 0
    }

    @Test func aStationsOwnKeyIsMadeOncePrivateWhateverTheUmask() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/card.key"
        let old = umask(0)
        defer { umask(old) }
        let made = try CardKeyFile.readOrMake(path)
        #expect(made.made)
        #expect(mode(path) == 0o600)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.count == 65 && text.hasSuffix("\n") && CardKey(text: text) == made.key)
        let again = try CardKeyFile.readOrMake(path)
        #expect(!again.made && again.key == made.key, "the second start reads the same key")
        #expect(try CardKeyFile.read(path) == made.key)
    }

    @Test func aLinkAnOpenFileAFolderOrNoKeyIsRefusedInOneLine() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let key = directory + "/gym.key"
        _ = FileManager.default.createFile(atPath: key, contents: Data((String(repeating: "42", count: 32) + "\n").utf8), attributes: [.posixPermissions: 0o640])
        #expect(try CardKeyFile.read(key) == CardKey(secret: Array(repeating: 0x42, count: 32)))
        func refusal(_ path: String) -> String {
            do {
                _ = try CardKeyFile.read(path)
                return "read"
            } catch {
                return error.detail
            }
        }
        symlink(key, directory + "/link.key")
        #expect(refusal(directory + "/link.key") == "is a link (give the file itself)")
        #expect(refusal(directory + "/missing.key") == "cannot be read: No such file or directory")
        #expect(refusal(directory) == "is not a regular file")
        chmod(key, 0o644)
        #expect(refusal(key).hasPrefix("is readable by every local user"))
        _ = FileManager.default.createFile(atPath: directory + "/short.key", contents: Data("4242\n".utf8), attributes: [.posixPermissions: 0o600])
        #expect(refusal(directory + "/short.key") == "does not hold a key (16 to 64 bytes of hex on its first line)")
        // A link planted where a station makes its own key: refused, nothing written through it.
        let target = directory + "/elsewhere"
        symlink(target, directory + "/planted.key")
        #expect(throws: CardKeyFile.Problem.self) { try CardKeyFile.readOrMake(directory + "/planted.key") }
        #expect(!FileManager.default.fileExists(atPath: target))
        do {
            _ = try CardKeyFile.read(directory + "/missing.key")
        } catch {
            #expect("\(error)".split(separator: "\n").count == 1)
            #expect("\(error)".hasPrefix("card key \(directory)/missing.key: cannot be read"))
        }
    }
}
