import Dispatch
// An app written against the original Resolver 1.5.1, unchanged, compiled
// in Swift 5 language mode. It checks its own behaviour and exits non-zero
// (with the failed check) if anything differs; the tests run it, and
// `make test` also runs a release build of it.
import Resolver

// MARK: Services

protocol XYZFetching { func getData() -> String }
protocol XYZUpdating { func update() -> Bool }
protocol XYZCombinedService: XYZFetching, XYZUpdating {}

class XYZService: XYZCombinedService {
    var session: XYZSessionService
    init(_ session: XYZSessionService) { self.session = session }
    func getData() -> String { "data" }
    func update() -> Bool { true }
}

class XYZSessionService { let id = Int.random(in: 0..<Int.max) }

class XYZUnregistered {}

class XYZNameService {
    let name: String
    init(_ name: String) { self.name = name }
}

class XYZArgumentService {
    let condition: Bool
    let name: String
    init(condition: Bool, name: String) { self.condition = condition; self.name = name }
}

class XYZViewModel {
    @Injected var fetcher: XYZFetching
    @Injected var updater: XYZUpdating
    @Injected(name: .fred) var fred: XYZNameService
    @LazyInjected var service: XYZService
    @WeakLazyInjected var session: XYZSessionService?
    @OptionalInjected var missing: XYZUnregistered?
}

struct ValueModel: Resolving {
    func fetch() -> String { resolver.resolve(XYZFetching.self).getData() }
}

extension Resolver.Name {
    static let fred = Self("Fred")
    static let barney = Self("Barney")
}

extension ResolverScope {
    static let session = ResolverScopeCache()
}

// MARK: Registration, as apps write it

extension Resolver: ResolverRegistering {
    public static func registerAllServices() {
        register { XYZSessionService() }.scope(.application)
        register { XYZService(resolve()) }
            .implements(XYZFetching.self)
            .implements(XYZUpdating.self)
            .scope(.shared)
        register(name: .fred) { XYZNameService("Fred") }
        register(name: .barney) { XYZNameService("Barney") }
        register { _, args in
            XYZArgumentService(condition: args("condition"), name: args("name"))
        }
        register(Int.self, name: "answer") { 42 }
        register { XYZService(resolve()) as XYZCombinedService }.scope(.session)
    }
}

// MARK: Checks

var failures = 0
func check(_ condition: @autoclosure () -> Bool, _ what: String, line: Int = #line) {
    if !condition() {
        failures += 1
        print("FAILED (line \(line)): \(what)")
    }
}

let model = XYZViewModel()
check(model.fetcher.getData() == "data", "@Injected protocol via implements")
check(model.updater.update(), "second implements")
check(model.fred.name == "Fred", "@Injected(name:)")
check(model.missing == nil, "@OptionalInjected of an unregistered service")
check(model.$service.isEmpty, "@LazyInjected starts empty")
let lazy = model.service
check(!model.$service.isEmpty && model.service === lazy, "@LazyInjected resolves once")
check(model.session != nil, "@WeakLazyInjected finds the application session")

let session1: XYZSessionService = Resolver.resolve()
let session2 = Resolver.resolve(XYZSessionService.self)
check(session1 === session2, ".application is one instance")
check(lazy.session === session1, "the service got the application session")

let barney: XYZNameService = Resolver.resolve(name: .barney)
check(barney.name == "Barney", "named constant")
check(Resolver.resolve(XYZNameService.self, name: "Fred").name == "Fred", "named literal")
check(Resolver.optional(XYZNameService.self) == nil, "no unnamed fallback")

let arguments: XYZArgumentService = Resolver.resolve(args: ["condition": true, "name": "Barney"])
check(arguments.condition && arguments.name == "Barney", "keyed arguments")
check(Resolver.resolve(Int.self, name: "answer") == 42, "explicit type")

let combined1: XYZCombinedService = Resolver.resolve()
let combined2: XYZCombinedService = Resolver.resolve()
check((combined1 as AnyObject) === (combined2 as AnyObject), "custom scope caches")
ResolverScope.session.reset()
let combined3: XYZCombinedService = Resolver.resolve()
check((combined1 as AnyObject) !== (combined3 as AnyObject), "custom scope reset")

check(ValueModel().fetch() == "data", "Resolving")

// Mocking: a child-chained root.
let mock = Resolver(child: .main)
class MockFetcher: XYZFetching { func getData() -> String { "mock" } }
mock.register { MockFetcher() as XYZFetching }
Resolver.root = mock
check(Resolver.resolve(XYZFetching.self).getData() == "mock", "root override")
check(XYZViewModel().fetcher.getData() == "mock", "wrappers read root")
Resolver.root = .main

// reset() and registerAllServices again.
Resolver.reset()
let session3: XYZSessionService = Resolver.resolve()
check(session3 !== session1, "reset drops .application")
check(Resolver.resolve(XYZNameService.self, name: .fred).name == "Fred", "registerAllServices ran again")

// The first resolve builds and stores, later ones read the cache: they
// must agree, by identity and by value, for every kind of service type.
class Fresh { let id = Int.random(in: 0..<Int.max) }
struct FreshValue: Equatable { let id = Int.random(in: 0..<Int.max); let text = "value" }
protocol FreshProtocol: AnyObject { var id: Int { get } }
extension Fresh: FreshProtocol {}
let container = Resolver()
container.register { Fresh() }.scope(.application)
container.register(name: "named") { Fresh() }.scope(.cached)
container.register { FreshValue() }.scope(.application)
container.register { Fresh() as FreshProtocol }.scope(.container)
let built: Fresh = container.resolve()
let read: Fresh = container.resolve()
check(built === read && built.id == read.id, "application class: first and cached resolve agree")
let builtNamed: Fresh = container.resolve(name: "named")
check(builtNamed === container.resolve(Fresh.self, name: "named"), "cached named: first and cached resolve agree")
let builtValue: FreshValue = container.resolve()
check(builtValue == container.resolve(FreshValue.self) && builtValue.text == "value", "application value type")
let builtProtocol: FreshProtocol = container.resolve()
check(builtProtocol === container.resolve(FreshProtocol.self), "container scope behind a protocol")
Resolver.register { Fresh() }.scope(.cached)
let builtStatic: Fresh = Resolver.resolve()
check(builtStatic === Resolver.resolve(Fresh.self), "static resolve: first and cached agree")
ResolverScope.cached.reset()

// The Swift concurrency spellings compile in a Swift 5 client too: a
// main-actor factory (resolved here on the main thread, which is the main
// actor) and an async factory resolved with resolveAsync (in a task: this
// top-level code is synchronous, and the main thread waits for it).
@MainActor final class SettingsModel { let title = "Settings" }
actor Store { let name: String; init(name: String) async { self.name = name } }
container.register { @MainActor in SettingsModel() }
container.register(name: "store") { _ in await Store(name: "store") }.scope(.application)
check(MainActor.assumeIsolated { container.resolve(SettingsModel.self).title } == "Settings", "@MainActor factory on the main actor")
let asyncDone = DispatchSemaphore(value: 0)
var storeName = ""
Task.detached {
    let store = await container.resolveAsync(Store.self, name: "store")
    storeName = store.name
    asyncDone.signal()
}
asyncDone.wait()
check(storeName == "store", "resolveAsync of an async factory")

if failures > 0 {
    print("Swift5App: \(failures) check(s) failed")
    exit(1)
}
print("Swift5App OK")

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
