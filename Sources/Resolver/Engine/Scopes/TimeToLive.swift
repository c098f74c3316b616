// What a time-to-live scope keeps: each instance with the time its life
// ends, on a clock the scope reads through `ScopeLife` (DESIGN.md, "Caching
// scopes: time to live").

/// A time-to-live scope's entry: the instance and the time its life ends, in
/// nanoseconds elapsed on the scope's clock since the scope was made.
/// Immutable: a rebuilt instance replaces the whole entry.
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

/// A time-to-live scope's life and clock, type-erased: the clock is read
/// through `elapsed`, which returns the time from a reference instant taken
/// when the scope was made to the clock's `now` (one reading). Kept in whole
/// nanoseconds (saturated: about 292 years either way), because `Duration`
/// and `Clock` need macOS 13 and iOS 16, which only the public
/// `ResolverScopeTimeToLive` asks for; the engine stays available wherever
/// the library is.
@usableFromInline
final class ScopeLife: Sendable {
    /// How long an instance lives once built.
    let nanoseconds: Int64
    /// The nanoseconds elapsed on the clock since the scope was made.
    @usableFromInline let elapsed: @Sendable () -> Int64

    init(nanoseconds: Int64, elapsed: @escaping @Sendable () -> Int64) {
        self.nanoseconds = nanoseconds
        self.elapsed = elapsed
    }

    /// When an instance whose build ends now expires (saturated).
    func expiryOfInstanceBuiltNow() -> Int64 {
        let (expiry, overflow) = elapsed().addingReportingOverflow(nanoseconds)
        guard overflow else {
            return expiry
        }
        return nanoseconds < 0 ? .min : .max
    }
}

@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
extension Duration {
    /// The duration in whole nanoseconds (toward zero), saturated to `Int64`.
    var saturatedNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else {
            return seconds < 0 ? .min : .max
        }
        let (sum, sumOverflow) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        guard !sumOverflow else {
            return attoseconds < 0 ? .min : .max
        }
        return sum
    }
}
