import CRegistry

/// The registrations' published cells (`ResolverRegistration.Fields`),
/// carved from slabs that 64 registrations share: one allocation for 64
/// registrations, where each made its own (DESIGN.md, after the table of
/// engine types). A slab is freed when its last block is given back and
/// the carver has moved on to a newer one.
///
/// A slab: one word counting its holders (each block given out, and the
/// carver while it carves from it), then the blocks: a registration's
/// cells, and one cell that points at the slab. The carver's place is
/// guarded by the registry mutex; the count is atomic, since registrations
/// end on any thread, without the lock.
@usableFromInline
final class RegistrationCells: @unchecked Sendable {
    /// A registration's cells: three references, then one word (constants
    /// the inlinable `Fields` folds into its reads).
    @inlinable static var references: Int { 3 }
    @inlinable static var words: Int { 1 }
    private static let blockCells = references + words + 1
    static let blocksPerSlab = 64

    private static let carver = RegistrationCells()
    // Guarded by the registry mutex.
    private var slab: UnsafeMutablePointer<crg_cell>?
    private var carved = RegistrationCells.blocksPerSlab
    /// How many slabs were made, and how many are not freed yet (tests).
    private(set) var slabsMade = 0
    private let slabsLive = AtomicWord.allocate()

    /// Null cells and a zero word, as `AtomicCells(count: references, words: words)` makes them.
    @usableFromInline
    static func take() -> UnsafeMutablePointer<crg_cell> {
        registry.mutex.withQuietLock { carver.takeLocked() }
    }

    /// Gives back the cells of a registration that ended (nothing can read them).
    static func give(_ block: UnsafeMutablePointer<crg_cell>) {
        let slab = crg_cell_load(block + blockCells - 1).unsafelyUnwrapped.assumingMemoryBound(to: crg_cell.self)
        release(slab)
    }

    static var slabsMade: Int { registry.withLock { carver.slabsMade } }
    static var slabsNotFreed: Int { Int(carver.slabsLive.load()) }

    private func takeLocked() -> UnsafeMutablePointer<crg_cell> {
        registry.assertLocked()
        if carved == Self.blocksPerSlab {
            let fresh = allocated(crg_cells_create(1 + Self.blocksPerSlab * Self.blockCells))
            UnsafeMutableRawPointer(fresh).bindMemory(to: crg_word.self, capacity: 1)
            Self.holders(of: fresh).store(1)
            if let slab { Self.release(slab) } // the carver's hold
            slab = fresh
            carved = 0
            slabsMade += 1
            slabsLive.increment()
        }
        let current = slab.unsafelyUnwrapped
        let block = current + 1 + carved * Self.blockCells
        carved += 1
        Self.holders(of: current).increment()
        UnsafeMutableRawPointer(block + Self.references).bindMemory(to: crg_word.self, capacity: Self.words)
        crg_cell_store(block + Self.blockCells - 1, UnsafeMutableRawPointer(current))
        return block
    }

    private static func release(_ slab: UnsafeMutablePointer<crg_cell>) {
        if holders(of: slab).decrement() == 0 {
            crg_cells_destroy(slab)
            carver.slabsLive.decrement()
        }
    }

    private static func holders(of slab: UnsafeMutablePointer<crg_cell>) -> AtomicWord {
        AtomicWord(UnsafeMutableRawPointer(slab).assumingMemoryBound(to: crg_word.self))
    }
}
