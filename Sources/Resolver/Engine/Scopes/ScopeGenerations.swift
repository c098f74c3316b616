// A caching scope's generation (DESIGN.md, S2): never reused, odd while
// entries leave the table, which the memos and the builds check.

/// The generation of `ResolverScope`, read by the resolve path without a
/// lock and changed under the registry mutex.
extension ResolverScope {
    /// A generation word starting at a base no other scope uses (the scope's
    /// serial number in the upper 32 bits), so a (scope, generation) pair a
    /// memo remembers never comes back, even if another scope later takes
    /// this one's address.
    static func makeGenerationWord() -> AtomicWord {
        let word = AtomicWord.allocate()
        word.store(Published.scopesMade.increment() << 32)
        return word
    }

    /// The deinit's work: retires the cached instances; they are released
    /// once no read section can reach them. (No reader can reach this scope
    /// any more: registrations hold their scope, and a registration's old
    /// scope is retired, not released.)
    func releaseStorage() {
        ThreadCache.invalidate()
        table?.destroy()
        generationWord.deallocate()
        collectRetired()
    }

    /// The generation (under the mutex).
    var generation: UInt64 {
        generationWord.load()
    }

    /// Runs `change`, which takes entries out of the table, between two
    /// generation steps: odd during the change, a new even value after it.
    /// The mutex must be held.
    func changeEntriesLocked(_ change: () -> Void) {
        registry.assertLocked()
        generationWord.store(generationWord.load() &+ 1)
        change()
        generationWord.store(generationWord.load() &+ 1)
    }
}
