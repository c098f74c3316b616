import CRegistry

/// A published reference to an object: one writer stores it (under the
/// registry mutex, or by compare-and-exchange), readers load it without a
/// lock. Stores release, loads acquire (`crg_atomic.h`). Whether the cell
/// owns a reference count is the field's own contract, documented where the
/// field is declared; the cell only moves pointers.
@frozen
@usableFromInline
struct AtomicReference<Object: AnyObject> {
    @usableFromInline let cell: UnsafeMutablePointer<crg_cell>

    @inlinable
    @inline(__always)
    init(_ cell: UnsafeMutablePointer<crg_cell>) {
        self.cell = cell
    }

    @inlinable
    @inline(__always)
    func load() -> UncheckedReference<Object>? {
        crg_cell_load(cell).map(UncheckedReference.init(opaque:))
    }

    @inlinable
    @inline(__always)
    func store(_ reference: UncheckedReference<Object>?) {
        crg_cell_store(cell, reference?.opaque)
    }

    /// Stores `reference` and returns what the cell held.
    @inlinable
    func exchange(_ reference: UncheckedReference<Object>?) -> UncheckedReference<Object>? {
        crg_cell_exchange(cell, reference?.opaque).map(UncheckedReference.init(opaque:))
    }

    /// Stores `desired` if the cell holds `expected`; whether it did.
    @inlinable
    func compareExchange(expected: UncheckedReference<Object>?, desired: UncheckedReference<Object>?) -> Bool {
        crg_cell_compare_exchange(cell, expected?.opaque, desired?.opaque)
    }
}

/// A published 64-bit word (a flag, a count, a generation). Stores release,
/// loads acquire.
@frozen
@usableFromInline
struct AtomicWord {
    @usableFromInline let word: UnsafeMutablePointer<crg_word>

    @inlinable
    @inline(__always)
    init(_ word: UnsafeMutablePointer<crg_word>) {
        self.word = word
    }

    @inlinable
    @inline(__always)
    func load() -> UInt64 {
        crg_word_load(word)
    }

    @inlinable
    @inline(__always)
    func store(_ value: UInt64) {
        crg_word_store(word, value)
    }

    /// A word of its own, zero, or the program stops (out of memory); free
    /// it with `deallocate()`.
    static func allocate() -> AtomicWord {
        guard let word = crg_words_create(1) else {
            fatalError("RESOLVER: out of memory")
        }
        return AtomicWord(word)
    }

    /// Frees a word made by `allocate()`.
    func deallocate() {
        crg_cells_destroy(word)
    }

    /// Stores `desired` if the word holds `expected`; whether it did.
    @inlinable
    func compareExchange(expected: UInt64, desired: UInt64) -> Bool {
        crg_word_compare_exchange(word, expected, desired)
    }

    /// Adds one; returns the new value.
    @discardableResult
    func increment() -> UInt64 {
        crg_word_add(word, 1)
    }

    /// Subtracts one; returns the new value.
    @discardableResult
    func decrement() -> UInt64 {
        crg_word_add(word, UInt64.max)
    }
}

/// Storage for a fixed number of atomic cells, in memory of their own (so
/// their addresses are stable), zeroed. An object that publishes fields
/// allocates a block in its init and frees it in its deinit; its named
/// fields (`AtomicReference`, `AtomicWord`) are views into the block.
@frozen
@usableFromInline
struct AtomicCells {
    @usableFromInline let base: UnsafeMutablePointer<crg_cell>

    /// `count` null cells, then `words` zero words (`word(_:)`), or the
    /// program stops (out of memory).
    @usableFromInline
    init(count: Int, words: Int = 0) {
        guard let cells = crg_cells_create(count + words) else {
            fatalError("RESOLVER: out of memory")
        }
        if words > 0 {
            UnsafeMutableRawPointer(cells + count).bindMemory(to: crg_word.self, capacity: words)
        }
        base = cells
    }

    /// The word `index` after the `count` cells (`init(count:words:)`).
    @inlinable
    @inline(__always)
    func word(_ index: Int, after count: Int) -> AtomicWord {
        AtomicWord(UnsafeMutableRawPointer(base + count + index).assumingMemoryBound(to: crg_word.self))
    }

    /// The cell at `index` as a published reference to an `Object`.
    @inlinable
    @inline(__always)
    func reference<Object>(_ index: Int, to: Object.Type = Object.self) -> AtomicReference<Object> {
        AtomicReference(base + index)
    }

    /// Releases the owned object reference the cell at `index` holds, if
    /// any (an owner's deinit: no reader can reach the cells).
    func releaseObject(at index: Int) {
        if let object = crg_cell_load(base + index) {
            Unmanaged<AnyObject>.fromOpaque(object).release()
        }
    }

    /// Frees the block; what the cells hold is the owner's to release first.
    func deallocate() {
        crg_cells_destroy(base)
    }
}
