import CRegistry
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `crg_allocator` for tests: counts live allocations, and fails on demand
/// to exercise the ENOMEM paths.
public final class TestAllocator: @unchecked Sendable {
    /// Allocations left before every further one fails; nil never fails.
    public var remaining: Int?
    /// Allocations not yet freed.
    public private(set) var live = 0

    public var raw = crg_allocator(allocate: { size, context in
        let me = Unmanaged<TestAllocator>.fromOpaque(context!).takeUnretainedValue()
        if let remaining = me.remaining {
            if remaining == 0 { return nil }
            me.remaining = remaining - 1
        }
        me.live += 1
        return malloc(size)
    }, deallocate: { pointer, context in
        guard let pointer else { return }
        Unmanaged<TestAllocator>.fromOpaque(context!).takeUnretainedValue().live -= 1
        free(pointer)
    }, context: nil)

    public init() {
        raw.context = Unmanaged.passUnretained(self).toOpaque()
    }

    /// Calls `body` with a pointer to the C allocator (valid during the call).
    public func withAllocator<R>(_ body: (UnsafePointer<crg_allocator>) -> R) -> R {
        withUnsafePointer(to: &raw, body)
    }
}
