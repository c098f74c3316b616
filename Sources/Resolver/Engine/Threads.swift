import CRegistry

/// Threads of the engine's own (`crg_thread.h`), and what it keeps per
/// thread (`crg_epoch.h`).
@usableFromInline
enum EngineThread {
    /// Starts a detached thread running `body`: 0, or an error code.
    static func start(_ body: @escaping () -> Void) -> Int32 {
        let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
        let rc = crg_thread_start({ raw in
            Unmanaged<ThreadBody>.fromOpaque(raw!).takeRetainedValue().body()
        }, context)
        if rc != 0 {
            Unmanaged<ThreadBody>.fromOpaque(context).release()
        }
        return rc
    }

    /// Ends the calling thread, which `start` started, running its thread
    /// exit handlers (its resolution context is released).
    static func exit() -> Never {
        crg_thread_exit()
    }

    /// A small number for the calling thread, reused after it exits.
    @inlinable
    @inline(__always)
    static var index: Int {
        Int(crg_thread_index())
    }

    /// An identity of the calling thread while it lives: its resolution
    /// context's address (0 before it has one).
    static var identity: UInt64 {
        UInt64(UInt(bitPattern: crg_thread_object()))
    }

    private final class ThreadBody {
        let body: () -> Void

        init(_ body: @escaping () -> Void) {
            self.body = body
        }
    }
}
