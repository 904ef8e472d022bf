/// SHA-256 (FIPS 180-4), in the standard library alone: what `HMACSHA256` is made of, so that a
/// card's pseudonym can be made wherever a card's UID is read (a reader, a typed UID) without
/// linking a cryptography library into the pure core. Checked against FIPS 180-4's and NIST's
/// example digests (`SHA256Tests`). Not constant-time over its input's length, which is not
/// secret here (a UID is 4, 7 or 10 bytes).
public struct SHA256: Sendable {
    /// The digest's length in bytes.
    public static let byteCount = 32
    /// The block the compression function takes, in bytes (HMAC pads its key to it).
    public static let blockByteCount = 64

    private var state: [UInt32] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
    ]
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    public init() {}

    /// The digest of `bytes`.
    public static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// Adds `bytes` to what is hashed.
    public mutating func update(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            pending.append(byte)
            length &+= 1
            if pending.count == Self.blockByteCount {
                compress(pending)
                pending.removeAll(keepingCapacity: true)
            }
        }
    }

    /// The digest of everything added: the padding (a 1 bit, zeros, the length in bits) ends
    /// the last block.
    public consuming func finalize() -> [UInt8] {
        let bits = length &* 8
        var tail = pending + [0x80]
        while tail.count % Self.blockByteCount != 56 { tail.append(0) }
        tail += (0..<8).reversed().map { UInt8(truncatingIfNeeded: bits >> (8 * UInt64($0))) }
        for start in stride(from: 0, to: tail.count, by: Self.blockByteCount) {
            compress(tail[start..<start + Self.blockByteCount])
        }
        return state.flatMap { word in (0..<4).reversed().map { UInt8(truncatingIfNeeded: word >> (8 * UInt32($0))) } }
    }

    /// One block into the state (FIPS 180-4, 6.2.2).
    private mutating func compress(_ block: some Collection<UInt8>) {
        let bytes = Array(block)
        var w = [UInt32](repeating: 0, count: 64)
        for t in 0..<16 {
            w[t] = bytes[4 * t..<4 * t + 4].reduce(0) { $0 << 8 | UInt32($1) }
        }
        for t in 16..<64 {
            let s0 = w[t - 15].rotatedRight(7) ^ w[t - 15].rotatedRight(18) ^ (w[t - 15] >> 3)
            let s1 = w[t - 2].rotatedRight(17) ^ w[t - 2].rotatedRight(19) ^ (w[t - 2] >> 10)
            w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
        }
        var (a, b, c, d, e, f, g, h) = (state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7])
        for t in 0..<64 {
            let s1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
            let choice = (e & f) ^ (~e & g)
            let t1 = h &+ s1 &+ choice &+ Self.k[t] &+ w[t]
            let s0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let t2 = s0 &+ majority
            (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
        }
        for (index, value) in [a, b, c, d, e, f, g, h].enumerated() { state[index] &+= value }
    }

    /// The first 32 bits of the fractional parts of the cube roots of the first 64 primes.
    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]
}

extension UInt32 {
    fileprivate func rotatedRight(_ count: UInt32) -> UInt32 { self >> count | self << (32 - count) }
}
