import CRegistry

// How the front end gives objects back without a reader ever seeing a freed
// one (DESIGN.md, "Memory reclamation"). Readers run inside read sections
// (`crg_read_begin`/`crg_read_end`); a writer that unlinks an object a reader
// may still be looking at retires it, and the C core releases it after a grace
// period, with no lock held. Writers call `collectRetired()` after unlocking,
// so in a single-threaded program an object is released before the write that
// dropped it returns.

/// The release function for objects retired with an owned (+1) reference:
/// gives that reference up. Also the release function of every table whose
/// values are retained objects.
@usableFromInline
let releaseRetainedObject: @convention(c) (UnsafeMutableRawPointer, UnsafeMutableRawPointer?) -> Void = { object, _ in
    Unmanaged<AnyObject>.fromOpaque(object).release()
}

/// Retires `pointer`, an owned (+1) reference: it is released once no read
/// section open now can still be reading the object.
func retire(retained pointer: UnsafeMutableRawPointer) {
    if crg_retire(pointer, releaseRetainedObject, nil) != 0 {
        fatalError("RESOLVER: out of memory queueing an object for release")
    }
}

/// Retires a reference to `object` (taking one of its own).
func retire(_ object: AnyObject) {
    retire(retained: Unmanaged.passRetained(object).toOpaque())
}

/// Releases what retired objects no reader can reach any more. Call with no
/// lock held: releases run deinits.
@usableFromInline
func collectRetired() {
    _ = crg_collect()
}

/// Allocates `count` zeroed atomic cells, or stops the program.
func makeCells(_ count: Int) -> UnsafeMutablePointer<crg_cell> {
    guard let cells = crg_cells_create(count) else {
        fatalError("RESOLVER: out of memory")
    }
    return cells
}

/// Allocates `count` zeroed atomic words, or stops the program.
func makeWords(_ count: Int) -> UnsafeMutablePointer<crg_word> {
    guard let words = crg_words_create(count) else {
        fatalError("RESOLVER: out of memory")
    }
    return words
}

/// A new writers' mutex (`crg_mutex`), or stops the program.
func makeMutex() -> OpaquePointer {
    guard let mutex = crg_mutex_create() else {
        fatalError("RESOLVER: out of memory")
    }
    return mutex
}

/// A new condition variable, or stops the program.
func makeCondition() -> OpaquePointer {
    guard let condition = crg_condition_create() else {
        fatalError("RESOLVER: out of memory")
    }
    return condition
}
