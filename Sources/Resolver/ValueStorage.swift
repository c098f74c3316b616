/// How caches hold service instances without storing `Any` and casting back.
///
/// Every cache is keyed by the exact service type, so whoever reads a cached
/// value knows its type statically: a class instance is stored as the object
/// itself (one reference, nothing allocated), anything else in a `Box` of
/// that exact type. Reading back is a reinterpretation, not a dynamic cast.
/// The one requirement, which the keys guarantee, is that a value is read
/// back as the same `Service` type it was stored as.
@usableFromInline
enum ValueStorage {
    /// True when every `Service` value is a single strong class reference
    /// (a class type, or `AnyObject`): then it is stored as the object itself.
    ///
    /// This must give the same answer in every compilation of the caller:
    /// an app's specialized code may store a value that the library's
    /// unspecialized code reads back, or the reverse. `_canBeClass` alone is
    /// a compile-time answer ("maybe" in unspecialized code), so it serves
    /// only to rule types out; the decision is read from the type's metadata.
    @inlinable
    static func isClassReference<Service>(_: Service.Type) -> Bool {
        if _canBeClass(Service.self) == 0 {
            return false
        }
        return TypeMetadata.isClass(Service.self) || Service.self == AnyObject.self
    }

    /// An owned (+1) pointer that holds `value`.
    @inlinable
    static func retainedPointer<Service>(_ value: Service) -> UnsafeMutableRawPointer {
        if isClassReference(Service.self) {
            return Unmanaged.passRetained(unsafeBitCast(value, to: AnyObject.self)).toOpaque()
        }
        return Unmanaged.passRetained(Box(value)).toOpaque()
    }

    /// The value behind a pointer made by `retainedPointer` for the same type.
    @inlinable
    static func value<Service>(at pointer: UnsafeMutableRawPointer, as type: Service.Type) -> Service {
        // Straight from the pointer: the only reference count taken is the
        // caller's own copy of the result.
        if isClassReference(Service.self) {
            return unsafeBitCast(pointer, to: Service.self)
        }
        return Unmanaged<Box<Service>>.fromOpaque(pointer)._withUnsafeGuaranteedRef { $0.value }
    }

    /// Gives up the reference a `retainedPointer` owns.
    static func release(_ pointer: UnsafeMutableRawPointer) {
        Unmanaged<AnyObject>.fromOpaque(pointer).release()
    }

    /// The object to keep for the graph scope, which keeps class instances
    /// only, owning one reference (+1): the instance itself for class types,
    /// a box for a protocol value that holds a class instance, and nil for
    /// value types. Read back with `value(at:as:)`.
    @inlinable
    static func retainedGraphObject<Service>(for value: Service) -> Unmanaged<AnyObject>? {
        if isClassReference(Service.self) {
            // Through the raw pointer: exactly one retain, the entry's own.
            return Unmanaged<AnyObject>.fromOpaque(unsafeBitCast(value, to: UnsafeRawPointer.self)).retain()
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

    /// Whether `value`, of a protocol type, holds a class instance (checked
    /// for the value, since the static type cannot say).
    @inlinable
    static func holdsClassInstance<Service>(_ value: Service) -> Bool {
        TypeMetadata.isExistential(Service.self) && TypeMetadata.isClass(type(of: value as Any))
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

/// A few facts about types, read from the Swift runtime's type metadata.
///
/// The layout used is the stable Swift ABI: a metadata record starts with its
/// kind; for a struct the nominal type descriptor follows, then the generic
/// arguments. These probes replace dynamic casts where only the shape of a
/// type matters.
@usableFromInline
enum TypeMetadata {
    /// `MetadataKind` values from the Swift ABI.
    static let structKind: UInt = 0x200
    static let existentialKind: UInt = 0x303
    static let extendedExistentialKind: UInt = 0x307
    /// Kinds above this are not kinds but an Objective-C isa: a class.
    static let lastEnumeratedKind: UInt = 0x7FF

    @usableFromInline
    static func kind(of type: Any.Type) -> UInt {
        unsafeBitCast(type, to: UnsafeRawPointer.self).load(as: UInt.self)
    }

    /// True for protocol (existential) types such as `any P`.
    @usableFromInline
    static func isExistential(_ type: Any.Type) -> Bool {
        let kind = kind(of: type)
        return kind == existentialKind || kind == extendedExistentialKind
    }

    /// True for class types (Swift or Objective-C).
    @usableFromInline
    static func isClass(_ type: Any.Type) -> Bool {
        let kind = kind(of: type)
        return kind == 0 || kind > lastEnumeratedKind
    }

    /// True when `type` is `Dictionary<String, V>` for some `V`: the same
    /// nominal descriptor and first generic argument as `[String: Int]`.
    @usableFromInline
    static func isStringKeyedDictionary(_ type: Any.Type) -> Bool {
        guard kind(of: type) == structKind else {
            return false
        }
        let probe = unsafeBitCast(type, to: UnsafeRawPointer.self)
        let reference = unsafeBitCast([String: Int].self, to: UnsafeRawPointer.self)
        let word = MemoryLayout<UnsafeRawPointer>.stride
        return probe.load(fromByteOffset: word, as: UnsafeRawPointer.self)
            == reference.load(fromByteOffset: word, as: UnsafeRawPointer.self)
            && probe.load(fromByteOffset: 2 * word, as: UnsafeRawPointer.self)
            == reference.load(fromByteOffset: 2 * word, as: UnsafeRawPointer.self)
    }
}
