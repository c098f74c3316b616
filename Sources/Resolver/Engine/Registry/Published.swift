import CRegistry

/// What every resolve reads first, in process-wide fields (`crg_published_cell`/`_word`:
/// static storage, nothing to load or initialize first), zero until the
/// registry is made. `root` and `decorate` are unretained: `Registry` owns them.
@usableFromInline
enum Published {
    @inlinable static var root: AtomicReference<Resolver> { AtomicReference(crg_published_cell(0)) }
    /// nil in release builds of the library.
    @inlinable static var decorate: AtomicReference<DecorateBox> { AtomicReference(crg_published_cell(1)) }
    /// 1 once `registerAllServices` has run for the current generation (G1).
    @inlinable static var registered: AtomicWord { AtomicWord(crg_published_word(0)) }
    /// Non-zero while resolves take the detour (`Resolver.detour`): the
    /// `withRoot` calls running, verification threads alive, and one while
    /// graph recording is on.
    @inlinable static var detours: AtomicWord { AtomicWord(crg_published_word(1)) }
    /// Counts scopes made, so each starts its generations at its own base.
    static var scopesMade: AtomicWord { AtomicWord(crg_published_word(2)) }
    /// 1 while `Resolver.isRecordingGraph` is on.
    static var recordingGraph: AtomicWord { AtomicWord(crg_published_word(3)) }

    static func withDetour<Result>(_ body: () throws -> Result) rethrows -> Result {
        detours.increment()
        defer { detours.decrement() }
        return try body()
    }
}

/// The `decorate` closure, by reference so that it can be published.
@usableFromInline
final class DecorateBox: @unchecked Sendable {
    @usableFromInline let decorate: (_ service: Any) -> Void
    init(_ decorate: @escaping (_ service: Any) -> Void) { self.decorate = decorate }

    @inlinable @inline(__always)
    static func call(_ box: UncheckedReference<DecorateBox>, with service: Any) { box.read { $0.decorate(service) } }
}
