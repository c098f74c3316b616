// verify(): every registration resolved once, on threads of the verification's own, collecting what would
// have stopped the program (DESIGN.md, "Detours").

extension Resolver {
    /// What `verify()` found: each registration resolved, failed or skipped.
    public struct Verification: Sendable, CustomStringConvertible {
        /// Why a registration could not be resolved.
        public struct Failure: Sendable, CustomStringConvertible {
            /// What kind of failure.
            public enum Kind: Sendable, Equatable {
                /// A service it needs is not registered.
                case missing
                /// A factory (its own or a dependency's) returned nil.
                case returnedNil
                /// A dependency cycle, on one thread or across threads.
                case cycle
                /// It did not finish within the timeout (a factory that blocks, or waits for what never comes).
                case timedOut
                /// Another failure: wrong arguments, a failed `implements`, a resolution nested endlessly.
                case other
            }

            /// The registration being verified, "Type" or "Type:name".
            public let service: String
            /// What kind of failure.
            public let kind: Kind
            /// The message the program would have stopped with, chain included.
            public let message: String

            /// The service, then the message, indented.
            public var description: String {
                let lines = message.split(separator: "\n", omittingEmptySubsequences: false)
                return "\(service): \(kind)\n" + lines.map { "    " + $0 }.joined(separator: "\n")
            }
        }

        /// The registrations that resolved, "Type" or "Type:name".
        public let resolved: [String]
        /// The registrations that failed, with why.
        public let failures: [Failure]
        /// The registrations not resolved because their factories take arguments, which `verify()` cannot
        /// make up, or are `@MainActor`, which its threads cannot run (<doc:Concurrency>).
        public let skipped: [String]
        /// The dependency graph the resolves showed.
        public let graph: Graph
        /// The registrations that replaced another for the same type and name (in this container or its
        /// children), with both places: not failures (a mock replaces the live service on purpose), but the
        /// way to see that two modules register one service and the later one wins.
        public let replacements: [Replacement]

        /// True when no registration failed.
        public var isValid: Bool {
            failures.isEmpty
        }

        /// A summary line, then each failure with its message, then the skipped registrations, then the
        /// registrations that replaced another.
        public var description: String {
            var lines = ["Resolver.verify(): \(resolved.count) resolved, \(failures.count) failed, \(skipped.count) skipped."]
            for failure in failures {
                lines.append("FAILED " + failure.description)
            }
            if !skipped.isEmpty {
                lines.append("Skipped (the factory takes arguments, or is @MainActor): \(skipped.joined(separator: ", ")).")
            }
            if !replacements.isEmpty {
                lines.append("Replaced (not failures; the later registration is the one in use):")
                lines += replacements.map { "    " + $0.description }
            }
            return lines.joined(separator: "\n")
        }
    }

    /// Verifies `root`, as ``verify(timeout:)-swift.method``.
    public static func verify(timeout: Double = 10) -> Verification {
        root.verify(timeout: timeout)
    }

    /// Resolves every registration this container can find (its own and its children's; each name) once,
    /// and reports what failed instead of stopping the program: missing dependencies with the chain that
    /// needed them, cycles, factories that returned nil. Registrations whose factories take arguments are
    /// listed as skipped. Where this container's lookup reaches `Resolver.main` (the app's graph), the
    /// compile-time-checked keys the program has used since the last `Resolver.reset()` (resolved,
    /// declared in a property wrapper or registered) count too: each through its override here, or else its
    /// own factory; a promised key nobody registered is a `.missing` failure.
    ///
    /// **This runs your factories**, once each, as a resolve would: call it at start-up in a debug build,
    /// or in a test. It resolves in a sandbox, a child of this container with caches of its own for every
    /// caching scope, so the app's singletons are neither made nor replaced; static resolves and property
    /// wrappers inside the factories use the sandbox too. (A property wrapper given an explicit container,
    /// and custom scope subclasses, reach outside it.) `registerAllServices` runs first if it has not. The
    /// calling thread waits; the resolves run on threads of their own, one at a time, and a failure ends
    /// its thread: a factory that fails while holding a lock of its own leaves it locked.
    ///
    /// - Parameter timeout: seconds a registration may take before it is reported `.timedOut`, left running.
    public func verify(timeout: Double = 10) -> Verification {
        registry.ensureRegistered()
        let registrations = registry.withLock {
            // The keys used so far that no registration here overrides resolve their own registrations; a
            // promise nobody kept fails.
            let reachable = reachableRegistrationsLocked()
            return (reachable + KeyDefaults.unshadowedLocked(besides: reachable, from: self)).map {
                (registration: $0, takesArguments: $0.takesArgumentsLocked || $0.isMainActorFactory)
            }
        }
        return VerificationRun(container: self, registrations: registrations, timeout: timeout).run()
    }
}
