// Memory a thread writes on every resolve, on cache lines no other thread's
// state shares (DESIGN.md, "Why it scales").
//
// The allocator aligns blocks to 16 bytes and puts them side by side, and a
// thread's blocks are not kept apart from another's: a thread that starts
// after another ends takes over that thread's allocator arena, and carves
// its own blocks out of the holes between what the earlier one left. Two
// blocks on one 64-byte line, each written by its own thread on every
// resolve, move that line between the two cores on every resolve. On x86 the
// adjacent-line prefetcher pairs lines into 128-byte blocks, and Apple's
// cores have 128-byte lines: so buffers a thread writes come from
// `CacheLines.allocate`, 128-byte aligned and a multiple of 128 bytes long.

/// Allocation of buffers that no other allocation shares a line with.
@usableFromInline
enum CacheLines {
    /// The unit: two 64-byte lines (an x86 prefetch pair), one line on Apple silicon.
    @usableFromInline static let size = 128

    /// Room for `capacity` elements: 128-byte aligned, a multiple of 128
    /// bytes long. Give it back with `deallocate`.
    @usableFromInline
    static func allocate<Element>(_: Element.Type, capacity: Int) -> UnsafeMutablePointer<Element> {
        let bytes = (max(capacity * MemoryLayout<Element>.stride, 1) + size - 1) / size * size
        return UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: size)
            .bindMemory(to: Element.self, capacity: capacity)
    }

    /// Gives back what `allocate` returned (its elements already deinitialized).
    @usableFromInline
    static func deallocate<Element>(_ pointer: UnsafeMutablePointer<Element>) {
        UnsafeMutableRawPointer(pointer).deallocate()
    }
}

/// A growable array of one thread's, in memory from `CacheLines`: the
/// resolution state's graph instances. Not copy-on-write and not
/// reference counted: one owner, which deallocates it.
@frozen
@usableFromInline
struct PaddedBuffer<Element> {
    @usableFromInline var base: UnsafeMutablePointer<Element>?
    @usableFromInline var count = 0
    @usableFromInline var capacity = 0

    /// Empty, with no memory yet.
    @inlinable
    init() {}

    @inlinable
    var isEmpty: Bool { count == 0 }

    /// The element at `index` (< `count`), read in place.
    @inlinable
    subscript(index: Int) -> Element {
        unsafeAddress { UnsafePointer(base.unsafelyUnwrapped + index) }
    }

    @inlinable
    mutating func append(_ element: Element) {
        if count == capacity {
            grow()
        }
        (base.unsafelyUnwrapped + count).initialize(to: element)
        count += 1
    }

    @usableFromInline
    @inline(never)
    mutating func grow() {
        let larger = CacheLines.allocate(Element.self, capacity: max(16, capacity * 2))
        if let base {
            larger.moveInitialize(from: base, count: count)
            CacheLines.deallocate(base)
        }
        base = larger
        capacity = max(16, capacity * 2)
    }

    /// Destroys the elements, keeping the memory.
    mutating func removeAll() {
        base?.deinitialize(count: count)
        count = 0
    }

    /// Destroys the elements and gives the memory back.
    mutating func deallocate() {
        removeAll()
        if let base {
            CacheLines.deallocate(base)
        }
        base = nil
        capacity = 0
    }
}
