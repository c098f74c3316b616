#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `body(index)` on `count` new threads at once and waits for them all.
public func runOnThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    final class Job { let body: () -> Void; init(_ body: @escaping () -> Void) { self.body = body } }
    var threads: [pthread_t] = []
    for index in 0..<count {
        let job = Unmanaged.passRetained(Job { body(index) }).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let rc = pthread_create(&thread, nil, { argument in
            Unmanaged<Job>.fromOpaque(argument!).takeRetainedValue().body()
            return nil
        }, job)
        precondition(rc == 0, "pthread_create: \(rc)")
        #if canImport(Darwin)
        threads.append(thread!)
        #else
        threads.append(thread)
        #endif
    }
    for thread in threads { pthread_join(thread, nil) }
}
