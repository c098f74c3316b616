// What a verification learns of a collection's element when it resolves it:
// the type of the instance it built, for the graph's node (`CollectionElementDescribing`).

/// The type of the instance an element built in a verification: written by
/// the verification's thread, read by the caller (which may read before a
/// thread that timed out writes), so under a mutex of its own (a leaf).
final class InstanceTypeNote: @unchecked Sendable {
    private let mutex = Mutex.make()
    /// Guarded by `mutex`.
    private var noted: String?

    deinit {
        mutex.release()
    }

    /// The type noted, as Swift prints it, or nil.
    var instanceType: String? {
        mutex.withLock { noted }
    }

    /// Notes the dynamic type of `instance`, if there is one.
    func note<Instance>(_ instance: Instance?) {
        guard let instance else {
            return
        }
        let type = describeType(of: instance)
        mutex.withLock { noted = type }
    }
}
