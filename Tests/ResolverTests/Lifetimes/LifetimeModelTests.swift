import Foundation
import Testing

// Issue 42: a model test of every scope's lifetime. Random programs
// (LifetimeProgram.swift) run against the engine and the reference model
// (LifetimeModel.swift) in lockstep (LifetimeRunner.swift); a program that
// diverges is shrunk and printed as Swift-like lines with its seed.
//
// Environment, for longer runs (make test-lifetimes):
// - RESOLVER_LIFETIME_STEPS: steps per seed (default 4,000 for each of the
//   four independent seeds, 2,500 for each of the two app-wide ones);
// - RESOLVER_LIFETIME_SEED: added to every seed, for other programs;
// - RESOLVER_LIFETIME_PROGRAM: the seed of one program (as a failure prints
//   it) to run alone, in both suites.

/// How many steps, from which seeds.
enum LifetimeRuns {
    static let programLength = 400

    static func steps(default count: Int) -> Int {
        ProcessInfo.processInfo.environment["RESOLVER_LIFETIME_STEPS"].flatMap { Int($0) } ?? count
    }

    static var seedOffset: UInt64 {
        ProcessInfo.processInfo.environment["RESOLVER_LIFETIME_SEED"].flatMap { UInt64($0) } ?? 0
    }

    static var onlyProgram: UInt64? {
        ProcessInfo.processInfo.environment["RESOLVER_LIFETIME_PROGRAM"].flatMap { text in
            text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
        }
    }

    /// Runs programs of `seed` for `steps` steps in all; at the first that
    /// diverges from the model, records an issue with the program shrunk.
    static func check(seed: UInt64, appWide: Bool, steps: Int) async {
        if let only = onlyProgram {
            if seed == 1 { await check(LifetimeProgram(seed: only, appWide: appWide, count: programLength), after: 0) }
            return
        }
        var done = 0
        var index: UInt64 = 0
        while done < steps {
            let count = min(programLength, steps - done)
            let program = LifetimeProgram(seed: (seed + seedOffset) << 32 | index, appWide: appWide, count: count)
            if await !check(program, after: done) {
                return
            }
            done += count
            index += 1
        }
    }

    /// Runs one program; false (and an issue recorded) if it diverged.
    @discardableResult
    static func check(_ program: LifetimeProgram, after done: Int) async -> Bool {
        guard let divergence = await LifetimeRunner.run(program) else {
            return true
        }
        // Shrinking reruns the program often: a shorter grace for releases.
        let shrunk = await program.shrunk { await LifetimeRunner.run($0, grace: 2) != nil }
        let again = await LifetimeRunner.run(shrunk)
        let report = """
            A lifetime program diverged from the model: program seed 0x\(String(program.seed, radix: 16)) \
            (RESOLVER_LIFETIME_PROGRAM=0x\(String(program.seed, radix: 16))), at its step \(divergence.step), \
            after \(done + divergence.step + 1) steps of this test.
            \(divergence)
            Shrunk to \(shrunk.steps.count) steps:
            \(shrunk.listing)
            The shrunk program: \(again.map(\.description) ?? "passes (the failure depends on more than its steps)")
            """
        print(report)
        Issue.record(Comment(rawValue: report))
        return false
    }
}

extension IndependentTests {
    /// Programs on containers and scopes of their own: two containers with
    /// isolated scopes (one the other's child), a `ResolverScopeCache`, a
    /// `ResolverScopeShare` and a `ResolverScopeTimeToLive` of each program's.
    @Suite struct LifetimeModelTests {
        @Test(arguments: [UInt64(1), 2, 3, 4])
        func everyScopeKeepsWhatTheModelKeepsForAsLongAsItKeepsIt(seed: UInt64) async {
            await LifetimeRuns.check(seed: seed, appWide: false, steps: LifetimeRuns.steps(default: 4_000))
        }
    }
}

extension ResolverTests {
    /// Programs on the app's state: `Resolver.main`, `root`, `withRoot`,
    /// `Resolver.reset()` and the app-wide `.application`, `.cached` and
    /// `.shared`, with a container over `main` and one with isolated scopes.
    @Suite struct LifetimeModelAppWide {
        @Test(arguments: [UInt64(1), 2])
        func theAppWideScopesKeepWhatTheModelKeepsForAsLongAsItKeepsIt(seed: UInt64) async {
            await LifetimeRuns.check(seed: seed, appWide: true, steps: LifetimeRuns.steps(default: 2_500))
        }
    }
}
