import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// A thread that runs `body` in a loop until stopped: the second thread of the
/// two-thread scenarios. `init` returns once the thread is running.
final class PartnerThread: @unchecked Sendable {
    private let body: @Sendable () -> Void
    private let running = Atomic<Bool>(false)
    private let stopRequested = Atomic<Bool>(false)
    private let operations = Atomic<Int>(0)
    private var thread: pthread_t?
    private let joinLock = Mutex<Bool>(false)

    init(_ body: @escaping @Sendable () -> Void) {
        self.body = body
        let context = Unmanaged.passRetained(self).toOpaque()
        var handle = pthread_t()
        let status = pthread_create(&handle, nil, { raw in
            #if canImport(Darwin)
            let partner = Unmanaged<PartnerThread>.fromOpaque(raw).takeRetainedValue()
            #else
            let partner = Unmanaged<PartnerThread>.fromOpaque(raw!).takeRetainedValue()
            #endif
            partner.loop()
            return nil
        }, context)
        precondition(status == 0, "pthread_create failed: \(status)")
        thread = handle
        while !running.load(ordering: .acquiring) {
            sched_yield()
        }
    }

    private func loop() {
        running.store(true, ordering: .releasing)
        var count = 0
        while !stopRequested.load(ordering: .relaxed) {
            for _ in 0..<64 { body() }
            count += 64
        }
        operations.store(count, ordering: .relaxed)
    }

    /// Operations the partner ran (valid after `stop`).
    var operationCount: Int { operations.load(ordering: .relaxed) }

    /// Stops the thread and waits for it; safe to call more than once.
    func stop() {
        let alreadyJoined = joinLock.withLock { joined -> Bool in
            defer { joined = true }
            return joined
        }
        guard !alreadyJoined, let thread else { return }
        stopRequested.store(true, ordering: .relaxed)
        pthread_join(thread, nil)
    }
}
