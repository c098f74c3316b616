/// A reference to an object that does not own it: what the engine passes
/// along the resolve path instead of a raw pointer, in the manner of
/// swift-collections' `_UnmanagedHashNode`.
///
/// Using the object through it (`read`) takes no reference count. Holding a
/// strong reference to an object every resolving thread shares (a container,
/// a registration, a scope) would retain and release it on every resolve,
/// writing a cache line those threads share; the resolve path instead reaches
/// such objects through unowned references, valid because a read section
/// (`ReadSection`) or the caller's own reference keeps them alive. Whoever
/// makes one states what keeps the object alive; the type keeps the object's
/// class, so a reference to a scope cannot be passed where a registration is
/// expected.
///
/// It is one pointer: `MemoryLayout<UncheckedReference<X>>.size` is a word,
/// and its operations compile to the loads they wrap (`make bench-instructions`).
@frozen
@usableFromInline
struct UncheckedReference<Object: AnyObject>: Equatable, @unchecked Sendable {
    @usableFromInline let opaque: UnsafeMutableRawPointer

    /// A reference to `object`, which the caller keeps alive.
    @inlinable
    @inline(__always)
    init(_ object: Object) {
        opaque = Unmanaged.passUnretained(object).toOpaque()
    }

    /// The reference that `opaque` (made by `opaque` of a reference of the
    /// same class) stands for.
    @inlinable
    @inline(__always)
    init(opaque: UnsafeMutableRawPointer) {
        self.opaque = opaque
    }

    /// A new owned (+1) reference to `object`: the caller gives it up with
    /// `release()` or `retire()`.
    @inlinable
    @inline(__always)
    static func retaining(_ object: Object) -> UncheckedReference {
        UncheckedReference(opaque: Unmanaged.passRetained(object).toOpaque())
    }

    /// Runs `body` with the object, borrowed: reading a field, calling a
    /// closure the object stores in a constant property, or passing the
    /// object to a call takes no reference count, since the object is
    /// guaranteed alive for the length of `body`. That guarantee is the
    /// caller's to give: the object is one the current read section keeps
    /// (a published container, registration or scope: DESIGN.md, R2), or one
    /// the caller holds a strong reference to.
    ///
    /// The engine's one use of the standard library's
    /// `Unmanaged._withUnsafeGuaranteedRef`, as swift-collections'
    /// `_UnmanagedHashNode` reads its nodes (`EngineLayerTests` checks it keeps
    /// no count).
    @inlinable
    @inline(__always)
    func read<Result>(_ body: (Object) throws -> Result) rethrows -> Result {
        try Unmanaged<Object>.fromOpaque(opaque)._withUnsafeGuaranteedRef(body)
    }

    /// A strong reference to the object (a reference count, for the slow
    /// paths that hand the object to user code or keep it).
    @inlinable
    @inline(__always)
    var object: Object {
        Unmanaged<Object>.fromOpaque(opaque).takeUnretainedValue()
    }

    /// Gives up an owned reference (`retaining(_:)`), which no reader can
    /// see: it may run the object's deinit.
    @inlinable
    func release() {
        Unmanaged<Object>.fromOpaque(opaque).release()
    }

    /// The same object as a reference of another class it is known to be
    /// (a subclass, or `AnyObject`).
    @inlinable
    @inline(__always)
    func unsafeCast<Other>(to: Other.Type) -> UncheckedReference<Other> {
        UncheckedReference<Other>(opaque: opaque)
    }

    /// Whether both refer to the same object.
    @inlinable
    @inline(__always)
    static func == (lhs: UncheckedReference, rhs: UncheckedReference) -> Bool {
        lhs.opaque == rhs.opaque
    }
}
