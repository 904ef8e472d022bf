/// Finds the known key a mistyped one was probably meant to be (`step_secs` → `step_seconds`).
enum KeySuggestion {
    /// The closest of `candidates` to `key`, or nil when none is close enough to be a likely typo:
    /// within 3 edits (fewer for short keys), or one a prefix of the other.
    static func closest(to key: String, among candidates: [String]) -> String? {
        var best: (candidate: String, distance: Int)?
        for candidate in candidates where candidate != key {
            let distance = editDistance(key, candidate)
            let allowed = min(3, max(1, candidate.count / 3))
            let isPrefix = min(key.count, candidate.count) >= 3
                && (candidate.hasPrefix(key) || key.hasPrefix(candidate))
            guard distance <= allowed || isPrefix else { continue }
            if best == nil || distance < best!.distance { best = (candidate, distance) }
        }
        return best?.candidate
    }

    /// The Levenshtein distance: the fewest single-character insertions, deletions and
    /// substitutions that turn `a` into `b`.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
