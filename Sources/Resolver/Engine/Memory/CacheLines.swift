/// Buffers a thread writes on every resolve, 128-byte aligned and long, so no
/// other allocation shares their lines (DESIGN.md, "A thread's record").
@usableFromInline
enum CacheLines {
    /// Two 64-byte lines (an x86 prefetch pair), one line on Apple silicon.
    static let size = 128

    /// Room for `capacity` elements; give it back with `deallocate`.
    @usableFromInline
    static func allocate<Element>(_: Element.Type, capacity: Int) -> UnsafeMutablePointer<Element> {
        let bytes = (max(capacity * MemoryLayout<Element>.stride, 1) + size - 1) / size * size
        return UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: size).bindMemory(to: Element.self, capacity: capacity)
    }

    /// Gives back what `allocate` returned (its elements deinitialized).
    @usableFromInline
    static func deallocate<Element>(_ pointer: UnsafeMutablePointer<Element>) { UnsafeMutableRawPointer(pointer).deallocate() }
}

/// A growable array of one thread's in `CacheLines` memory (the graph
/// instances): not copy-on-write; its one owner deallocates it.
@frozen @usableFromInline
struct PaddedBuffer<Element> {
    @usableFromInline var base: UnsafeMutablePointer<Element>?
    @usableFromInline var count = 0
    @usableFromInline var capacity = 0

    @inlinable init() {}
    @inlinable var isEmpty: Bool { count == 0 }

    /// The element at `index` (< `count`), read in place.
    @inlinable subscript(index: Int) -> Element { unsafeAddress { UnsafePointer(base.unsafelyUnwrapped + index) } }

    @inlinable
    mutating func append(_ element: Element) {
        if count == capacity { grow() }
        (base.unsafelyUnwrapped + count).initialize(to: element)
        count += 1
    }

    @usableFromInline @inline(never)
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
        if let base { CacheLines.deallocate(base) }
        base = nil
        capacity = 0
    }
}
