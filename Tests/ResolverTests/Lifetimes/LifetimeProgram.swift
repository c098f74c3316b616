// Lifetime programs: random, seeded sequences of registrations, resolves
// that hold their instances for a while, releases, re-registrations and
// resets, which LifetimeRunner runs against the engine and LifetimeModel;
// and the shrinker that makes a failing one short enough to read.

/// SplitMix64, as the C table's model test uses: a failing program fails
/// the same way every time.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A scope that a reset step names.
enum ScopeTarget: Hashable {
    /// The built-in scopes that keep nothing: their resets do nothing.
    case graph, unique, container
    /// The app-wide ones (app-wide programs only).
    case application, cached, shared
    case customCache, customShare, timeToLive
    /// A container's `cache`.
    case cacheOf(ContainerRole)
}

/// Where a top-level resolve is made.
enum ResolveSite: Hashable {
    /// `container.resolve(…)`.
    case container(ContainerRole)
    /// `Resolver.withRoot(container) { Resolver.resolve(…) }`.
    case withRoot(ContainerRole)
    /// `Resolver.resolve(…)` from the app-wide root (app-wide programs only).
    case root
}

enum LifetimeStep: Hashable {
    /// Registers (or, for a key, overrides) `slot` in a container; `id`
    /// names the registration in the program (its factory's runs are
    /// counted under it).
    case register(id: Int, in: ContainerRole, slot: Slot, scope: ScopeChoice, wiring: Wiring)
    /// A top-level resolve; `hold` keeps its instance under `handle` until
    /// a `drop` of it.
    case resolve(handle: Int, at: ResolveSite, reference: Reference, async: Bool, hold: Bool)
    case drop(handle: Int)
    case dropAll
    /// `scope.reset()`.
    case reset(ScopeTarget)
    /// `scope.reset(S3.self, name:)`, or `scope.reset(\.key)`.
    case resetOne(ScopeTarget, Slot)
    /// Moves the time-to-live scope's clock on.
    case advanceClock(seconds: Int)
    /// Changes what a key's own factory does (it reads the program's state).
    case rewire(key: Int, Wiring)
    /// `container.cache = ResolverScopeCache()`.
    case replaceCache(ContainerRole)
    /// `Resolver.reset()` (app-wide programs only).
    case resetEverything
    /// `Resolver.root = container` (app-wide programs only).
    case setRoot(ContainerRole)
    /// `mock` and `iso` made again over the current `main` (app-wide programs only).
    case remakeMocks
}

struct LifetimeProgram {
    /// The seed it was made from.
    let seed: UInt64
    /// Whether it uses the app-wide state (`Resolver.main`, `root`,
    /// `Resolver.reset()`, the app-wide `.application`, `.cached` and
    /// `.shared`), or only containers and scopes of its own.
    let appWide: Bool
    /// What each key's own factory does at the start.
    var keyWiring: [Wiring]
    var steps: [LifetimeStep]

    var roles: [ContainerRole] {
        appWide ? [.main, .mock, .iso] : [.base, .top]
    }
}

// MARK: - Making programs

extension LifetimeProgram {
    /// A random program of `count` steps.
    init(seed: UInt64, appWide: Bool, count: Int) {
        var random = SplitMix64(seed: seed)
        self.seed = seed
        self.appWide = appWide
        keyWiring = (0..<Lifetime.keys.count).map { key in
            Self.randomWiring(for: key / 3, returningNil: false, registered: [], using: &random)
        }
        steps = []
        var maker = Maker(appWide: appWide, roles: appWide ? [.main, .mock, .iso] : [.base, .top])
        for index in 0..<count {
            steps.append(maker.step(id: index, using: &random))
        }
    }

    /// Up to three dependencies on types of deeper levels, mostly ones
    /// registered somewhere.
    static func randomWiring(for type: Int, returningNil: Bool, registered: [Slot],
                             using random: inout SplitMix64) -> Wiring {
        let level = Lifetime.level(type)
        guard level < 3 else {
            return Wiring(dependencies: [], returnsNil: returningNil)
        }
        let deeper = registered.filter { Lifetime.level($0.type) > level }
        let count = Int.random(in: 0...3, using: &random)
        let dependencies = (0..<count).map { _ -> Reference in
            let slot: Slot
            if !deeper.isEmpty && Int.random(in: 0..<10, using: &random) < 7 {
                slot = deeper.randomElement(using: &random)!
            } else {
                let type = Int.random(in: (level + 1) * 2..<8, using: &random)
                slot = Slot(type: type, kind: SlotKind.allCases.randomElement(using: &random)!)
            }
            return reference(to: slot, using: &random)
        }
        return Wiring(dependencies: dependencies, returnsNil: returningNil)
    }

    static func reference(to slot: Slot, using random: inout SplitMix64) -> Reference {
        Reference(slot: slot, argument: slot.takesArgument ? Int.random(in: 0..<3, using: &random) : nil)
    }

    /// The generator's view of the program so far: what it registered and
    /// what it holds, to make likely steps likelier.
    private struct Maker {
        let appWide: Bool
        let roles: [ContainerRole]
        var registered: [Slot] = []
        var held: [Int] = []

        init(appWide: Bool, roles: [ContainerRole]) {
            self.appWide = appWide
            self.roles = roles
        }

        var scopeChoices: [ScopeChoice] {
            [.graph, .unique, .application, .cached, .shared, .container, .customCache, .customShare, .timeToLive]
        }

        var resetTargets: [ScopeTarget] {
            var targets: [ScopeTarget] = [.graph, .unique, .container, .customCache, .customShare, .timeToLive]
            targets += roles.map { .cacheOf($0) }
            if appWide { targets += [.application, .cached, .shared] }
            return targets
        }

        mutating func step(id: Int, using random: inout SplitMix64) -> LifetimeStep {
            let roll = Int.random(in: 0..<1000, using: &random)
            switch roll {
            case 0..<190:
                let slot = Slot(type: Int.random(in: 0..<8, using: &random), kind: SlotKind.allCases.randomElement(using: &random)!)
                var choices = scopeChoices
                if slot.key != nil { choices.append(.keyDeclared) }
                let wiring = LifetimeProgram.randomWiring(
                    for: slot.type, returningNil: slot.key == nil && Int.random(in: 0..<10, using: &random) == 0,
                    registered: registered, using: &random)
                if !registered.contains(slot) { registered.append(slot) }
                return .register(id: id, in: roles.randomElement(using: &random)!, slot: slot,
                                 scope: choices.randomElement(using: &random)!, wiring: wiring)
            case 190..<640:
                let slot: Slot
                if !registered.isEmpty && Int.random(in: 0..<10, using: &random) < 8 {
                    slot = registered.randomElement(using: &random)!
                } else {
                    slot = Slot(type: Int.random(in: 0..<8, using: &random), kind: SlotKind.allCases.randomElement(using: &random)!)
                }
                let site: ResolveSite
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<6: site = .container(roles.randomElement(using: &random)!)
                case 6..<8: site = .withRoot(roles.randomElement(using: &random)!)
                default: site = appWide ? .root : .container(roles.randomElement(using: &random)!)
                }
                let hold = Int.random(in: 0..<10, using: &random) < 6
                if hold { held.append(id) }
                return .resolve(handle: id, at: site, reference: LifetimeProgram.reference(to: slot, using: &random),
                                async: Int.random(in: 0..<4, using: &random) == 0, hold: hold)
            case 640..<800:
                guard !held.isEmpty else { return .dropAll }
                let handle = held.remove(at: Int.random(in: 0..<held.count, using: &random))
                return .drop(handle: handle)
            case 800..<815:
                held = []
                return .dropAll
            case 815..<855:
                return .reset(resetTargets.randomElement(using: &random)!)
            case 855..<915:
                let slot = registered.randomElement(using: &random)
                    ?? Slot(type: Int.random(in: 0..<8, using: &random), kind: .unnamed)
                return .resetOne(resetTargets.randomElement(using: &random)!, slot)
            case 915..<960:
                return .advanceClock(seconds: Int.random(in: 1...12, using: &random))
            case 960..<975:
                let key = Int.random(in: 0..<Lifetime.keys.count, using: &random)
                return .rewire(key: key, LifetimeProgram.randomWiring(for: key / 3, returningNil: false,
                                                                       registered: registered, using: &random))
            case 975..<982:
                return .replaceCache(roles.randomElement(using: &random)!)
            default:
                guard appWide else { return .advanceClock(seconds: 1) }
                switch Int.random(in: 0..<3, using: &random) {
                case 0: return .resetEverything
                case 1: return .setRoot(roles.randomElement(using: &random)!)
                default: return .remakeMocks
                }
            }
        }
    }
}

// MARK: - Shrinking

extension LifetimeProgram {
    /// The program without the steps `fails` does not need: whole chunks
    /// first, then single steps (delta debugging), while `fails` still
    /// says it fails.
    func shrunk(while fails: (LifetimeProgram) async -> Bool) async -> LifetimeProgram {
        var current = await withoutSteps(while: fails)
        current = await current.withoutDependencies(while: fails)
        return await current.withoutSteps(while: fails)
    }

    /// The program without the dependencies (of registrations, rewirings and
    /// keys' own factories) and the nil results `fails` does not need.
    private func withoutDependencies(while fails: (LifetimeProgram) async -> Bool) async -> LifetimeProgram {
        var current = self
        for index in current.steps.indices {
            guard case .register(let id, let role, let slot, let scope, var wiring) = current.steps[index] else { continue }
            var dependency = 0
            while dependency < wiring.dependencies.count {
                var candidate = current
                var fewer = wiring
                fewer.dependencies.remove(at: dependency)
                candidate.steps[index] = .register(id: id, in: role, slot: slot, scope: scope, wiring: fewer)
                if await fails(candidate) {
                    current = candidate
                    wiring = fewer
                } else {
                    dependency += 1
                }
            }
        }
        for key in current.keyWiring.indices {
            var dependency = 0
            while dependency < current.keyWiring[key].dependencies.count {
                var candidate = current
                candidate.keyWiring[key].dependencies.remove(at: dependency)
                if await fails(candidate) {
                    current = candidate
                } else {
                    dependency += 1
                }
            }
        }
        return current
    }

    /// The program without the steps `fails` does not need.
    private func withoutSteps(while fails: (LifetimeProgram) async -> Bool) async -> LifetimeProgram {
        var current = self
        var chunk = max(1, current.steps.count / 2)
        while chunk >= 1 {
            var start = 0
            var removedAny = false
            while start < current.steps.count {
                var candidate = current
                candidate.steps.removeSubrange(start..<min(start + chunk, candidate.steps.count))
                if await fails(candidate) {
                    current = candidate
                    removedAny = true
                } else {
                    start += chunk
                }
            }
            if chunk == 1 && !removedAny { break }
            chunk = chunk == 1 ? 1 : chunk / 2
        }
        return current
    }
}

// MARK: - Printing

extension LifetimeProgram {
    /// The program as Swift-like lines, with the keys' own factories it
    /// reaches.
    var listing: String {
        var lines = ["// program seed 0x\(String(seed, radix: 16)), \(appWide ? "app-wide" : "independent"), \(steps.count) steps"]
        lines.append("let clock = TestClock(); let ttl = ResolverScopeTimeToLive(.seconds(10), clock: clock)")
        lines.append("let customCache = ResolverScopeCache(); let customShare = ResolverScopeShare()")
        if appWide {
            lines.append("Resolver.reset(); var mock = Resolver(child: .main); var iso = Resolver(child: .main, isolatedScopes: true)")
        } else {
            lines.append("let base = Resolver(isolatedScopes: true); let top = Resolver(child: base, isolatedScopes: true)")
        }
        for key in keysReached() {
            let wiring = keyWiring[key]
            let type = "S\(key / 3)"
            let parameters = key % 3 == 2 ? "r, n" : "r"
            lines.append("// \\.\(Lifetime.keyName(key)): ResolverKey { \(parameters) in \(type)(\(Self.describe(wiring.dependencies))) }"
                         + ".scope(\(Self.describe(Lifetime.declaredScope(ofKey: key))))")
        }
        lines += steps.map(Self.describe)
        return lines.joined(separator: "\n")
    }

    /// The keys whose own factory the steps may run, directly or through
    /// other factories.
    private func keysReached() -> [Int] {
        var reached = Set<Int>()
        var pending: [Reference] = []
        for step in steps {
            switch step {
            case .register(_, _, _, _, let wiring), .rewire(_, let wiring): pending += wiring.dependencies
            case .resolve(_, _, let reference, _, _): pending.append(reference)
            default: break
            }
        }
        while let reference = pending.popLast() {
            if let key = reference.slot.key, reached.insert(key).inserted {
                pending += keyWiring[key].dependencies
            }
        }
        return reached.sorted()
    }

    static func describe(_ step: LifetimeStep) -> String {
        switch step {
        case .register(let id, let role, let slot, let scope, let wiring):
            let receiver = role == .main ? "Resolver" : "\(role)"
            let type = "S\(slot.type)"
            let made = wiring.returnsNil ? "_ = (\(describe(wiring.dependencies))); return nil"
                                         : "\(type)(\(describe(wiring.dependencies)))"
            let scoped = scope == .keyDeclared ? "" : ".scope(\(describe(scope)))"
            let registration: String
            switch slot.kind {
            case .unnamed: registration = "register(\(type).self) { r in \(made) }"
            case .named: registration = "register(\(type).self, name: \"n\") { r in \(made) }"
            case .typed: registration = "register(\(type).self, name: \"t\", arguments: Int.self) { r, n in \(made) }"
            case .args: registration = "register(\(type).self, name: \"a\") { r, args in \(made) }"
            case .keyA, .keyB: registration = "register(\\.\(Lifetime.keyName(slot.key!))) { r in \(made) }"
            case .keyArgument: registration = "register(\\.\(Lifetime.keyName(slot.key!))) { r, n in \(made) }"
            }
            return "\(receiver).\(registration)\(scoped)   // registration \(id)"
        case .resolve(let handle, let site, let reference, let async, let hold):
            let call = (async ? "await " : "") + describe(reference, at: site, async: async)
            return hold ? "var h\(handle) = \(call)" : "_ = \(call)"
        case .drop(let handle):
            return "h\(handle) = nil"
        case .dropAll:
            return "(every h) = nil"
        case .reset(let target):
            return "\(describe(target)).reset()"
        case .resetOne(let target, let slot):
            if let key = slot.key {
                return "\(describe(target)).reset(\\.\(Lifetime.keyName(key)))"
            }
            return "\(describe(target)).reset(S\(slot.type).self\(slot.name.map { ", name: \"\($0)\"" } ?? ""))"
        case .advanceClock(let seconds):
            return "clock.advance(by: .seconds(\(seconds)))"
        case .rewire(let key, let wiring):
            return "// \\.\(Lifetime.keyName(key))'s own factory now makes S\(key / 3)(\(describe(wiring.dependencies)))"
        case .replaceCache(let role):
            return "\(role).cache = ResolverScopeCache()"
        case .resetEverything:
            return "Resolver.reset()"
        case .setRoot(let role):
            return role == .main ? "Resolver.root = .main" : "Resolver.root = \(role)"
        case .remakeMocks:
            return "mock = Resolver(child: .main); iso = Resolver(child: .main, isolatedScopes: true)"
        }
    }

    static func describe(_ dependencies: [Reference]) -> String {
        dependencies.map { describe($0, at: nil, async: false) }.joined(separator: ", ")
    }

    /// A resolve of `reference`: from `r` inside a factory (`site` nil), or
    /// as a step does it.
    static func describe(_ reference: Reference, at site: ResolveSite?, async: Bool) -> String {
        let receiver: String
        switch site {
        case nil: receiver = "r"
        case .container(let role): receiver = role == .main ? "Resolver.main" : "\(role)"
        case .withRoot, .root: receiver = "Resolver"
        }
        let slot = reference.slot
        let argument = reference.argument.map(String.init) ?? ""
        let call: String
        switch slot.kind {
        case .unnamed: call = "optional\(async ? "Async" : "")(S\(slot.type).self)"
        case .named: call = "optional\(async ? "Async" : "")(S\(slot.type).self, name: \"n\")"
        case .typed: call = "optional\(async ? "Async" : "")(S\(slot.type).self, name: \"t\", arguments: \(argument))"
        case .args: call = "optional\(async ? "Async" : "")(S\(slot.type).self, name: \"a\", args: \(argument))"
        case .keyA, .keyB: call = "resolve\(async ? "Async" : "")(\\.\(Lifetime.keyName(slot.key!)))"
        case .keyArgument: call = "resolve\(async ? "Async" : "")(\\.\(Lifetime.keyName(slot.key!)), arguments: \(argument))"
        }
        if case .withRoot(let role) = site {
            let container = role == .main ? "Resolver.main" : "\(role)"
            return "Resolver.withRoot(\(container)) { \(async ? "await " : "")\(receiver).\(call) }"
        }
        return "\(receiver).\(call)"
    }

    static func describe(_ scope: ScopeChoice) -> String {
        switch scope {
        case .graph: return ".graph"
        case .unique: return ".unique"
        case .application: return ".application"
        case .cached: return ".cached"
        case .shared: return ".shared"
        case .container: return ".container"
        case .customCache: return "customCache"
        case .customShare: return "customShare"
        case .timeToLive: return "ttl"
        case .keyDeclared: return "(the key's)"
        }
    }

    static func describe(_ target: ScopeTarget) -> String {
        switch target {
        case .graph: return "ResolverScope.graph"
        case .unique: return "ResolverScope.unique"
        case .container: return "ResolverScope.container"
        case .application: return "ResolverScope.application"
        case .cached: return "ResolverScope.cached"
        case .shared: return "ResolverScope.shared"
        case .customCache: return "customCache"
        case .customShare: return "customShare"
        case .timeToLive: return "ttl"
        case .cacheOf(let role): return role == .main ? "Resolver.main.cache" : "\(role).cache"
        }
    }
}
