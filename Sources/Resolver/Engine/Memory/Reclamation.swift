import CRegistry

// How the engine gives objects back without a reader ever seeing a freed one
// (DESIGN.md, "Memory reclamation"). Readers run inside read sections
// (`ReadSection`); a writer that unlinks an object a reader may still be
// looking at retires it, and the C core releases it after a grace period,
// with no lock held. Writers call `collectRetired()` after unlocking, so in a
// single-threaded program an object is released before the write that
// dropped it returns.

/// The release function for objects retired with an owned (+1) reference:
/// gives that reference up. Also the release function of every table whose
/// values are retained objects.
@usableFromInline
let releaseRetainedObject: @convention(c) (UnsafeMutableRawPointer, UnsafeMutableRawPointer?) -> Void = { object, _ in
    Unmanaged<AnyObject>.fromOpaque(object).release()
}

/// Retires an owned (+1) reference: it is released once no read section
/// open now can still be reading the object.
func retire<Object>(owned reference: UncheckedReference<Object>) {
    if crg_retire(reference.opaque, releaseRetainedObject, nil) != 0 {
        fatalError("RESOLVER: out of memory queueing an object for release")
    }
}

/// Retires a reference to `object` (taking one of its own).
func retire(_ object: AnyObject) {
    retire(owned: UncheckedReference.retaining(object))
}

/// Releases what retired objects no reader can reach any more. Call with no
/// lock held: releases run deinits.
@usableFromInline
func collectRetired() {
    _ = crg_collect()
}
