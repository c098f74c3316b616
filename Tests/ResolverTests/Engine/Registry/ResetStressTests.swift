import Foundation
import Resolver
import ResolverTestSupport
import Synchronization
import Testing

extension ResolverKeys {
    fileprivate var resetStressKey: ResolverKey<String> { ResolverKey { "from the key" } }
}

extension ResolverTests {
    /// `Resolver.reset()` is atomic with registration (DESIGN.md, invariant
    /// 5): a resolve that overlaps any number of resets still finds what
    /// `registerAllServices` registers, and `registerAllServices` runs at most
    /// once per reset.
    @Suite struct ResetStress {
        @Test func resolvesThroughTheStaticAPINeverFailWhileAnotherThreadResets() {
            let resolvers = 6, rounds = 3_000
            Resolver.reset()
            Resolver.main.registerServices()
            let runsBefore = registrationRuns.load(ordering: .relaxed)
            let resets = Atomic<Int>(0)
            let failures = Locked<[String: Int]>([:])
            let resolversLeft = Atomic<Int>(resolvers)

            let finished = runOnThreads(1 + resolvers, within: 300) { index in
                guard index > 0 else {
                    // The resetting thread: every 100 µs until the resolvers are done.
                    while resolversLeft.load(ordering: .acquiring) > 0 {
                        Resolver.reset()
                        resets.add(1, ordering: .relaxed)
                        usleep(100)
                    }
                    return
                }
                var missed: [String: Int] = [:]
                for _ in 0..<rounds {
                    if Resolver.optional(NetworkServicing.self) == nil { missed["NetworkServicing", default: 0] += 1 }
                    if Resolver.optional(NetworkService.self) == nil { missed["NetworkService", default: 0] += 1 }
                    if Resolver.optional(UserSession.self) == nil { missed["UserSession", default: 0] += 1 }
                    if Resolver.optional(String.self, name: .fred) != "Hello, Fred" { missed["String:fred", default: 0] += 1 }
                    // A key's first use after each reset makes its registration,
                    // which a reset may forget before the resolve finds it.
                    if Resolver.optional(\.resetStressKey) != "from the key" { missed["\\.resetStressKey", default: 0] += 1 }
                }
                failures.withLock { $0.merge(missed, uniquingKeysWith: +) }
                resolversLeft.subtract(1, ordering: .releasing)
            }

            #expect(finished, "resolvers and resets still running after 300 s: a deadlock")
            let missed = failures.withLock { $0 }
            #expect(missed.isEmpty, "resolves that found nothing, by service: \(missed)")
            let runs = registrationRuns.load(ordering: .relaxed) - runsBefore
            let resetCount = resets.load(ordering: .relaxed)
            #expect(resetCount > 0)
            #expect(runs >= 1, "the resolves after a reset ran registerAllServices")
            #expect(runs <= resetCount, "registerAllServices ran \(runs) times for \(resetCount) resets")
            Resolver.reset()
        }
    }
}
