/// Resolves its service at every read, from the given container or else
/// `Resolver.root`. It holds no instance: each read sees what is registered,
/// what the scope keeps and which container is `root` at that moment.
///
/// ```swift
/// final class CheckoutModel {
///     @DynamicInjected var cart: Cart                         // by type, from Resolver.root
///     @DynamicInjected(name: .express) var shipping: Shipping
///     @DynamicInjected(\.payments) var payments               // by key
///
///     var total: Int { cart.total + shipping.price }
/// }
/// ```
///
/// A read resolves as `Resolver.resolve` does, and stops the program as it does when nothing is
/// registered. A `.unique` (or `.graph`) service is a new instance at each read, an
/// `.application` or `.cached` one the instance its scope holds; a registration replaced between
/// two reads, or another `root` (`Resolver.withRoot`, a test's container), is seen by the next
/// read. Each read costs a resolve, so use it where the service must follow such changes
/// (Factory's `@DynamicInjected`), and ``Injected`` or ``LazyInjected`` where it does not.
///
/// `$service` is the wrapper. `DynamicInjected` is `Sendable` when its service is, as Factory's
/// is: sending it sends access to the instances it resolves.
@propertyWrapper
public struct DynamicInjected<Service> {
    /// The name to resolve; unused with a key.
    @usableFromInline let name: Resolver.Name?
    /// The container to resolve from; nil means `Resolver.root` at each read.
    @usableFromInline let container: Resolver?
    /// The key to resolve (`@DynamicInjected(\.api)`,
    /// `KeyPropertyWrappers.swift`); nil for a wrapper of a service type.
    @usableFromInline let key: KeyPath<ResolverKeys, ResolverKey<Service>>?

    /// Resolves `Service` under `name` from `container`, or `Resolver.root`,
    /// at every read: `@DynamicInjected var api: API`,
    /// `@DynamicInjected(name: .fred, container: people) var fred: Person`.
    ///
    /// - Parameters:
    ///   - name: the registration's name; nil for the unnamed one.
    ///   - container: the container to resolve from; nil means `Resolver.root`,
    ///     read at each read.
    public init(name: Resolver.Name? = nil, container: Resolver? = nil) {
        self.name = name
        self.container = container
        key = nil
    }

    /// The service, resolved now: a read is a resolve.
    @inlinable
    public var wrappedValue: Service {
        if let key {
            return resolveKey(key)
        }
        if let container {
            return container.resolve(Service.self, name: name)
        }
        return Resolver.resolve(Service.self, name: name)
    }

    /// The wrapper itself (`$service`).
    public var projectedValue: DynamicInjected<Service> {
        self
    }

    /// A read through the wrapper's key, from its container or `Resolver.root`
    /// (out of line: a key's resolve is inlined where it is written).
    @usableFromInline
    func resolveKey(_ key: KeyPath<ResolverKeys, ResolverKey<Service>>) -> Service {
        if let container {
            return container.resolve(key)
        }
        return Resolver.resolve(key)
    }
}

// `@unchecked` for the key path alone (`KeyPath` is not `Sendable`): a key is a property of
// `ResolverKeys`, no subscript, whose getter only makes the key's value.
extension DynamicInjected: @unchecked Sendable where Service: Sendable {}
