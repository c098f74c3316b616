// A registration's memo of its cached instance (DESIGN.md, S3).

/// What a registration remembers of its cached instance: the entry its
/// scope's table held for its key, and the scope's generation when it was
/// found there (DESIGN.md, S3). While the scope's generation is unchanged the
/// entry is still in the table (entries leave only with a new generation), so
/// a resolve can skip the table. No two scopes ever use the same generation
/// (each starts at a base of its own), so the generation also says which
/// scope the entry is in.
///
/// Two words a resolve reads without a lock, written by any resolve that
/// renews the memo: a renewal first claims the memo (its generation word
/// becomes `claimed`, odd, which no reader accepts), then stores the entry,
/// then the generation. A reader reads the generation, the entry, and the
/// generation again: the same value twice means the entry is the one stored
/// with it. A resolve that finds the memo claimed leaves it to the claimant.
@frozen
@usableFromInline
struct CacheMemo {
    @usableFromInline let entry: AtomicReference<AnyObject>
    @usableFromInline let generation: AtomicWord

    @inlinable
    @inline(__always)
    init(entry: AtomicReference<AnyObject>, generation: AtomicWord) {
        self.entry = entry
        self.generation = generation
    }

    /// The generation word of a memo being renewed.
    @inlinable
    static var claimed: UInt64 { 1 }

    /// The entry, if the memo was made in `generation` (the scope's, read
    /// by the caller, even).
    @inlinable
    @inline(__always)
    func entry(madeIn generation: UInt64) -> UncheckedReference<AnyObject>? {
        guard self.generation.load() == generation, let entry = entry.load(),
              self.generation.load() == generation else {
            return nil
        }
        return entry
    }

    /// Remembers `entry`, found in the table in `generation` (even), unless
    /// another resolve is renewing the memo.
    @usableFromInline
    @inline(never)
    func renew(_ entry: UncheckedReference<AnyObject>, madeIn generation: UInt64) {
        let current = self.generation.load()
        guard current != CacheMemo.claimed,
              self.generation.compareExchange(expected: current, desired: CacheMemo.claimed) else {
            return
        }
        self.entry.store(entry)
        self.generation.store(generation)
    }

    /// Forgets the entry (the registration's scope changed). The mutex must
    /// be held.
    func forget() {
        generation.store(0)
    }
}
