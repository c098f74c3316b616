// The reference model of what each scope keeps, and for how long: plain
// dictionaries and weak references, no engine code. A lifetime program
// (LifetimeProgram.swift) runs step by step against the engine and against
// this model; after every step the two must agree on which instance each
// resolve returned, how many times each factory ran, and which instances
// are still alive (LifetimeModelTests.swift).
//
// What it models (Scopes.md, ArgumentsLifetimesAndCollections.md,
// CompileTimeCheckedKeys.md, and Resolver 1.5.1's contract):
//
// - A registration is found in the resolving container, then in its
//   children in the order added, depth first; a key's override likewise,
//   else the key's own registration. The factory is given the container the
//   top-level resolve was called on, and resolves its dependencies there.
// - `.unique` builds every time. `.graph` keeps one instance per registration
//   for one top-level resolve (`graphKeepsOneInstancePerRegistration`).
// - A caching scope keeps instances by service type and name, and one per
//   argument value for typed arguments (`register(arguments:)`, keys with
//   arguments); 1.5.1's untyped `args:` share one instance whatever the
//   arguments (the first caller's). `.application`, `.cached` and custom
//   `ResolverScopeCache`s keep it until a reset; `.shared` keeps it weakly,
//   while something else holds it; a `ResolverScopeTimeToLive` until its
//   life has passed since the build ended (and holds an expired one until a
//   resolve replaces it or a reset drops it); `.container` in the resolving
//   container's `cache`. A container made with `isolatedScopes: true` keeps
//   `.application`, `.cached` and `.shared` instances of its own when
//   resolves go through it. A nil result is never kept.
// - Re-registering replaces the factory, not what scopes keep (1.5.1), for
//   types and names; a key's override also drops what the key's scope keeps
//   where it is registered (`keyOverrideDropsInstances`), as Factory does.
// - `scope.reset()` drops everything the scope keeps; `scope.reset(T.self,
//   name:)` every instance of that type and name, every argument value
//   included; neither reaches `.graph`, `.unique` or `.container` (whose
//   instances are in each container's `cache`). `Resolver.reset()`: a new,
//   empty `main` that is also `root`, and `.application`, `.cached` and
//   `.shared` emptied; nothing else.
// - A build stores its instance only if its scope's generation is the one
//   it began in: a reset during a build keeps nothing (DESIGN.md, S1). A
//   single-threaded program cannot reset during a build, so this never
//   applies today.

/// Which scope a registration asks for.
enum ScopeChoice: Hashable, CaseIterable {
    case graph, unique, application, cached, shared, container
    /// The program's own `ResolverScopeCache`, `ResolverScopeShare` and
    /// `ResolverScopeTimeToLive` (on the program's `TestClock`).
    case customCache, customShare, timeToLive
    /// A key's override that keeps the scope the key declares (no `.scope`).
    case keyDeclared
}

/// Where a program registers and resolves a service.
enum SlotKind: Hashable, CaseIterable {
    /// `register(S3.self)`, resolved with `optional(S3.self)`.
    case unnamed
    /// `register(S3.self, name: "n")`.
    case named
    /// `register(S3.self, name: "t", arguments: Int.self)`, resolved with
    /// `optional(S3.self, name: "t", arguments: n)`.
    case typed
    /// 1.5.1's `register(S3.self, name: "a") { r, args in … }`, resolved
    /// with `optional(S3.self, name: "a", args: n)`.
    case args
    /// The keys `\.lifetimeS3A` and `\.lifetimeS3B`.
    case keyA, keyB
    /// The key `\.lifetimeS3Arg`, resolved with `arguments: n`.
    case keyArgument
}

/// A service a program registers or resolves: a type and how.
struct Slot: Hashable {
    let type: Int
    let kind: SlotKind

    /// The key of the pool, for a key's slot.
    var key: Int? {
        switch kind {
        case .keyA: return Lifetime.keyIndex(type: type, variant: 0)
        case .keyB: return Lifetime.keyIndex(type: type, variant: 1)
        case .keyArgument: return Lifetime.keyIndex(type: type, variant: 2)
        case .unnamed, .named, .typed, .args: return nil
        }
    }

    /// The registration's name; a key's stands for the name the library
    /// gives it (one no registration by type uses).
    var name: String? {
        switch kind {
        case .unnamed: return nil
        case .named: return "n"
        case .typed: return "t"
        case .args: return "a"
        case .keyA, .keyB, .keyArgument: return "\\." + Lifetime.keyName(key!)
        }
    }

    /// Whether a resolve passes an argument.
    var takesArgument: Bool {
        switch kind {
        case .typed, .args, .keyArgument: return true
        case .unnamed, .named, .keyA, .keyB: return false
        }
    }

    /// Whether caching scopes keep one instance per argument value (typed
    /// arguments), rather than one whatever the arguments (1.5.1's `args:`).
    var keepsOnePerArgument: Bool {
        kind == .typed || kind == .keyArgument
    }
}

/// A resolve: a slot, and the argument it passes if it takes one.
struct Reference: Hashable {
    let slot: Slot
    let argument: Int?
}

/// What a factory does: resolve these, in order, then make its instance
/// (or return nil).
struct Wiring: Hashable {
    var dependencies: [Reference]
    var returnsNil: Bool
}

/// The containers of a program, by what they are for.
enum ContainerRole: Hashable, CaseIterable {
    /// Independent programs: `base = Resolver(isolatedScopes: true)` and
    /// `top = Resolver(child: base, isolatedScopes: true)`.
    case base, top
    /// App-wide programs: `Resolver.main`, `mock = Resolver(child: .main)`
    /// and `iso = Resolver(child: .main, isolatedScopes: true)`.
    case main, mock, iso
}

final class LifetimeModel {
    // MARK: The switches

    /// Whether overriding a key (`register(\.key) { … }`) drops the
    /// instances kept for the key, as Factory's `register` does: every
    /// argument value's, in the key's scope (the override's before a
    /// `.scope(…)` chained on it) as seen from the container it is registered
    /// in (that container's own caches where it isolates them, its `cache`
    /// for `.container`). Registrations
    /// by type keep 1.5.1's rule: an override replaces the factory, not the
    /// instance.
    static let keyOverrideDropsInstances = true

    /// Whether `.graph` keeps one instance per registration in a top-level
    /// resolve whatever the arguments: a typed registration resolved twice
    /// with different arguments in one resolve gives the first instance
    /// twice. What the engine does; the docs say "one instance per
    /// registration" and promise one instance per argument list for the
    /// caching scopes only.
    static let graphKeepsOneInstancePerRegistration = true

    // MARK: State

    final class Node {
        let serial: Int
        let type: Int
        let registration: Int
        let container: Int
        let argument: Int?
        let dependencies: [Node?]

        init(serial: Int, type: Int, registration: Int, container: Int, argument: Int?, dependencies: [Node?]) {
            self.serial = serial
            self.type = type
            self.registration = registration
            self.container = container
            self.argument = argument
            self.dependencies = dependencies
        }
    }

    struct WeakNode {
        weak var node: Node?
    }

    enum ScopeKind {
        case cache, shared
        case timeToLive(nanoseconds: Int64)
    }

    struct CacheKey: Hashable {
        let type: Int
        let name: String?
        let argument: Int?
    }

    enum Entry {
        case strong(Node)
        case weak(WeakNode)
        case expiring(Node, until: Int64)
    }

    final class Scope {
        let kind: ScopeKind
        var entries: [CacheKey: Entry] = [:]
        var generation = 0
        init(kind: ScopeKind) { self.kind = kind }
    }

    struct Registration {
        let id: Int
        let slot: Slot
        /// Never `.keyDeclared`: an override that keeps the key's scope has it.
        let scope: ScopeChoice
        /// Nil for a key's own registration, whose factory reads `keyWiring`.
        let wiring: Wiring?
    }

    final class Container {
        let isolated: Bool
        var children: [Int]
        var registrations: [Slot: Registration] = [:]
        var cacheScope: Int
        /// Its own `.application`, `.cached` and `.shared`, when isolated.
        var own: [ScopeChoice: Int]

        init(isolated: Bool, children: [Int], cacheScope: Int, own: [ScopeChoice: Int]) {
            self.isolated = isolated
            self.children = children
            self.cacheScope = cacheScope
            self.own = own
        }
    }

    static let timeToLive: Int64 = 10_000_000_000

    /// The registration ids of the keys' own registrations.
    static func keyRegistrationID(_ key: Int) -> Int { 1_000_000 + key }

    private(set) var containers: [Container] = []
    private(set) var roles: [ContainerRole: Int] = [:]
    private(set) var root: Int?
    private var scopes: [Scope] = []
    /// The app-wide and the program's own scopes, by choice.
    private var programScopes: [ScopeChoice: Int] = [:]
    private var keyWiring: [Wiring]
    private var now: Int64 = 0
    private(set) var runs: [Int: Int] = [:]
    private var lastSerial = 0
    /// Every instance made, weakly: those still alive.
    private(set) var live: [Int: WeakNode] = [:]
    /// The held instances, by the handle of the resolve that returned them.
    private var held: [Int: Node] = [:]
    /// The graph instances of the top-level resolve under way.
    private var graph: [GraphKey: Node] = [:]

    struct GraphKey: Hashable {
        let registration: Int
        let argument: Int?
    }

    init(appWide: Bool, keyWiring: [Wiring]) {
        self.keyWiring = keyWiring
        for choice in [ScopeChoice.application, .cached, .customCache] { programScopes[choice] = newScope(.cache) }
        for choice in [ScopeChoice.shared, .customShare] { programScopes[choice] = newScope(.shared) }
        programScopes[.timeToLive] = newScope(.timeToLive(nanoseconds: Self.timeToLive))
        if appWide {
            roles[.main] = newContainer(isolated: false, children: [])
            root = roles[.main]
            remakeMocks()
        } else {
            roles[.base] = newContainer(isolated: true, children: [])
            roles[.top] = newContainer(isolated: true, children: [roles[.base]!])
        }
    }

    private func newScope(_ kind: ScopeKind) -> Int {
        scopes.append(Scope(kind: kind))
        return scopes.count - 1
    }

    private func newContainer(isolated: Bool, children: [Int]) -> Int {
        let own = isolated ? [ScopeChoice.application: newScope(.cache), .cached: newScope(.cache), .shared: newScope(.shared)] : [:]
        containers.append(Container(isolated: isolated, children: children, cacheScope: newScope(.cache), own: own))
        return containers.count - 1
    }

    // MARK: Steps

    func register(id: Int, in role: ContainerRole, slot: Slot, scope: ScopeChoice, wiring: Wiring) {
        let choice = scope == .keyDeclared ? Lifetime.declaredScope(ofKey: slot.key!) : scope
        let container = containers[roles[role]!]
        container.registrations[slot] = Registration(id: id, slot: slot, scope: choice, wiring: wiring)
        if Self.keyOverrideDropsInstances, let key = slot.key,
           let index = scopeIndex(of: Lifetime.declaredScope(ofKey: key), seenFrom: roles[role]!) {
            dropEntries(of: slot, in: scopes[index])
        }
    }

    /// The scope `choice` keeps instances in for a resolve from `container`:
    /// the container's own where it isolates it, its `cache`, or the
    /// program's scope; nil for the scopes that keep none.
    private func scopeIndex(of choice: ScopeChoice, seenFrom container: Int) -> Int? {
        switch choice {
        case .graph, .unique, .keyDeclared: return nil
        case .application, .cached, .shared: return containers[container].own[choice] ?? programScopes[choice]!
        case .container: return containers[container].cacheScope
        case .customCache, .customShare, .timeToLive: return programScopes[choice]!
        }
    }

    /// A top-level resolve from `container` (the one `resolve` is called
    /// on, or the root); `hold` keeps the instance under `handle`.
    func resolve(_ reference: Reference, from container: Int, handle: Int, hold: Bool) -> Node? {
        graph = [:]
        defer { graph = [:] }
        let node = resolve(reference, via: container)
        if hold, let node {
            held[handle] = node
        }
        return node
    }

    func drop(handle: Int) {
        held[handle] = nil
    }

    func dropAll() {
        held = [:]
    }

    /// The scope a reset step names, or nil for one that keeps nothing.
    private func scope(of target: ScopeTarget) -> Scope? {
        switch target {
        case .graph, .unique, .container: return nil
        case .application: return scopes[programScopes[.application]!]
        case .cached: return scopes[programScopes[.cached]!]
        case .shared: return scopes[programScopes[.shared]!]
        case .customCache: return scopes[programScopes[.customCache]!]
        case .customShare: return scopes[programScopes[.customShare]!]
        case .timeToLive: return scopes[programScopes[.timeToLive]!]
        case .cacheOf(let role): return scopes[containers[roles[role]!].cacheScope]
        }
    }

    func reset(_ target: ScopeTarget) {
        guard let scope = scope(of: target) else { return }
        scope.entries = [:]
        scope.generation += 1
    }

    /// `scope.reset(T.self, name:)`, or `scope.reset(\.key)`, which also
    /// drops the key's instances wherever its scope keeps them for resolves
    /// from `root` (Factory's `reset(.scope)`).
    func reset(_ target: ScopeTarget, _ slot: Slot) {
        if let scope = scope(of: target) {
            dropEntries(of: slot, in: scope)
        }
        guard let key = slot.key, let root else { return }
        let choice = lookup(slot, in: root)?.scope ?? Lifetime.declaredScope(ofKey: key)
        if let index = scopeIndex(of: choice, seenFrom: root) {
            dropEntries(of: slot, in: scopes[index])
        }
    }

    private func dropEntries(of slot: Slot, in scope: Scope) {
        let before = scope.entries.count
        scope.entries = scope.entries.filter { !($0.key.type == slot.type && $0.key.name == slot.name) }
        if scope.entries.count != before {
            scope.generation += 1
        }
    }

    func advanceClock(seconds: Int) {
        now += Int64(seconds) * 1_000_000_000
    }

    func rewire(key: Int, _ wiring: Wiring) {
        keyWiring[key] = wiring
    }

    /// `container.cache = ResolverScopeCache()`: the old cache goes, with
    /// what it keeps.
    func replaceCache(of role: ContainerRole) {
        let container = containers[roles[role]!]
        scopes[container.cacheScope].entries = [:]
        container.cacheScope = newScope(.cache)
    }

    /// `Resolver.reset()`.
    func resetEverything() {
        roles[.main] = newContainer(isolated: false, children: [])
        root = roles[.main]
        for choice in [ScopeChoice.application, .cached, .shared] {
            scopes[programScopes[choice]!].entries = [:]
            scopes[programScopes[choice]!].generation += 1
        }
    }

    func setRoot(_ role: ContainerRole) {
        root = roles[role]
    }

    /// `mock = Resolver(child: .main)`, `iso = Resolver(child: .main, isolatedScopes: true)`.
    func remakeMocks() {
        let main = roles[.main]!
        roles[.mock] = newContainer(isolated: false, children: [main])
        roles[.iso] = newContainer(isolated: true, children: [main])
    }

    // MARK: Resolving

    private func lookup(_ slot: Slot, in container: Int) -> Registration? {
        if let found = containers[container].registrations[slot] {
            return found
        }
        for child in containers[container].children {
            if let found = lookup(slot, in: child) {
                return found
            }
        }
        return nil
    }

    private func resolve(_ reference: Reference, via container: Int) -> Node? {
        let slot = reference.slot
        guard let registration = lookup(slot, in: container) ?? slot.key.map({ key in
            Registration(id: Self.keyRegistrationID(key), slot: slot, scope: Lifetime.declaredScope(ofKey: key), wiring: nil)
        }) else {
            return nil
        }
        let scopeIndex: Int
        switch registration.scope {
        case .unique:
            return build(registration, reference, via: container)
        case .graph:
            let key = GraphKey(registration: registration.id,
                               argument: Self.graphKeepsOneInstancePerRegistration ? nil : reference.argument)
            if let found = graph[key] {
                return found
            }
            let made = build(registration, reference, via: container)
            graph[key] = made
            return made
        case .application, .cached, .shared:
            scopeIndex = containers[container].own[registration.scope] ?? programScopes[registration.scope]!
        case .container:
            scopeIndex = containers[container].cacheScope
        case .customCache, .customShare, .timeToLive:
            scopeIndex = programScopes[registration.scope]!
        case .keyDeclared:
            preconditionFailure("a registration's scope is never keyDeclared")
        }
        let scope = scopes[scopeIndex]
        let key = CacheKey(type: slot.type, name: slot.name, argument: slot.keepsOnePerArgument ? reference.argument : nil)
        if let entry = scope.entries[key], let found = liveNode(entry) {
            return found
        }
        let generation = scope.generation
        guard let made = build(registration, reference, via: container) else {
            return nil
        }
        if scope.generation == generation {
            switch scope.kind {
            case .cache: scope.entries[key] = .strong(made)
            case .shared: scope.entries[key] = .weak(WeakNode(node: made))
            case .timeToLive(let life): scope.entries[key] = .expiring(made, until: now + life)
            }
        }
        return made
    }

    private func liveNode(_ entry: Entry) -> Node? {
        switch entry {
        case .strong(let node): return node
        case .weak(let weak): return weak.node
        case .expiring(let node, let until): return now < until ? node : nil
        }
    }

    private func build(_ registration: Registration, _ reference: Reference, via container: Int) -> Node? {
        runs[registration.id, default: 0] += 1
        let wiring = registration.wiring ?? keyWiring[registration.slot.key!]
        let dependencies = wiring.dependencies.map { resolve($0, via: container) }
        if wiring.returnsNil {
            return nil
        }
        lastSerial += 1
        let node = Node(serial: lastSerial, type: reference.slot.type, registration: registration.id, container: container,
                        argument: reference.slot.takesArgument ? reference.argument : nil, dependencies: dependencies)
        live[lastSerial] = WeakNode(node: node)
        return node
    }

    /// The serials of the instances still alive (forgetting the others).
    func liveSerials() -> Set<Int> {
        live = live.filter { $0.value.node != nil }
        return Set(live.keys)
    }
}
