/// A time-to-live scope's entry: the instance and the time its life ends,
/// in nanoseconds elapsed on the scope's clock; replaced whole (DESIGN.md,
/// "Caching scopes: time to live").
@usableFromInline
final class ExpiringBox<Value> {
    @usableFromInline let value: Value
    @usableFromInline let expiry: Int64
    @usableFromInline
    init(_ value: Value, expiry: Int64) {
        self.value = value
        self.expiry = expiry
    }
}

/// A time-to-live scope's life and clock, type-erased: `elapsed` is the time
/// from when the scope was made to the clock's `now`, in whole nanoseconds
/// (saturated), since `Duration` and `Clock` need macOS 13 and iOS 16,
/// which only the public `ResolverScopeTimeToLive` asks for.
@usableFromInline
final class ScopeLife: Sendable {
    /// How long an instance lives once built.
    let nanoseconds: Int64
    @usableFromInline let elapsed: @Sendable () -> Int64
    init(nanoseconds: Int64, elapsed: @escaping @Sendable () -> Int64) {
        self.nanoseconds = nanoseconds
        self.elapsed = elapsed
    }

    /// When an instance whose build ends now expires (saturated).
    func expiryOfInstanceBuiltNow() -> Int64 {
        let (expiry, overflow) = elapsed().addingReportingOverflow(nanoseconds)
        return !overflow ? expiry : nanoseconds < 0 ? .min : .max
    }
}

extension ResolverScope {
    /// The instance of a time-to-live entry, if it has not expired: one
    /// reading of the clock. Out of line, so other scopes' reads stay short.
    @inlinable
    @inline(never)
    static func liveService<Service>(inEntry entry: UncheckedReference<AnyObject>,
                                     of scope: UncheckedReference<ResolverScope>, as type: Service.Type) -> Service? {
        let now = scope.read { $0.life.unsafelyUnwrapped.elapsed() }
        return entry.unsafeCast(to: ExpiringBox<Service>.self).read { box in
            now < box.expiry ? box.value : nil
        }
    }
    @usableFromInline
    func expiryOfInstanceBuiltNow() -> Int64 {
        life.unsafelyUnwrapped.expiryOfInstanceBuiltNow()
    }
}

@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
extension Duration {
    /// The duration in whole nanoseconds (toward zero), saturated to `Int64`.
    var saturatedNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return seconds < 0 ? .min : .max }
        let (sum, sumOverflow) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        return !sumOverflow ? sum : attoseconds < 0 ? .min : .max
    }
}
