import Foundation
import Resolver
import ResolverTestSupport
import Testing

// Issue 42, part 3: two threads resolving, holding and releasing one graph
// of `.shared` services over a `.cached` and an `.application` one, without
// a model. What is checkable whatever the threads' interleaving:
//
// - A `.shared` service is built only when no instance of it is held: a
//   thread registers a hold (a ticket) for an instance after its resolve
//   returned it, and withdraws the ticket before letting go of it, so while
//   a ticket is out its instance is alive and held, and the scope must
//   return it (it was stored when built: builds are once per key, and
//   nothing resets the scope here). A factory that runs while a ticket of
//   its service is out made a second instance beside a held one.
// - A thread that holds an instance and resolves the service again gets
//   that instance.
// - `.cached` and `.application` services are built once, and so is a
//   `.shared` one that a cached service holds.
// - Nothing outlives its last holder: the threads play in phases, and at
//   the end of each both let go of everything and wait for each other; then
//   every `.shared` instance nothing cached holds is released (after the
//   grace of DESIGN.md, "Memory reclamation": the engine releases what it
//   retired once the read sections open at the time have ended), and the
//   next phase builds the graph again.

final class ThreadedStore: @unchecked Sendable {
    let serial = Serial.next()
}

final class ThreadedService: @unchecked Sendable {
    let serial = Serial.next()
    let store: ThreadedStore
    let config: ThreadedConfig
    init(store: ThreadedStore, config: ThreadedConfig) {
        self.store = store
        self.config = config
    }
}

final class ThreadedTop: @unchecked Sendable {
    let serial = Serial.next()
    let service: ThreadedService
    let logger: ThreadedLogger
    init(service: ThreadedService, logger: ThreadedLogger) {
        self.service = service
        self.logger = logger
    }
}

/// `.cached`, holding a `.shared` service for good.
final class ThreadedConfig: @unchecked Sendable {
    let serial = Serial.next()
    let pinned: ThreadedPinned
    init(pinned: ThreadedPinned) { self.pinned = pinned }
}

final class ThreadedLogger: @unchecked Sendable {
    let serial = Serial.next()
}

/// `.shared`, held by the cached `ThreadedConfig`: built once.
final class ThreadedPinned: @unchecked Sendable {
    let serial = Serial.next()
}

/// What the two threads hold, what the factories built, and what broke.
final class SharedCensus: Sendable {
    /// The `.shared` services, as the census names them.
    enum Service: String, CaseIterable {
        case store, service, top, pinned
    }

    private final class WeakObject {
        weak var object: AnyObject?
        init(_ object: AnyObject) { self.object = object }
    }

    private struct State {
        /// The tickets out, per service: ticket → the serial held.
        var holds: [Service: [Int: Int]] = [:]
        var lastTicket = 0
        var builds: [String: Int] = [:]
        var violations: [String] = []
        /// Every `.shared` instance built but the pinned one.
        var made: [WeakObject] = []
    }

    private let state = Locked(State())

    /// A factory of `service` built `object`.
    func built(_ service: Service, serial: Int, _ object: AnyObject) {
        state.withLock { state in
            state.builds[service.rawValue, default: 0] += 1
            if let (ticket, held) = state.holds[service]?.first, state.violations.count < 20 {
                state.violations.append("\(service) #\(serial) was built while #\(held) was held (ticket \(ticket))")
            }
            if service != .pinned {
                state.made.append(WeakObject(object))
            }
        }
    }

    /// A factory of a `.cached` or `.application` service ran.
    func built(_ name: String) {
        state.withLock { $0.builds[name, default: 0] += 1 }
    }

    /// A thread holds `serial` of `service`: a ticket to give back before it
    /// lets go.
    func hold(_ service: Service, _ serial: Int) -> Int {
        state.withLock { state in
            state.lastTicket += 1
            state.holds[service, default: [:]][state.lastTicket] = serial
            return state.lastTicket
        }
    }

    func release(_ service: Service, ticket: Int) {
        state.withLock { _ = $0.holds[service]?.removeValue(forKey: ticket) }
    }

    /// Records what broke (the first 20 things).
    func violation(_ message: String) {
        state.withLock { state in
            if state.violations.count < 20 { state.violations.append(message) }
        }
    }

    var violations: [String] { state.withLock { $0.violations } }

    func builds(_ name: String) -> Int { state.withLock { $0.builds[name] ?? 0 } }

    /// How many of the `.shared` instances built (but the pinned one) are alive.
    var alive: Int { state.withLock { $0.made.filter { $0.object != nil }.count } }

    /// Registers the graph in `container` (nil: `main`, through the static API).
    func register(in container: Resolver?) {
        let registrar = container.map(\.register)
        func register<Service>(_ scope: ResolverScope, _ factory: @escaping (Resolver) -> Service) {
            if let registrar {
                registrar(Service.self, factory: factory).scope(scope)
            } else {
                Resolver.register(Service.self, factory: factory).scope(scope)
            }
        }
        register(.shared) { _ in
            let store = ThreadedStore()
            self.built(.store, serial: store.serial, store)
            return store
        }
        register(.shared) { r in
            let service = ThreadedService(store: r.resolve(), config: r.resolve())
            self.built(.service, serial: service.serial, service)
            return service
        }
        register(.shared) { r in
            let top = ThreadedTop(service: r.resolve(), logger: r.resolve())
            self.built(.top, serial: top.serial, top)
            return top
        }
        register(.cached) { r in
            self.built("config")
            return ThreadedConfig(pinned: r.resolve())
        }
        register(.application) { _ in
            self.built("logger")
            return ThreadedLogger()
        }
        register(.shared) { _ in
            let pinned = ThreadedPinned()
            self.built(.pinned, serial: pinned.serial, pinned)
            return pinned
        }
    }

    /// One thread's part: `rounds` random resolves (held for a while or let
    /// go at once) and releases, from `container` (nil: the root), checking
    /// that a resolve of a service the thread holds returns that instance.
    func play(rounds: Int, seed: UInt64, from container: Resolver?) {
        /// A held instance and the tickets of the `.shared` instances it holds.
        struct Holding {
            let object: AnyObject
            let held: [(service: Service, serial: Int, object: AnyObject, ticket: Int)]
        }
        var random = SplitMix64(seed: seed)
        var holdings: [Holding] = []
        func resolve<T>(_ type: T.Type) -> T {
            container?.resolve(T.self) ?? Resolver.resolve(T.self)
        }
        func letGo(_ index: Int) {
            let holding = holdings.remove(at: index)
            for held in holding.held { release(held.service, ticket: held.ticket) }
        }
        /// The `.shared` instances `object` holds (itself included).
        func sharedParts(of object: AnyObject) -> [(Service, Int, AnyObject)] {
            switch object {
            case let top as ThreadedTop: [(.top, top.serial, top)] + sharedParts(of: top.service)
            case let service as ThreadedService: [(.service, service.serial, service), (.store, service.store.serial, service.store)]
            case let store as ThreadedStore: [(.store, store.serial, store)]
            default: []
            }
        }
        for _ in 0..<rounds {
            let roll = Int.random(in: 0..<10, using: &random)
            if roll >= 6, !holdings.isEmpty {
                letGo(roll == 9 ? holdings.count - 1 : Int.random(in: 0..<holdings.count, using: &random))
                continue
            }
            let object: AnyObject = switch Int.random(in: 0..<3, using: &random) {
            case 0: resolve(ThreadedTop.self)
            case 1: resolve(ThreadedService.self)
            default: resolve(ThreadedStore.self)
            }
            let parts = sharedParts(of: object)
            for (service, serial, part) in parts {
                for holding in holdings {
                    for held in holding.held where held.service == service && held.object !== part {
                        violation("a resolve gave \(service) #\(serial) to a thread that holds #\(held.serial)")
                    }
                }
            }
            if roll < 4 {
                holdings.append(Holding(object: object, held: parts.map { service, serial, part in
                    (service, serial, part, hold(service, serial))
                }))
            }
        }
        while !holdings.isEmpty { letGo(holdings.count - 1) }
    }
}

/// Where two threads wait for each other.
private final class Barrier: Sendable {
    private let arrived = Locked(0)
    private let parties: Int

    init(parties: Int) { self.parties = parties }

    /// Returns once every party has called it as often as this one has.
    func arrive() {
        let turn = arrived.withLock { count -> Int in
            count += 1
            return (count - 1) / parties
        }
        while arrived.withLock({ $0 }) < (turn + 1) * parties { usleep(50) }
    }
}

/// Runs two threads over the graph registered in `container` (nil: `main`),
/// in phases: in each, both threads play `rounds`, let go of everything and
/// wait for each other; then no `.shared` instance but the pinned one may be
/// alive, and the next phase builds the graph again.
private func expectSharedLifetimes(in container: Resolver?, phases: Int, rounds: Int) {
    let census = SharedCensus()
    census.register(in: container)
    let barrier = Barrier(parties: 2)
    let outlived = Locked<[Int]>([])
    runOnThreads(2) { thread in
        for phase in 0..<phases {
            census.play(rounds: rounds, seed: UInt64(phase) << 8 | UInt64(thread), from: container)
            barrier.arrive()
            if thread == 0 && !released({ census.alive == 0 }) {
                outlived.withLock { $0.append(phase) }
            }
            barrier.arrive()
        }
    }
    #expect(census.violations.isEmpty, "\(census.violations.prefix(5))")
    #expect(outlived.withLock { $0 }.isEmpty, "shared instances outlived their last holder after phases \(outlived.withLock { $0 })")
    #expect(census.builds("config") == 1 && census.builds("logger") == 1, "cached and application services built once")
    #expect(census.builds(SharedCensus.Service.pinned.rawValue) == 1, "a shared service a cached one holds is built once")
    #expect(census.builds(SharedCensus.Service.store.rawValue) >= phases, "each phase builds the graph again")
}

extension IndependentTests {
    /// Two threads on a container with isolated scopes.
    @Suite struct SharedLifetimeThreads {
        @Test func aSharedServiceIsNeverBuiltBesideAHeldInstanceAndGoesWithItsLastHolder() {
            expectSharedLifetimes(in: Resolver(isolatedScopes: true), phases: 50, rounds: 200)
        }
    }
}

extension ResolverTests {
    /// Two threads on `main` and the app-wide `.shared`, `.cached` and
    /// `.application`.
    @Suite struct SharedLifetimeThreadsAppWide {
        @Test func theAppWideSharedScopeNeverBuildsBesideAHeldInstance() {
            Resolver.reset()
            defer { Resolver.reset() }
            expectSharedLifetimes(in: nil, phases: 50, rounds: 200)
        }
    }
}
