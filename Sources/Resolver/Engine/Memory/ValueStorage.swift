/// How caches hold service instances without storing `Any` and casting back.
///
/// Every cache is keyed by the exact service type, so whoever reads a cached
/// value knows its type statically: a class instance is stored as the object
/// itself (one reference, nothing allocated), anything else in a `Box` of
/// that exact type. Reading back is a reinterpretation, not a dynamic cast.
/// The one requirement, which the keys guarantee, is that a value is read
/// back as the same `Service` type it was stored as. (The one exception is
/// the caching scopes' key space of hand-made registrations, where several
/// types may meet: those entries hold the value as `Any`, read back with a
/// cast; see `ResolverScope.resolveHandMade`.)
@usableFromInline
enum ValueStorage {
    /// True when every `Service` value is a single strong class reference (a
    /// class type, or `AnyObject`): then it is stored as the object itself.
    ///
    /// It gives the same answer in every compilation of the caller (an app's
    /// specialized code may store a value that the library's unspecialized
    /// code reads back, or the reverse): a cast of the metatype, which the
    /// optimizer folds when `Service` is known.
    @inlinable
    static func isClassReference<Service>(_: Service.Type) -> Bool {
        Service.self is AnyClass || Service.self == AnyObject.self
    }

    /// An owned (+1) reference to an object that holds `value`.
    @inlinable
    static func retainedReference<Service>(to value: Service) -> UncheckedReference<AnyObject> {
        if isClassReference(Service.self) {
            return .retaining(unsafeBitCast(value, to: AnyObject.self))
        }
        return .retaining(Box(value))
    }

    /// The value `stored` (made by `retainedReference` for the same type)
    /// holds. The only reference count taken is the caller's own copy of the
    /// result.
    @inlinable
    @inline(__always)
    static func value<Service>(in stored: UncheckedReference<AnyObject>, as type: Service.Type) -> Service {
        if isClassReference(Service.self) {
            return unsafeBitCast(stored.opaque, to: Service.self)
        }
        return stored.unsafeCast(to: Box<Service>.self).read { $0.value }
    }

    /// The object to keep for the graph scope, which keeps class instances
    /// only, owning one reference (+1): the instance itself for class types,
    /// a box for a protocol value that holds a class instance, and nil for
    /// value types. Read back with `value(at:as:)`.
    @inlinable
    static func retainedGraphObject<Service>(for value: Service) -> Unmanaged<AnyObject>? {
        if isClassReference(Service.self) {
            return Unmanaged.passRetained(unsafeBitCast(value, to: AnyObject.self))
        }
        guard holdsClassInstance(value) else {
            return nil
        }
        return Unmanaged.passRetained(Box(value))
    }

    /// The class instance inside `value`, if it holds one (for weak caches).
    @inlinable
    static func instance<Service>(in value: Service) -> AnyObject? {
        if isClassReference(Service.self) {
            return unsafeBitCast(value, to: AnyObject.self)
        }
        guard holdsClassInstance(value) else {
            return nil
        }
        return value as AnyObject
    }

    /// Whether `value`, of a protocol type, holds a class instance: its
    /// dynamic type is a class. (`type(of:)` of a generic value bound to a
    /// protocol type is the protocol's metatype; of the value as `Any`, the
    /// dynamic type.)
    @inlinable
    static func holdsClassInstance<Service>(_ value: Service) -> Bool {
        type(of: value as Any) is AnyClass
    }
}

/// A value of an exact type, held by reference.
@usableFromInline
final class Box<Value> {
    @usableFromInline let value: Value

    @inlinable
    init(_ value: Value) {
        self.value = value
    }
}

/// A weak reference held by reference, as a `.shared` cache or a
/// `WeakLazyInjected` stores it. Set once, when made, so threads may read it
/// at the same time.
@usableFromInline
final class WeakBox {
    @usableFromInline weak var object: AnyObject?

    @usableFromInline
    init(_ object: AnyObject?) {
        self.object = object
    }
}

extension ValueStorage {
    /// Whether `value` is an Optional holding nil (a service type that is
    /// itself Optional).
    @inlinable
    static func isNil<Service>(_ value: Service) -> Bool {
        (value as? any OptionalValue)?.isNone ?? false
    }
}

/// An Optional, whatever it wraps.
@usableFromInline
protocol OptionalValue {
    var isNone: Bool { get }
}

extension Optional: OptionalValue {
    @usableFromInline
    var isNone: Bool {
        self == nil
    }
}
