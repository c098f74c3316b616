/// How caches hold instances without storing `Any`: every cache is keyed by
/// the exact service type, so a class instance is stored as the object
/// itself, anything else in a `Box` of that type, and read back (as the type
/// it was stored as) by reinterpretation, not a dynamic cast. (Hand-made
/// registrations' key space, where types meet, stores `Any`:
/// `ResolverScope.resolveHandMade`.)
@usableFromInline
enum ValueStorage {
    /// Whether every `Service` value is one strong class reference, stored as
    /// the object itself: a metatype cast, so specialized and unspecialized
    /// code agree.
    @inlinable
    static func isClassReference<Service>(_: Service.Type) -> Bool {
        Service.self is AnyClass || Service.self == AnyObject.self
    }

    /// An owned (+1) reference to an object that holds `value`.
    @inlinable
    static func retainedReference<Service>(to value: Service) -> UncheckedReference<AnyObject> {
        if isClassReference(Service.self) { return .retaining(unsafeBitCast(value, to: AnyObject.self)) }
        return .retaining(Box(value))
    }

    /// The value `stored` (from `retainedReference` for this type) holds.
    @inlinable @inline(__always)
    static func value<Service>(in stored: UncheckedReference<AnyObject>, as type: Service.Type) -> Service {
        if isClassReference(Service.self) { return unsafeBitCast(stored.opaque, to: Service.self) }
        return stored.unsafeCast(to: Box<Service>.self).read { $0.value }
    }

    /// What the graph scope keeps, owning a count: a class instance (boxed if
    /// `Service` is a protocol), nil for a value.
    @inlinable
    static func retainedGraphObject<Service>(for value: Service) -> Unmanaged<AnyObject>? {
        if isClassReference(Service.self) { return Unmanaged.passRetained(unsafeBitCast(value, to: AnyObject.self)) }
        guard holdsClassInstance(value) else { return nil }
        return Unmanaged.passRetained(Box(value))
    }

    /// The class instance inside `value`, if it holds one (for weak caches).
    @inlinable
    static func instance<Service>(in value: Service) -> AnyObject? {
        if isClassReference(Service.self) { return unsafeBitCast(value, to: AnyObject.self) }
        guard holdsClassInstance(value) else { return nil }
        return value as AnyObject
    }

    /// Whether `value`'s dynamic type is a class (asked of `value as Any`:
    /// of a generic value bound to a protocol, `type(of:)` is the protocol's).
    @inlinable static func holdsClassInstance<Service>(_ value: Service) -> Bool { type(of: value as Any) is AnyClass }

    /// Whether `value` is an Optional holding nil (an Optional service type).
    @inlinable static func isNil<Service>(_ value: Service) -> Bool { (value as? any OptionalValue)?.isNone ?? false }
}

/// A value of an exact type, held by reference.
@usableFromInline
final class Box<Value> {
    @usableFromInline let value: Value
    @inlinable init(_ value: Value) { self.value = value }
}

/// A weak reference by reference (`.shared`, `WeakLazyInjected`), set once
/// when made, so threads may read it at once.
@usableFromInline
final class WeakBox {
    @usableFromInline weak var object: AnyObject?
    @usableFromInline init(_ object: AnyObject?) { self.object = object }
}

/// An Optional, whatever it wraps.
@usableFromInline
protocol OptionalValue { var isNone: Bool { get } }

extension Optional: OptionalValue {
    @usableFromInline var isNone: Bool { self == nil }
}

/// `value` as a `Target` when its static type is `Target` (a bit cast of a
/// value to its own type, folded where both are known), else nil.
@inlinable @inline(__always)
func exactly<Value, Target>(_ value: Value, as type: Target.Type) -> Target? {
    Value.self == Target.self ? unsafeBitCast(value, to: Target.self) : nil
}
