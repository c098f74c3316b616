import CRegistry
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `crg_allocator` for tests: counts live allocations, and fails on demand
/// to exercise the ENOMEM paths. Thread-safe, as an allocator must be: a
/// table's retired memory is freed by whichever thread collects it.
public final class TestAllocator: @unchecked Sendable {
    private struct State {
        var remaining: Int?
        var live = 0
    }

    private let state = Locked(State())

    /// Allocations left before every further one fails; nil never fails.
    public var remaining: Int? {
        get { state.withLock { $0.remaining } }
        set { state.withLock { $0.remaining = newValue } }
    }

    /// Allocations not yet freed.
    public var live: Int {
        state.withLock { $0.live }
    }

    public var raw = crg_allocator(allocate: { size, context in
        let me = Unmanaged<TestAllocator>.fromOpaque(context!).takeUnretainedValue()
        let granted = me.state.withLock { state -> Bool in
            if let remaining = state.remaining {
                if remaining == 0 { return false }
                state.remaining = remaining - 1
            }
            state.live += 1
            return true
        }
        return granted ? malloc(size) : nil
    }, deallocate: { pointer, context in
        guard let pointer else { return }
        Unmanaged<TestAllocator>.fromOpaque(context!).takeUnretainedValue().state.withLock { $0.live -= 1 }
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
