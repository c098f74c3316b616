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
    func load() -> UnownedReference<Object>? {
        crg_cell_load(cell).map(UnownedReference.init(opaque:))
    }

    @inlinable
    @inline(__always)
    func store(_ reference: UnownedReference<Object>?) {
        crg_cell_store(cell, reference?.opaque)
    }

    /// Stores `reference` and returns what the cell held.
    @inlinable
    func exchange(_ reference: UnownedReference<Object>?) -> UnownedReference<Object>? {
        crg_cell_exchange(cell, reference?.opaque).map(UnownedReference.init(opaque:))
    }

    /// Stores `desired` if the cell holds `expected`; whether it did.
    @inlinable
    func compareExchange(expected: UnownedReference<Object>?, desired: UnownedReference<Object>?) -> Bool {
        crg_cell_compare_exchange(cell, expected?.opaque, desired?.opaque)
    }

    /// `reference` stored in this empty cell; or, if another thread filled
    /// it first, what that thread stored (and `reference`, an owned one never
    /// published, is released).
    @usableFromInline
    func publishOnce(_ reference: UnownedReference<Object>) -> UnownedReference<Object> {
        if let existing = load() {
            reference.release()
            return existing
        }
        if compareExchange(expected: nil, desired: reference) {
            return reference
        }
        reference.release()
        return load().unsafelyUnwrapped
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

    @inlinable
    @inline(__always)
    init(base: UnsafeMutablePointer<crg_cell>) {
        self.base = base
    }

    /// `count` null cells, or the program stops (out of memory).
    @usableFromInline
    init(count: Int) {
        guard let cells = crg_cells_create(count) else {
            fatalError("RESOLVER: out of memory")
        }
        base = cells
    }

    /// `count` null cells on 128-byte blocks no other allocation shares
    /// (`CacheLines.swift`), or the program stops (out of memory).
    @usableFromInline
    init(lineAlignedCount count: Int) {
        guard let cells = crg_cells_create_lines(count) else {
            fatalError("RESOLVER: out of memory")
        }
        base = cells
    }

    /// The cell at `index` as a published pointer to another block.
    @inlinable
    @inline(__always)
    func block(_ index: Int) -> AtomicCellsField {
        AtomicCellsField(base + index)
    }

    /// The cell at `index` as a published reference to an `Object`.
    @inlinable
    @inline(__always)
    func reference<Object>(_ index: Int, to: Object.Type = Object.self) -> AtomicReference<Object> {
        AtomicReference(base + index)
    }

    /// Frees the block; what the cells hold is the owner's to release first.
    func deallocate() {
        crg_cells_destroy(base)
    }
}

/// A published pointer to a block of cells (`AtomicCells`) made on first
/// use: one load from the field to the block, none through an object.
@frozen
@usableFromInline
struct AtomicCellsField {
    @usableFromInline let cell: UnsafeMutablePointer<crg_cell>

    @inlinable
    @inline(__always)
    init(_ cell: UnsafeMutablePointer<crg_cell>) {
        self.cell = cell
    }

    @inlinable
    @inline(__always)
    func load() -> AtomicCells? {
        crg_cell_load(cell).map { AtomicCells(base: $0.assumingMemoryBound(to: crg_cell.self)) }
    }

    /// `cells` stored in this empty field; or, if another thread filled it
    /// first, that thread's block (and `cells`, never published, is freed).
    @usableFromInline
    func publishOnce(_ cells: AtomicCells) -> AtomicCells {
        if let existing = load() {
            cells.deallocate()
            return existing
        }
        if crg_cell_compare_exchange(cell, nil, UnsafeMutableRawPointer(cells.base)) {
            return cells
        }
        cells.deallocate()
        return load().unsafelyUnwrapped
    }
}
