import Dispatch
import Foundation
@testable import Resolver
import Testing

/// A service whose setup must be awaited.
actor AsyncStore {
    let id = Serial.next()
    let leaf: Leaf?
    init(leaf: Leaf? = nil) async {
        await Task.yield()
        self.leaf = leaf
    }
}

/// A service built by an async factory that needs another async service.
final class Repository: Sendable {
    let id = Serial.next()
    let store: AsyncStore
    init(store: AsyncStore) { self.store = store }
}

/// A global actor other than the main actor.
@globalActor actor DatabaseActor {
    static let shared = DatabaseActor()
}

@DatabaseActor final class DatabaseRepository {
    let id = Serial.next()
    init() {}
}

/// Opens when told to; tasks waiting on it suspend (no thread blocks).
actor Gate {
    private var open = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private(set) var arrivals = 0

    func wait() async {
        arrivals += 1
        if open { return }
        await withCheckedContinuation { waiting.append($0) }
    }

    func openUp() {
        open = true
        for waiter in waiting { waiter.resume() }
        waiting = []
    }
}

/// Waits (suspending) until `condition` holds, at most about `seconds`.
func eventually(within seconds: Double, _ condition: () async -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if await condition() { return true }
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
    return await condition()
}

extension ResolverTests {
    /// `register { await … }` and `resolveAsync`.
    @Suite struct AsyncFactories {
        /// Every shape, static and on a container.
        @Test func everyShapeResolves() async {
            let resolver = Resolver()
            resolver.register { await AsyncStore() }
            resolver.register(AsyncStore.self, name: "typed") { await AsyncStore() }
            resolver.register(name: "resolver") { r in await AsyncStore(leaf: r.resolve(Leaf.self)) }
            resolver.register(name: "args") { (_: Resolver, args: Resolver.Args) in await AsyncStore(leaf: args() as Leaf) }
            resolver.register { Leaf() }
            let plain: AsyncStore = await resolver.resolveAsync()
            let typed = await resolver.resolveAsync(AsyncStore.self, name: "typed")
            let withResolver = await resolver.resolveAsync(AsyncStore.self, name: "resolver")
            let leaf = Leaf()
            let withArguments = await resolver.resolveAsync(AsyncStore.self, name: "args", args: leaf)
            #expect(plain.id != typed.id)
            #expect(withResolver.leaf != nil)
            #expect(withArguments.leaf === leaf)
            #expect(await resolver.optionalAsync(AsyncStore.self, name: "missing") == nil)

            let mocks = Resolver(child: .main, isolatedScopes: true)
            await Resolver.withRoot(mocks) {
                Resolver.register(name: "static") { await AsyncStore() }
                Resolver.register(name: "static-resolver") { r in await AsyncStore(leaf: r.resolve(Leaf.self)) }
                Resolver.register(name: "static-args") { (_: Resolver, args: Resolver.Args) in await AsyncStore(leaf: args() as Leaf) }
                mocks.register { Leaf() }
                let fromStatic = await Resolver.resolveAsync(AsyncStore.self, name: "static")
                let fromStaticResolver: AsyncStore? = await Resolver.optionalAsync(name: "static-resolver")
                let fromStaticArgs = await Resolver.resolveAsync(AsyncStore.self, name: "static-args", args: leaf)
                #expect(fromStatic.id > 0 && fromStaticResolver?.leaf != nil && fromStaticArgs.leaf === leaf)
            }
        }

        /// `resolveAsync` resolves plain registrations too, as `resolve` does.
        @Test func resolveAsyncResolvesPlainRegistrations() async {
            let resolver = Resolver()
            resolver.register { Leaf() }.scope(.application)
            let first: Leaf = await resolver.resolveAsync()
            let second: Leaf = resolver.resolve()
            #expect(first === second)
            #expect(await resolver.optionalAsync(Middle.self) == nil)
        }

        /// Another global actor: the async spelling works, the factory runs
        /// on that actor.
        @Test func aServiceOfAnotherGlobalActor() async {
            let resolver = Resolver()
            resolver.register { await DatabaseRepository() }.scope(.application)
            let repository: DatabaseRepository = await resolver.resolveAsync()
            let again: DatabaseRepository = await resolver.resolveAsync()
            #expect(repository === again)
        }

        /// Caching scopes build once however many tasks ask at the same
        /// moment; the others suspend until it is built; all get one instance.
        @Test(arguments: ["application", "cached", "shared", "container", "custom"])
        func cachingScopesBuildOnce(scope name: String) async {
            let scope: ResolverScope = switch name {
            case "application": .application
            case "cached": .cached
            case "shared": .shared
            case "container": .container
            default: ResolverScopeCache()
            }
            let resolver = Resolver(child: nil, isolatedScopes: true)
            let gate = Gate()
            let runs = Counter()
            resolver.register { () async -> AsyncStore? in
                runs.increment()
                await gate.wait()
                return await AsyncStore()
            }.scope(scope)
            let ids = await withTaskGroup(of: ObjectIdentifier.self) { group in
                for _ in 0..<20 {
                    group.addTask { ObjectIdentifier(await resolver.resolveAsync(AsyncStore.self)) }
                }
                #expect(await eventually(within: 10) { await gate.arrivals == 1 })
                await gate.openUp()
                var ids = Set<ObjectIdentifier>()
                for await id in group { ids.insert(id) }
                return ids
            }
            #expect(ids.count == 1)
            #expect(runs.count == 1)
            if name != "shared" {
                // Cached: a synchronous resolve now returns it.
                #expect(ObjectIdentifier(resolver.resolve(AsyncStore.self)) == ids.first)
            }
        }

        /// Cancelling a task waiting for a build does not cancel the build
        /// for the others (nor for itself: it still gets the instance).
        @Test func cancellingAWaiterLeavesTheBuildAlone() async {
            let resolver = Resolver(child: nil, isolatedScopes: true)
            let gate = Gate()
            let sawCancellation = Locked(false)
            resolver.register { () async -> AsyncStore? in
                await gate.wait()
                sawCancellation.withLock { $0 = Task.isCancelled }
                return await AsyncStore()
            }.scope(.application)
            let first = Task { await resolver.resolveAsync(AsyncStore.self) }
            #expect(await eventually(within: 10) { await gate.arrivals == 1 })
            let second = Task { await resolver.resolveAsync(AsyncStore.self) }
            first.cancel()
            second.cancel()
            await gate.openUp()
            let a = await first.value
            let b = await second.value
            let c: AsyncStore = await resolver.resolveAsync()
            #expect(a === b && b === c)
            #expect(!sawCancellation.withLock { $0 })
        }

        /// A reset during the build: the builder and its waiters get the
        /// instance, but it is not stored (DESIGN.md, invariant 4).
        @Test func aResetDuringTheBuildStoresNothing() async {
            let resolver = Resolver(child: nil, isolatedScopes: true)
            let gate = Gate()
            let runs = Counter()
            let scope = ResolverScopeCache()
            resolver.register { () async -> AsyncStore? in
                runs.increment()
                await gate.wait()
                return await AsyncStore()
            }.scope(scope)
            let first = Task { await resolver.resolveAsync(AsyncStore.self) }
            #expect(await eventually(within: 10) { await gate.arrivals == 1 })
            scope.reset()
            await gate.openUp()
            let built = await first.value
            let next: AsyncStore = await resolver.resolveAsync()
            #expect(next !== built)
            #expect(runs.count == 2)
        }

        /// Graph scope: one instance per top-level `resolveAsync`.
        @Test func graphScopeIsOneInstancePerTopLevelResolve() async {
            final class Pair: Sendable {
                let a: AsyncStore, b: AsyncStore
                init(a: AsyncStore, b: AsyncStore) { self.a = a; self.b = b }
            }
            let resolver = Resolver()
            resolver.register { await AsyncStore() }
            resolver.register { r in Pair(a: await r.resolveAsync(), b: await r.resolveAsync()) }
            let first: Pair = await resolver.resolveAsync()
            let second: Pair = await resolver.resolveAsync()
            #expect(first.a === first.b)
            #expect(first.a !== second.a)
        }

        /// An async factory's dependencies, through `resolveAsync` inside it.
        @Test func asyncFactoriesDependOnAsyncServices() async {
            let resolver = Resolver()
            resolver.register { await AsyncStore() }.scope(.application)
            resolver.register { r in Repository(store: await r.resolveAsync()) }
            let repository: Repository = await resolver.resolveAsync()
            let store: AsyncStore = await resolver.resolveAsync()
            #expect(repository.store === store)
        }

        /// `resolveProperties` blocks run after an async factory.
        @Test func resolvePropertiesRunAfterAnAsyncFactory() async {
            final class Holder: @unchecked Sendable { var leaf: Leaf? }
            let resolver = Resolver()
            resolver.register { Leaf() }
            resolver.register { () async -> Holder? in Holder() }
                .resolveProperties { r, holder in holder.leaf = r.resolve(Leaf.self) }
            let holder: Holder = await resolver.resolveAsync()
            #expect(holder.leaf != nil)
        }

        /// `withRoot` reaches into async factories and their build tasks, and
        /// so does the test trait built on it.
        @Test func withRootReachesAsyncFactories() async {
            let mocks = Resolver(child: .main, isolatedScopes: true)
            let mockLeaf = Leaf()
            mocks.register { mockLeaf }
            mocks.register { await AsyncStore(leaf: Resolver.resolve(Leaf.self)) }.scope(.application)
            let store: AsyncStore = await Resolver.withRoot(mocks) {
                await Resolver.resolveAsync()
            }
            #expect(store.leaf === mockLeaf)
        }
    
        /// Built once, without blocking a thread, while every job and timer
        /// of the global executor runs on one thread and the factories await
        /// sleeps, yields and child tasks: in a child process that installs
        /// the runtime's executor hooks (ResolverOneThreadProbe).
        @Test func buildOnceHoldsOnOneThread() throws {
            let run = try runProgram("ResolverOneThreadProbe", timeout: 60)
            #expect(!run.signaled && run.status == 0, "\(run.output)")
            #expect(run.output.contains("ONE-THREAD pools=1 runs=3 off-thread=0 consistent=true jobs>0=true"), "\(run.output)")
            // A reset during an async build (S1), on one thread too.
            #expect(run.output.contains("ONE-THREAD-RESET before=1 after=1 disjoint=true kept=true runs=2"), "\(run.output)")
        }
    
        /// As many concurrent `verify()` calls as the cooperative pool has
        /// threads, and one more, complete: on a pool of one thread that
        /// runs every job and timer and never grows (ResolverOneThreadProbe
        /// verify 2), two calls from its tasks, of async factories that
        /// sleep and await child tasks. Each call blocks the pool's thread;
        /// nothing its verification waits for may need that thread
        /// (DESIGN.md, A4). A sleep whose timer fired on the pool would hang
        /// the program, which its guard ends after 30 s (HUNG).
        @Test func concurrentVerifyCallsCompleteOnAPoolOfOneThread() throws {
            let run = try runProgram("ResolverOneThreadProbe", ["verify", "2"], timeout: 90)
            #expect(!run.signaled && run.status == 0, "\(run.output)")
            #expect(run.output.contains("ONE-THREAD-VERIFY calls=2 valid=2"), "\(run.output)")
        }

        /// `verify()` resolves on threads of its own: it runs async factories
        /// there (their nonisolated parts run on that thread), and lists
        /// `@MainActor` registrations as skipped instead of running them off
        /// the main actor; the graph marks both.
        @Test func verifySkipsAndTheGraphMarksIsolatedFactories() {
            let resolver = Resolver()
            resolver.register { Leaf() }
            resolver.register { @MainActor in SettingsViewModel() }
            resolver.register { await AsyncStore() }.scope(.application)
            let report = resolver.verify()
            #expect(report.isValid, "\(report)")
            #expect(Set(report.resolved) == ["Leaf", "AsyncStore"])
            #expect(report.skipped == ["SettingsViewModel"])
            let dot = resolver.graph(format: .dot)
            #expect(dot.contains("graph, @MainActor"), "\(dot)")
            #expect(dot.contains("application, async"), "\(dot)")
            #expect(!dot.contains("graph, @MainActor, async"))
        }
    
        /// Failures inside async factories are collected, not fatal: a
        /// missing dependency, a cycle through async factories, and an
        /// `.application` build task's failure; static resolves inside them
        /// use the verification's sandbox.
        @Test func verifyCollectsFailuresOfAsyncFactories() {
            final class NeedsMissing: Sendable { init(_ middle: Middle) {} }
            final class CycleA: Sendable { init(_ b: CycleB) {} }
            final class CycleB: Sendable { init(_ a: CycleA) {} }
            final class UsesStatic: Sendable { let leaf: Leaf; init(_ leaf: Leaf) { self.leaf = leaf } }
            let resolver = Resolver()
            resolver.register { Leaf() }
            resolver.register { r in NeedsMissing(await r.resolveAsync(Middle.self)) }
            resolver.register { r in CycleA(await r.resolveAsync()) }
            resolver.register { r in CycleB(await r.resolveAsync()) }.scope(.application)
            resolver.register { () async -> UsesStatic? in UsesStatic(Resolver.resolve(Leaf.self)) }
            let report = resolver.verify(timeout: 20)
            let failures = Dictionary(report.failures.map { ($0.service, $0.kind) }, uniquingKeysWith: { a, _ in a })
            #expect(failures["NeedsMissing"] == .missing, "\(report)")
            #expect(failures["CycleA"] == .cycle, "\(report)")
            #expect(failures["CycleB"] == .cycle, "\(report)")
            #expect(report.resolved.contains("UsesStatic"), "a static resolve inside it found the sandbox's Leaf: \(report)")
            #expect(report.resolved.contains("Leaf"))
        }
    }
}
