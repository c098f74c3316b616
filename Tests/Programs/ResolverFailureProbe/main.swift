// Stops in one of the ways a resolve can fail, chosen by the first argument,
// so that the tests can check the exit and the message. Prints
// PROBE-SURVIVED if it gets to the end. (Debug builds, as the tests build it,
// also stop on the internal checks it reaches with `@testable import`.)
import CRegistry
import Foundation
@testable import Resolver

final class Missing {}
final class Service {}
final class Leaf {}
final class Middle { init(_ missing: Missing) {} }
final class Top { init(_ middle: Middle) {} }
final class A { init(_ b: B) {} }
final class B { init(_ c: C) {} }
final class C { init(_ a: A) {} }
final class X { init(_ y: Y) {} }
final class Y { init(_ x: X) {} }
final class Node { let child: Node?; init(_ child: Node?) { self.child = child } }
@MainActor final class ViewModel { init() {} }
final class TypedService { init(_ id: Int, _ name: String) {} }
struct Settings { let verbose: Bool }
actor Store { init() async {} }
protocol Plugin {}
final class LoggingPlugin: Plugin {}
final class AsyncA: Sendable { init(_ b: AsyncB) {} }
final class AsyncB: Sendable { init(_ a: AsyncA) {} }

@globalActor actor PlayActor {
    static let shared = PlayActor()
}

@PlayActor final class PlayManager {
    init() {}
}

// Compile-time-checked keys (issue 38).
nonisolated(unsafe) var changingGetterRuns = 0

extension ResolverKeys {
    var probePromise: ResolverKey<Service> { .promised() }
    var probeStore: ResolverKey<Store> { ResolverKey { await Store() } }
    var probePlayer: ResolverKey<PlayManager> { ResolverKey { @PlayActor () async in PlayManager() } }
    var probeViewModel: ResolverKey<ViewModel> { ResolverKey { @MainActor in ViewModel() } }
    var probeTwiceHere: ResolverKey<Service> { ResolverKey(name: "probeTwice") { Service() } }
    var probeTwiceThere: ResolverKey<Service> { ResolverKey(name: "probeTwice") { Service() } }
    var probeChanging: ResolverKey<Service> {
        changingGetterRuns += 1
        return changingGetterRuns == 1 ? ResolverKey { Service() } : ResolverKey(name: "elsewhere") { Service() }
    }
    var probeCycleA: ResolverKey<A> { ResolverKey { r in A(r.resolve(\.probeCycleB)) } }
    var probeCycleB: ResolverKey<B> { ResolverKey { r in B(r.resolve(\.probeCycleC)) } }
    var probeCycleC: ResolverKey<C> { ResolverKey { r in C(r.resolve(\.probeCycleA)) } }
}

/// Async factories written in nonisolated code (closures written at the top
/// level would be isolated to the main actor, which the probe blocks).
func registerAsyncCycle(in resolver: Resolver, scope: ResolverScope) {
    resolver.register { r in AsyncA(await r.resolveAsync()) }.scope(scope)
    resolver.register { r in AsyncB(await r.resolveAsync()) }.scope(scope)
}

/// Runs `body` in a task and waits for it (the probe's top level is synchronous).
func runAsync(_ body: @escaping @Sendable () async -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        await body()
        done.signal()
    }
    if done.wait(timeout: .now() + 20) == .timedOut {
        print("PROBE-HUNG")
        exit(3)
    }
}

let resolver = Resolver()
let scenario = CommandLine.arguments.dropFirst().first ?? "none"

switch scenario {
case "missing":
    _ = resolver.resolve(Missing.self)
case "name-typo":
    resolver.register(name: "fred") { Service() }
    resolver.register(name: "barney") { Service() }
    _ = resolver.resolve(Service.self, name: "fredd")
case "named-but-only-unnamed":
    resolver.register { Service() }
    _ = resolver.resolve(Service.self, name: "fred")
case "optional-registered":
    resolver.register(Service?.self) { Service() }
    _ = resolver.resolve(Service.self)
case "asked-for-optional":
    resolver.register { Service() }
    _ = resolver.resolve(Service?.self)
case "factory-nil":
    resolver.register { nil as Service? }
    _ = resolver.resolve(Service.self)
case "missing-dependency":
    resolver.register { r in Top(r.resolve()) }
    resolver.register { r in Middle(r.resolve()) }
    _ = resolver.resolve(Top.self)
case "wrong-argument-type":
    resolver.register { _, args in args() as Int }
    _ = resolver.resolve(Int.self, args: "seven")
case "missing-keyed-argument":
    resolver.register { _, args in args("id") as Int }
    _ = resolver.resolve(Int.self, args: ["name": "x"])
case "wrong-keyed-argument":
    resolver.register { _, args in args("id") as Int }
    _ = resolver.resolve(Int.self, args: ["id": "7"])
case "wrong-lone-argument-type":
    resolver.register { _, args in args("") as Int }
    _ = resolver.resolve(Int.self, args: "seven")
case "no-arguments":
    resolver.register { _, args in args("id") as Int }
    _ = resolver.resolve(Int.self)
case "cycle":
    resolver.register { r in A(r.resolve()) }
    resolver.register { r in B(r.resolve()) }
    resolver.register { r in C(r.resolve()) }
    _ = resolver.resolve(A.self)
case "named-cycle":
    resolver.register(name: "first") { r in A(r.resolve()) }
    resolver.register { r in B(C(r.resolve(A.self, name: "first"))) }
    _ = resolver.resolve(A.self, name: "first")
case "application-cycle":
    resolver.register { r in X(r.resolve()) }.scope(.application)
    resolver.register { r in Y(r.resolve()) }.scope(.application)
    _ = resolver.resolve(X.self)
case "cross-thread-cycle":
    let started = DispatchSemaphore(value: 0)
    resolver.register { r -> X in started.signal(); usleep(200_000); return X(r.resolve()) }.scope(.application)
    resolver.register { r -> Y in started.signal(); usleep(200_000); return Y(r.resolve()) }.scope(.application)
    Thread.detachNewThread { _ = resolver.resolve(Y.self) }
    _ = resolver.resolve(X.self)
    sleep(5)
case "runaway-recursion":
    resolver.register { r, args in Node(r.resolve(Node.self, args: (args() as Int) + 1)) }
    _ = resolver.resolve(Node.self, args: 0)
case "child-cycle":
    let child = Resolver()
    resolver.add(child: child)
    child.add(child: resolver)
case "main-actor-off-main":
    resolver.register { @MainActor in ViewModel() }
    Thread.detachNewThread { _ = resolver.resolve(ViewModel.self) }
    sleep(5)
case "main-actor-off-main-named":
    resolver.register(name: "settings") { @MainActor in ViewModel() }.scope(.application)
    runAsync { _ = resolver.resolve(ViewModel.self, name: "settings") }
case "async-factory-sync-resolve":
    resolver.register { await Store() }
    _ = resolver.resolve(Store.self)
case "async-cycle":
    registerAsyncCycle(in: resolver, scope: .graph)
    runAsync { _ = await resolver.resolveAsync(AsyncA.self) }
case "async-application-cycle":
    registerAsyncCycle(in: resolver, scope: .application)
    runAsync { _ = await resolver.resolveAsync(AsyncA.self) }
case "typed-wrong-types":
    resolver.register(arguments: Int.self, String.self) { _, id, name in TypedService(id, name) }
    _ = resolver.resolve(TypedService.self, arguments: "ada")
case "typed-wrong-types-past-the-path":
    // A registration's factory called past the resolve path (as a custom scope
    // may call it): the list is checked there too, and the message names the registration.
    let options = resolver.register(name: "primary", arguments: Int.self, String.self) { _, id, name in TypedService(id, name) }
    _ = options.registration.instantiate(resolver: resolver, args: "ada")
case "typed-wrong-types-through-a-scope":
    // A built-in scope's resolve(registration:resolver:args:), which custom code may call.
    let options = resolver.register(name: "primary", arguments: Int.self, String.self) { _, id, name in TypedService(id, name) }
    _ = ResolverScope.unique.resolve(registration: options.registration, resolver: resolver, args: "ada")
case "typed-wrong-types-through-its-registration":
    let options = resolver.register(name: "primary", arguments: Int.self, String.self) { _, id, name in TypedService(id, name) }
    _ = options.registration.resolve(resolver: resolver, args: nil)
case "typed-none-passed":
    resolver.register(arguments: Int.self, String.self) { _, id, name in TypedService(id, name) }
    _ = resolver.resolve(TypedService.self)
case "typed-args-passed":
    resolver.register(arguments: Int.self, String.self) { _, id, name in TypedService(id, name) }
    _ = resolver.resolve(TypedService.self, args: 42)
case "typed-passed-to-untyped":
    resolver.register { TypedService(1, "a") }
    _ = resolver.resolve(TypedService.self, arguments: 1)
case "typed-not-hashable-cached":
    resolver.register(arguments: Settings.self) { _, _ in Service() }.scope(.application)
case "list-missing":
    // Elements are added with register(into:); a registration of the element type is not one.
    resolver.register { LoggingPlugin() as Plugin }
    _ = resolver.resolve([Plugin].self)
case "list-cycle":
    resolver.register(into: [Plugin].self) { LoggingPlugin() }
    resolver.register(into: [Plugin].self) { r in _ = r.resolve([Plugin].self); return LoggingPlugin() }
    _ = resolver.resolve([Plugin].self)
case "unlocked-table-write":
    // A `_locked` C call without the table's mutex (DESIGN.md, L1).
    let mutex = crg_mutex_create()
    var options = crg_options(capacity: 0, mutex: mutex, allocator: nil, release: nil, release_context: nil)
    var table: OpaquePointer?
    _ = crg_create(&table, &options)
    var key = crg_key_unnamed(42)
    _ = crg_put_locked(table, &key, UnsafeMutableRawPointer(bitPattern: 8), nil)
case "unlocked-scope-reset":
    // A `…Locked` function of the engine without the registry mutex.
    ResolverScope.cached.resetLocked()
case "key-promise":
    _ = resolver.resolve(\.probePromise)
case "key-async-sync-resolve":
    _ = resolver.resolve(\.probeStore)
case "key-global-actor-sync-resolve":
    _ = resolver.resolve(\.probePlayer)
case "key-main-actor-off-main":
    Thread.detachNewThread { _ = resolver.resolve(\.probeViewModel) }
    sleep(5)
case "key-two-declarations":
    // From another container: this thread's cache would answer the same
    // container, service and name without a lookup.
    _ = resolver.resolve(\.probeTwiceHere)
    _ = Resolver().resolve(\.probeTwiceThere)
case "key-getter-changes":
    _ = resolver.resolve(\.probeChanging)
case "key-cycle":
    _ = resolver.resolve(\.probeCycleA)
case "cycle-broken":
    final class P { let q: Q; init(_ q: Q) { self.q = q } }
    final class Q { let r: R; init(_ r: R) { self.r = r } }
    final class R { weak var p: P? }
    resolver.register { r in P(r.resolve()) }.resolveProperties { r, p in r.resolve(R.self).p = p }
    resolver.register { r in Q(r.resolve()) }
    resolver.register { R() }
    let p: P = resolver.resolve()
    print("cycle broken: \(p.q.r.p === p)")
default:
    break
}
print("PROBE-SURVIVED")
