import CRegistry

/// A published reference to an object: stores release, loads acquire
/// (`crg_atomic.h`). Whether the cell owns a count is the contract of the
/// field that declares it; the cell only moves pointers.
@frozen @usableFromInline
struct AtomicReference<Object: AnyObject> {
    @usableFromInline let cell: UnsafeMutablePointer<crg_cell>

    @inlinable @inline(__always) init(_ cell: UnsafeMutablePointer<crg_cell>) { self.cell = cell }
    @inlinable @inline(__always)
    func load() -> UncheckedReference<Object>? { crg_cell_load(cell).map(UncheckedReference.init(opaque:)) }
    @inlinable @inline(__always)
    func store(_ reference: UncheckedReference<Object>?) { crg_cell_store(cell, reference?.opaque) }

    /// Stores `reference`, returning what the cell held.
    @inlinable
    func exchange(_ reference: UncheckedReference<Object>?) -> UncheckedReference<Object>? {
        crg_cell_exchange(cell, reference?.opaque).map(UncheckedReference.init(opaque:))
    }

    @inlinable
    func compareExchange(expected: UncheckedReference<Object>?, desired: UncheckedReference<Object>?) -> Bool {
        crg_cell_compare_exchange(cell, expected?.opaque, desired?.opaque)
    }
}

/// A published 64-bit word (a flag, a count, a generation): stores release,
/// loads acquire. `increment()` and `decrement()` return the new value.
@frozen @usableFromInline
struct AtomicWord {
    @usableFromInline let word: UnsafeMutablePointer<crg_word>

    @inlinable @inline(__always) init(_ word: UnsafeMutablePointer<crg_word>) { self.word = word }
    @inlinable @inline(__always) func load() -> UInt64 { crg_word_load(word) }
    @inlinable @inline(__always) func store(_ value: UInt64) { crg_word_store(word, value) }
    @inlinable
    func compareExchange(expected: UInt64, desired: UInt64) -> Bool { crg_word_compare_exchange(word, expected, desired) }
    @discardableResult func increment() -> UInt64 { crg_word_add(word, 1) }
    @discardableResult func decrement() -> UInt64 { crg_word_add(word, UInt64.max) }

    /// A zero word of its own, freed by `deallocate()`.
    static func allocate() -> AtomicWord { AtomicWord(allocated(crg_words_create(1))) }
    func deallocate() { crg_cells_destroy(word) }
}

/// Zeroed atomic cells at stable addresses, which an object that publishes
/// fields owns; its named fields (`AtomicReference`, `AtomicWord`) view them.
@frozen @usableFromInline
struct AtomicCells {
    @usableFromInline let base: UnsafeMutablePointer<crg_cell>

    /// `count` null cells, then `words` zero words (`word(_:after:)`).
    @usableFromInline
    init(count: Int, words: Int = 0) {
        base = allocated(crg_cells_create(count + words))
        if words > 0 { UnsafeMutableRawPointer(base + count).bindMemory(to: crg_word.self, capacity: words) }
    }

    /// Cells made elsewhere (`RegistrationCells`), freed there too.
    @usableFromInline
    init(carved base: UnsafeMutablePointer<crg_cell>) {
        self.base = base
    }

    @inlinable @inline(__always)
    func word(_ index: Int, after count: Int) -> AtomicWord {
        AtomicWord(UnsafeMutableRawPointer(base + count + index).assumingMemoryBound(to: crg_word.self))
    }

    @inlinable @inline(__always)
    func reference<Object>(_ index: Int, to: Object.Type = Object.self) -> AtomicReference<Object> {
        AtomicReference(base + index)
    }

    /// Releases the owned reference in the cell at `index` (an owner's deinit).
    func releaseObject(at index: Int) { reference(index, to: AnyObject.self).load()?.release() }

    /// Frees the block; what the cells hold is the owner's to release first.
    func deallocate() { crg_cells_destroy(base) }
}

/// What an allocating C call returned, or the program stops (out of memory).
func allocated<Pointer>(_ pointer: Pointer?) -> Pointer {
    guard let pointer else { fatalError("RESOLVER: out of memory") }
    return pointer
}
