import CRegistry

// Writers retire what a reader may still reach; the C core releases it after
// a grace period (DESIGN.md, R2), in `collectRetired()` after unlocking.

/// Gives up an owned (+1) reference: the release function of retired objects
/// and of every table whose values are retained objects.
@usableFromInline
let releaseRetainedObject: @convention(c) (UnsafeMutableRawPointer, UnsafeMutableRawPointer?) -> Void = { object, _ in
    Unmanaged<AnyObject>.fromOpaque(object).release()
}

/// Retires an owned (+1) reference, released when the read sections open now
/// have ended.
func retire<Object>(owned reference: UncheckedReference<Object>) {
    if crg_retire(reference.opaque, releaseRetainedObject, nil) != 0 {
        fatalError("RESOLVER: out of memory queueing an object for release")
    }
}

/// Retires a reference to `object` (taking one of its own).
func retire(_ object: AnyObject) { retire(owned: UncheckedReference.retaining(object)) }

/// Releases what no reader can reach any more. Call unlocked: deinits run.
@usableFromInline func collectRetired() { _ = crg_collect() }
