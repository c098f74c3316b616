// Memory a thread writes on every resolve, on cache lines no other thread's
// state shares (DESIGN.md, "Why it scales").
//
// The allocator aligns blocks to 16 bytes and puts them side by side, and a
// thread's blocks are not kept apart from another's: a thread that starts
// after another ends takes over that thread's allocator arena, and carves
// its own blocks out of the holes between what the earlier one left (a
// registration's producers, say, which a third thread then uses). Two blocks
// on one 64-byte line, each written by its own thread on every resolve, move
// that line between the two cores on every resolve. On x86 the adjacent-line
// prefetcher pairs lines into 128-byte blocks, and Apple's cores have
// 128-byte lines: so everything here is padded to 128.
//
// Swift cannot over-align a class (nor a struct, past 16 bytes), so:
// buffers come from `CacheLines.allocate` (128-byte aligned, a multiple of
// 128 bytes long); an object's written fields sit between a
// `HeaderPadding` and a `LinePadding`, and the object itself, whose header
// holds the reference count Swift writes where a call needs the object
// retained, is made until it starts a 128-byte block (`lineAligned`), where
// the allocator allows it.

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

extension CacheLines {
    /// An object from `make` whose header starts a 128-byte block, so that
    /// the reference count Swift writes in it shares its line with no
    /// other allocation: a thread's own object that a resolve retains (its
    /// producers, its root snapshot). Swift cannot over-align a class, so
    /// this asks the allocator again, keeping what it gave until one
    /// lands. Blocks of one size taken in a row sit a fixed distance apart,
    /// which may skip every aligned address (288-byte blocks step by 32
    /// from an address 16 past one): a small block between two attempts,
    /// 48 and 32 bytes in turn, moves the next one, so that sixteen
    /// attempts from fresh memory reach every 16-byte offset whatever the
    /// object's size (two steps add twice its size and 80 bytes, an odd
    /// number of 16-byte units). Gives up after `attempts` and returns the
    /// last one made.
    static func lineAligned<Object: AnyObject>(_ make: () -> Object) -> Object {
        objectsCanStartLines ? alignedAttempts(make) : make()
    }

    /// How many objects `lineAligned` makes at most.
    private static let attempts = 256

    private static func alignedAttempts<Object: AnyObject>(_ make: () -> Object) -> Object {
        var discarded: [AnyObject] = []
        var object = make()
        var made = 1
        while !isLineAligned(object) && made < attempts {
            discarded.append(object)
            discarded.append(made % 2 == 0 ? Spacer() : SmallSpacer())
            object = make()
            made += 1
        }
        // Kept until the last one is made: freed earlier, their blocks
        // would come back.
        withExtendedLifetime(discarded) {}
        return object
    }

    /// Whether this process's allocator gives blocks of one size at
    /// varying offsets within 128 bytes, so that `lineAligned` finds one
    /// that starts a block: asked once, with an object of a producer's
    /// size. glibc's and Darwin's do; the sanitizers' allocators serve each
    /// size class at one offset, and there objects keep the place they get.
    static let objectsCanStartLines: Bool = isLineAligned(alignedAttempts { Probe() })

    /// Whether `object` starts a 128-byte block.
    static func isLineAligned(_ object: AnyObject) -> Bool {
        UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque()) % UInt(size) == 0
    }

    /// A 48-byte block (a 16-byte header and three words) that moves the
    /// allocator's next one.
    private final class Spacer {
        let words: (UInt64, UInt64, UInt64) = (0, 0, 0)
    }

    /// A 32-byte block (a 16-byte header and one word).
    private final class SmallSpacer {
        let word: UInt64 = 0
    }

    /// An object of a producer's size, for `objectsCanStartLines`.
    private final class Probe {
        let headerPadding = HeaderPadding()
        let fields: (UInt64, UInt64, UInt64) = (0, 0, 0)
        let trailingPadding = LinePadding()
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

    /// Empty, with room for `capacity`.
    init(capacity: Int) {
        base = CacheLines.allocate(Element.self, capacity: capacity)
        self.capacity = capacity
    }

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

/// 128 bytes no one reads or writes: after an object's written fields, so
/// that whatever the allocator puts after the object is at least a line pair
/// away from them.
@frozen
@usableFromInline
struct LinePadding {
    @usableFromInline let words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                                  UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
        = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

    @inlinable
    init() {}
}

/// 112 bytes no one reads or writes: first in an object, so that with the
/// 16-byte object header its written fields start 128 bytes after the
/// object does, a line pair away from whatever the allocator put before it.
@frozen
@usableFromInline
struct HeaderPadding {
    @usableFromInline let words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                                  UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
        = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

    @inlinable
    init() {}
}
