import CRegistry
import Resolver
import ResolverTestSupport

/// Where a lifetime program and the model first disagreed.
struct LifetimeDivergence: Error, CustomStringConvertible {
    /// The index of the step in the program.
    let step: Int
    let message: String

    var description: String { "step \(step): \(message)" }
}

/// Runs a lifetime program against the engine and `LifetimeModel` in
/// lockstep, and compares them after every step: the instance each resolve
/// returned (its serial number, registration, resolving container and
/// argument, and those of its dependencies), how many times each factory
/// ran, and which instances are alive.
///
/// The engine releases what a reset or a replaced entry drops once no read
/// section that was open then is still open (DESIGN.md, "Memory
/// reclamation"), and tests of other suites may be resolving meanwhile: an
/// instance the model has released may stay alive in the engine for that
/// long (`grace`, collecting meanwhile), never longer; and the engine never
/// releases an instance the model still holds.
final class LifetimeRunner {
    /// The runner whose program made a container, for the keys' own
    /// factories, which are process-wide and find their program through the
    /// container they are given.
    private struct Owner {
        weak var runner: LifetimeRunner?
    }

    private static let owners = Locked<[ObjectIdentifier: Owner]>([:])

    private final class WeakNode {
        weak var node: LifetimeNode?
        init(_ node: LifetimeNode) { self.node = node }
    }

    let program: LifetimeProgram
    private let model: LifetimeModel
    /// By the model's container indexes.
    private var containers: [Resolver] = []
    private let clock = TestClock()
    private let customCache = ResolverScopeCache()
    private let customShare = ResolverScopeShare()
    private let timeToLive: ResolverScopeTimeToLive
    private var keyWiring: [Wiring]
    private var held: [Int: LifetimeNode] = [:]
    private var runs: [Int: Int] = [:]
    private var lastSerial = 0
    private var live: [Int: WeakNode] = [:]
    /// How long an instance the model released may stay alive.
    private let grace: Double

    private init(_ program: LifetimeProgram, grace: Double) {
        self.program = program
        self.grace = grace
        model = LifetimeModel(appWide: program.appWide, keyWiring: program.keyWiring)
        keyWiring = program.keyWiring
        timeToLive = ResolverScopeTimeToLive(.nanoseconds(LifetimeModel.timeToLive), clock: clock)
        if program.appWide {
            Resolver.reset()
            adopt(Resolver.main)
            remakeMocks()
        } else {
            let base = Resolver(isolatedScopes: true)
            adopt(base)
            adopt(Resolver(child: base, isolatedScopes: true))
        }
    }

    deinit {
        let mine = containers.map(ObjectIdentifier.init)
        Self.owners.withLock { owners in
            for container in mine { owners[container] = nil }
        }
    }

    /// Runs `program`; nil when the engine and the model agreed throughout.
    /// An app-wide program starts and ends with `Resolver.reset()`.
    static func run(_ program: LifetimeProgram, grace: Double = 10) async -> LifetimeDivergence? {
        let divergence = await LifetimeRunner(program, grace: grace).run()
        if program.appWide {
            Resolver.reset()
        }
        return divergence
    }

    private func run() async -> LifetimeDivergence? {
        for (index, step) in program.steps.enumerated() {
            if let message = await perform(step) ?? checkRuns() ?? checkLiveness() {
                return LifetimeDivergence(step: index, message: "`\(LifetimeProgram.describe(step))`: \(message)")
            }
        }
        return nil
    }

    // MARK: Containers

    private func adopt(_ container: Resolver) {
        containers.append(container)
        Self.owners.withLock { $0[ObjectIdentifier(container)] = Owner(runner: self) }
    }

    private func container(_ role: ContainerRole) -> Resolver {
        containers[model.roles[role]!]
    }

    private func remakeMocks() {
        adopt(Resolver(child: .main))
        adopt(Resolver(child: .main, isolatedScopes: true))
    }

    // MARK: Steps

    /// Performs `step` on the engine and the model; what differed, if anything.
    private func perform(_ step: LifetimeStep) async -> String? {
        switch step {
        case .register(let id, let role, let slot, let scope, let wiring):
            register(id: id, in: role, slot: slot, scope: scope, wiring: wiring)
            model.register(id: id, in: role, slot: slot, scope: scope, wiring: wiring)
        case .resolve(let handle, let site, let reference, let async, let hold):
            return await resolve(handle: handle, at: site, reference, async: async, hold: hold)
        case .drop(let handle):
            held[handle] = nil
            model.drop(handle: handle)
        case .dropAll:
            held = [:]
            model.dropAll()
        case .reset(let target):
            scope(target).reset()
            model.reset(target)
        case .resetOne(let target, let slot):
            if let key = slot.key {
                Lifetime.keys[key].reset(in: scope(target))
            } else {
                Lifetime.types[slot.type].reset(in: scope(target), name: slot.resolverName)
            }
            model.reset(target, slot)
        case .advanceClock(let seconds):
            clock.advance(by: .seconds(seconds))
            model.advanceClock(seconds: seconds)
        case .rewire(let key, let wiring):
            keyWiring[key] = wiring
            model.rewire(key: key, wiring)
        case .replaceCache(let role):
            container(role).cache = ResolverScopeCache()
            model.replaceCache(of: role)
        case .resetEverything:
            Resolver.reset()
            model.resetEverything()
            adopt(Resolver.main)
        case .setRoot(let role):
            Resolver.root = container(role)
            model.setRoot(role)
        case .remakeMocks:
            model.remakeMocks()
            remakeMocks()
        }
        return nil
    }

    private func register(id: Int, in role: ContainerRole, slot: Slot, scope choice: ScopeChoice, wiring: Wiring) {
        let target: Resolver? = role == .main ? nil : container(role)
        let scope = engineScope(choice)
        let type = slot.type
        let name = slot.resolverName
        switch slot.kind {
        case .unnamed, .named:
            Lifetime.types[type].register(in: target, name: name, scope: scope ?? .graph) { [weak self] r in
                self?.build(registration: id, type: type, wiring: wiring, resolver: r, argument: nil)
            }
        case .typed:
            Lifetime.types[type].registerTyped(in: target, name: name, scope: scope ?? .graph) { [weak self] r, n in
                self?.build(registration: id, type: type, wiring: wiring, resolver: r, argument: n)
            }
        case .args:
            Lifetime.types[type].registerWithArgs(in: target, name: name, scope: scope ?? .graph) { [weak self] r, n in
                self?.build(registration: id, type: type, wiring: wiring, resolver: r, argument: n)
            }
        case .keyA, .keyB, .keyArgument:
            Lifetime.keys[slot.key!].override(in: target, scope: scope) { [weak self] r, n in
                self?.build(registration: id, type: type, wiring: wiring, resolver: r, argument: n)
                    ?? Self.orphan(type: type, argument: n)
            }
        }
    }

    private func engineScope(_ choice: ScopeChoice) -> ResolverScope? {
        switch choice {
        case .graph: return .graph
        case .unique: return .unique
        case .application: return .application
        case .cached: return .cached
        case .shared: return .shared
        case .container: return .container
        case .customCache: return customCache
        case .customShare: return customShare
        case .timeToLive: return timeToLive
        case .keyDeclared: return nil
        }
    }

    private func scope(_ target: ScopeTarget) -> ResolverScope {
        switch target {
        case .graph: return .graph
        case .unique: return .unique
        case .container: return .container
        case .application: return .application
        case .cached: return .cached
        case .shared: return .shared
        case .customCache: return customCache
        case .customShare: return customShare
        case .timeToLive: return timeToLive
        case .cacheOf(let role): return container(role).cache
        }
    }

    // MARK: Factories

    /// What every factory of the program does: count the run, resolve the
    /// dependencies from the container it was given, make the instance.
    private func build(registration: Int, type: Int, wiring: Wiring, resolver: Resolver, argument: Int?) -> LifetimeNode? {
        runs[registration, default: 0] += 1
        let dependencies = wiring.dependencies.map { resolve($0, from: resolver) }
        if wiring.returnsNil {
            return nil
        }
        lastSerial += 1
        let node = Lifetime.types[type].init(serial: lastSerial, registration: registration,
                                             container: containers.firstIndex { $0 === resolver } ?? -1,
                                             argument: argument, dependencies: dependencies)
        live[lastSerial] = WeakNode(node)
        return node
    }

    /// A key's own factory, given `resolver`: the program that owns it builds.
    static func buildKeyDefault<Service: LifetimeService>(_: Service.Type, key: Int, resolver: Resolver,
                                                          argument: Int?) -> Service {
        let owner = owners.withLock { $0[ObjectIdentifier(resolver)] }
        guard let runner = owner?.runner,
              let made = runner.build(registration: LifetimeModel.keyRegistrationID(key), type: key / 3,
                                      wiring: runner.keyWiring[key], resolver: resolver, argument: argument) else {
            // A container of no program (a verification's sandbox, say).
            return Service.cast(orphan(type: key / 3, argument: argument))
        }
        return Service.cast(made)
    }

    /// What a factory makes when no program is there to ask: never what
    /// the model expects.
    private static func orphan(type: Int, argument: Int?) -> LifetimeNode {
        Lifetime.types[type].init(serial: -1, registration: -1, container: -1, argument: argument, dependencies: [])
    }

    /// A resolve of `reference` from `container` (nil: the root).
    private func resolve(_ reference: Reference, from container: Resolver?) -> LifetimeNode? {
        let slot = reference.slot
        if let key = slot.key {
            let key = Lifetime.keys[key]
            return container.map { key.resolve($0, reference.argument) } ?? key.resolveFromRoot(reference.argument)
        }
        return Lifetime.types[slot.type].optional(from: container, name: slot.resolverName,
                                                  typed: slot.kind == .typed, argument: reference.argument)
    }

    private func resolveAsync(_ reference: Reference, from container: Resolver?) async -> LifetimeNode? {
        let slot = reference.slot
        if let key = slot.key {
            let key = Lifetime.keys[key]
            if let container {
                return await key.resolveAsync(container, reference.argument)
            }
            return await key.resolveAsyncFromRoot(reference.argument)
        }
        return await Lifetime.types[slot.type].optionalAsync(from: container, name: slot.resolverName,
                                                             typed: slot.kind == .typed, argument: reference.argument)
    }

    /// `Resolver.withRoot(container) { Resolver.optional(…) }`, synchronous.
    private func resolveWithRoot(_ reference: Reference, _ container: Resolver) -> LifetimeNode? {
        Resolver.withRoot(container) { resolve(reference, from: nil) }
    }

    // MARK: Checks

    /// A top-level resolve, on the engine and the model; what differed.
    private func resolve(handle: Int, at site: ResolveSite, _ reference: Reference, async: Bool, hold: Bool) async -> String? {
        let made: LifetimeNode?
        let from: Int
        switch site {
        case .container(let role):
            from = model.roles[role]!
            made = async ? await resolveAsync(reference, from: container(role)) : resolve(reference, from: container(role))
        case .withRoot(let role):
            from = model.roles[role]!
            let root = container(role)
            made = async ? await Resolver.withRoot(root) { await resolveAsync(reference, from: nil) }
                         : resolveWithRoot(reference, root)
        case .root:
            from = model.root!
            made = async ? await resolveAsync(reference, from: nil) : resolve(reference, from: nil)
        }
        let expected = model.resolve(reference, from: from, handle: handle, hold: hold)
        if hold, let made {
            held[handle] = made
        }
        var seen = Set<Int>()
        guard let difference = difference(made, expected, seen: &seen) else {
            return nil
        }
        let returned = "the engine returned \(Self.describe(made)), the model \(Self.describe(expected))"
        return made?.serial == expected?.serial ? "\(returned); in their dependencies, \(difference)" : returned
    }

    /// Where an instance the engine made differs from the model's, if it
    /// does, dependencies included.
    private func difference(_ made: LifetimeNode?, _ expected: LifetimeModel.Node?, seen: inout Set<Int>) -> String? {
        guard let made, let expected else {
            return made == nil && expected == nil ? nil : "the engine has \(Self.describe(made)) where the model has \(Self.describe(expected))"
        }
        guard made.serial == expected.serial, Lifetime.types[expected.type] == type(of: made),
              made.registration == expected.registration, made.container == expected.container,
              made.argument == expected.argument, made.dependencies.count == expected.dependencies.count else {
            return "the engine has \(Self.describe(made)) where the model has \(Self.describe(expected))"
        }
        guard seen.insert(made.serial).inserted else {
            return nil
        }
        for (dependency, expectedDependency) in zip(made.dependencies, expected.dependencies) {
            if let found = difference(dependency, expectedDependency, seen: &seen) {
                return found
            }
        }
        return nil
    }

    static func describe(_ node: LifetimeNode?) -> String {
        guard let node else { return "nil" }
        return "#\(node.serial) \(type(of: node)) (registration \(node.registration), container \(node.container)"
            + (node.argument.map { ", argument \($0)" } ?? "") + ", dependencies "
            + node.dependencies.map { $0.map { "#\($0.serial)" } ?? "nil" }.joined(separator: ", ") + ")"
    }

    static func describe(_ node: LifetimeModel.Node?) -> String {
        guard let node else { return "nil" }
        return "#\(node.serial) S\(node.type) (registration \(node.registration), container \(node.container)"
            + (node.argument.map { ", argument \($0)" } ?? "") + ", dependencies "
            + node.dependencies.map { $0.map { "#\($0.serial)" } ?? "nil" }.joined(separator: ", ") + ")"
    }

    /// Whether every factory ran as often as the model says.
    private func checkRuns() -> String? {
        guard runs != model.runs else { return nil }
        let differing = Set(runs.keys).union(model.runs.keys).sorted().filter { runs[$0] != model.runs[$0] }
        return "factory runs differ: " + differing.map {
            "registration \($0) ran \(runs[$0] ?? 0) times, the model \(model.runs[$0] ?? 0)"
        }.joined(separator: "; ")
    }

    private func engineLiveSerials() -> Set<Int> {
        live = live.filter { $0.value.node != nil }
        return Set(live.keys)
    }

    /// Whether the instances alive are the model's: none released while
    /// the model holds it, none alive (past the grace) after the model let
    /// it go.
    private func checkLiveness() -> String? {
        let expected = model.liveSerials()
        let alive = engineLiveSerials()
        if alive == expected {
            return nil
        }
        let released = expected.subtracting(alive)
        if !released.isEmpty {
            return "the engine released \(released.sorted().map { "#\($0)" }.joined(separator: ", ")), which the model still holds"
        }
        var outliving = alive.subtracting(expected)
        let settled = eventually(within: grace) {
            _ = crg_collect()
            outliving = engineLiveSerials().subtracting(expected)
            return outliving.isEmpty
        }
        return settled ? nil : "\(outliving.sorted().map { "#\($0)" }.joined(separator: ", ")) outlived its last holder in the model"
    }
}

extension Slot {
    /// The name a registration or a resolve of the slot passes.
    var resolverName: Resolver.Name? {
        name.map { Resolver.Name($0) }
    }
}
