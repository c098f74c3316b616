// The key scenarios (issue 38): resolves through compile-time-checked keys.
// Built where the library has keys (Package.swift defines RESOLVER_KEYS), so
// that the same package still builds against a base commit without them.
#if RESOLVER_KEYS
import BenchFixtures
import Resolver

/// The keys of the key scenarios: the same services and scopes as the
/// singleton, transient and typed-argument scenarios, declared as an app
/// declares keys, in the module that resolves them.
extension ResolverKeys {
    var benchSingleton: ResolverKey<Plain> { ResolverKey { Plain() }.scope(.application) }
    var benchTransient: ResolverKey<Plain> { ResolverKey { Plain() }.scope(.unique) }
    var benchArgument: ResolverKey<ArgService, Int> { ResolverKey { value in ArgService(value) }.scope(.unique) }
}

/// `OursSingleton` through a key: `resolver.resolve(\.benchSingleton)`.
final class OursKeySingleton: BenchOperation, @unchecked Sendable {
    let resolver = Resolver()

    func run() { sink(resolver.resolve(\.benchSingleton)) }
}

/// `OursTransient` through a key.
final class OursKeyTransient: BenchOperation, @unchecked Sendable {
    let resolver = Resolver()

    func run() { sink(resolver.resolve(\.benchTransient)) }
}

/// `OursTypedArgument` through a key.
final class OursKeyArgument: BenchOperation, @unchecked Sendable {
    let resolver = Resolver()

    init() {
        precondition(resolver.resolve(\.benchArgument, arguments: benchmarkArgument).value == benchmarkArgument)
    }

    func run() { sink(resolver.resolve(\.benchArgument, arguments: benchmarkArgument)) }
}
#endif
