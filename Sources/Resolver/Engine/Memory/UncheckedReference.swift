/// A reference that does not own its object, which the resolve path passes
/// instead of a raw pointer (as swift-collections' `_UnmanagedHashNode`):
/// `read` uses the object borrowed, writing no count (DESIGN.md, B1). Whoever
/// makes one states what keeps the object alive (a read section, or a
/// reference of the caller's). It keeps the object's class, so a scope cannot
/// be passed for a registration, and is one word.
@frozen @usableFromInline
struct UncheckedReference<Object: AnyObject>: Equatable, @unchecked Sendable {
    @usableFromInline let opaque: UnsafeMutableRawPointer

    /// A reference to `object`, which the caller keeps alive.
    @inlinable @inline(__always) init(_ object: Object) { opaque = Unmanaged.passUnretained(object).toOpaque() }
    @inlinable @inline(__always) init(opaque: UnsafeMutableRawPointer) { self.opaque = opaque }

    /// A new owned (+1) reference to `object`, given up with `release()` or
    /// `retire(owned:)`.
    @inlinable @inline(__always)
    static func retaining(_ object: Object) -> UncheckedReference {
        UncheckedReference(opaque: Unmanaged.passRetained(object).toOpaque())
    }

    /// Runs `body` with the object borrowed, which the caller guarantees alive
    /// (a read section's, R2, or one it holds): reading a field, calling a
    /// constant closure or passing the object on takes no count. The engine's
    /// one use of `_withUnsafeGuaranteedRef` (`EngineLayerTests`).
    @inlinable @inline(__always)
    func read<Result>(_ body: (Object) throws -> Result) rethrows -> Result {
        try Unmanaged<Object>.fromOpaque(opaque)._withUnsafeGuaranteedRef(body)
    }

    /// A strong reference (a count: slow paths that keep the object).
    @inlinable @inline(__always) var object: Object { Unmanaged<Object>.fromOpaque(opaque).takeUnretainedValue() }

    /// Gives up an owned reference no reader can see (it may run the deinit).
    @inlinable func release() { Unmanaged<Object>.fromOpaque(opaque).release() }

    /// The object as another class it is known to be.
    @inlinable @inline(__always)
    func unsafeCast<Other>(to: Other.Type) -> UncheckedReference<Other> { UncheckedReference<Other>(opaque: opaque) }

    @inlinable @inline(__always)
    static func == (lhs: UncheckedReference, rhs: UncheckedReference) -> Bool { lhs.opaque == rhs.opaque }
}
