import Foundation
import Resolver
import Testing

extension IndependentTests {
    /// Eight threads doing mixed operations on shared containers, checking
    /// values as they go and invariants at the end.
    ///
    /// Its caching scopes are its own: two `ResolverScopeCache`s standing
    /// for `.application` and `.cached` (the class of both) and a
    /// `ResolverScopeShare` for `.shared`, which a resolve through a
    /// container without isolated scopes handles exactly as it does those.
    /// So it can reset its cache and count its instances while other tests
    /// run.
    @Suite struct Stress {
        final class AppService: @unchecked Sendable { let id = Serial.next() }
        final class CachedService { let id = Serial.next() }
        final class Argumented { let value: Int; init(_ value: Int) { self.value = value } }

        /// What every thread saw, for the checks at the end.
        struct Observations {
            var applicationIDs = Set<Int>()
            var graphLeafIDs: [Set<Int>] = []
            var operations = 0
            var wrong: [String] = []
            mutating func record(_ thread: Set<Int>, app: Set<Int>, operations: Int, wrong: [String]) {
                graphLeafIDs.append(thread)
                applicationIDs.formUnion(app)
                self.operations += operations
                self.wrong += wrong.prefix(5)
            }
        }

        @Test func eightThreadsOfMixedOperations() {
            let threads = 8, operationsPerThread = 100_000
            let application = ResolverScopeCache(), cached = ResolverScopeCache(), sharing = ResolverScopeShare()
            let shared = Resolver()
            let appRuns = Counter()
            shared.register { () -> AppService in appRuns.increment(); usleep(1_000); return AppService() }.scope(application)
            shared.register { CachedService() }.scope(cached)
            shared.register { Leaf() }
            shared.register { r in Middle(leaf: r.resolve()) }
            shared.register { r in Top(middle: r.resolve(), leaf: r.resolve()) }
            shared.register { XYZService() }.scope(sharing).implements(XYZUpdating.self)
            shared.register(name: "named") { "named" }
            shared.register { _, args in Argumented(args()) }
            shared.register(name: "volatile") { 0 }
            let observations = Locked(Observations())
            let started = Date()

            runOnThreads(threads) { thread in
                var random = SystemRandomNumberGenerator()
                var graphLeaves = Set<Int>(), appIDs = Set<Int>(), wrong: [String] = []
                let mine = Resolver(child: shared)
                for step in 0..<operationsPerThread {
                    switch Int.random(in: 0..<100, using: &random) {
                    case 0..<20:
                        appIDs.insert(shared.resolve(AppService.self).id)
                    case 20..<35:
                        let top: Top = mine.resolve()
                        if top.middle.leaf !== top.leaf { wrong.append("graph not shared within a resolution") }
                        graphLeaves.insert(top.leaf.id)
                    case 35..<45:
                        if shared.resolve(Argumented.self, args: step).value != step { wrong.append("argument") }
                    case 45..<55:
                        if shared.resolve(String.self, name: "named") != "named" { wrong.append("named") }
                        if shared.optional(Top.self, name: "named") != nil { wrong.append("named fallback") }
                    case 55..<65:
                        let a: CachedService = shared.resolve()
                        if a.id <= 0 { wrong.append("cached") }
                        if step % 10 == 0 { cached.reset() }
                    case 65..<75:
                        let held: XYZService = shared.resolve()
                        if shared.resolve(XYZUpdating.self).id != held.id { wrong.append("shared via protocol") }
                        withExtendedLifetime(held) {}
                    case 75..<85:
                        // Re-register; a resolve sees some whole registration.
                        let value = thread * 1_000_000 + step
                        shared.register(name: "volatile") { value }
                        let seen = shared.resolve(Int.self, name: "volatile")
                        if seen < 0 || seen % 1_000_000 >= operationsPerThread { wrong.append("volatile \(seen)") }
                    case 85..<92:
                        mine.register(name: "local") { thread }
                        if mine.resolve(Int.self, name: "local") != thread { wrong.append("local registration") }
                    case 92..<96:
                        let child = Resolver()
                        child.register(name: "child") { thread }
                        mine.add(child: child)
                        if mine.resolve(Int.self, name: "child") != thread { wrong.append("child container") }
                    default:
                        if shared.optional(Middle.self, name: "absent") != nil { wrong.append("optional") }
                    }
                }
                observations.withLock { $0.record(graphLeaves, app: appIDs, operations: operationsPerThread, wrong: wrong) }
            }
            let observed = observations.withLock { $0 }

            let elapsed = Date().timeIntervalSince(started)
            print("stress: \(observed.operations) operations on \(threads) threads in \(String(format: "%.2f", elapsed)) s")
            #expect(observed.operations == threads * operationsPerThread)
            #expect(observed.wrong.isEmpty, "\(observed.wrong)")
            #expect(appRuns.count == 1, "the factory under `application` ran once")
            #expect(observed.applicationIDs.count == 1, "one instance in `application` across all threads")
            // Graph instances never cross threads: the leaf sets are disjoint.
            var union = Set<Int>(), total = 0
            for leaves in observed.graphLeafIDs {
                union.formUnion(leaves)
                total += leaves.count
            }
            #expect(union.count == total)
        }
    }
}
