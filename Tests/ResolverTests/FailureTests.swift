import Resolver
import Testing

extension IndependentTests {
    /// Each way a resolve can fail stops the program with a message that
    /// names what was asked and what exists. Run in a child process
    /// (ResolverFailureProbe), checking that it stopped and what it said.
    @Suite struct Failures {
        static let cases: [(scenario: String, expected: [String])] = [
            ("missing", ["RESOLVER: 'Missing:NONAME' not resolved. To disambiguate optionals use resolver.optional().",
                         "Nothing is registered for 'Missing'"]),
            ("name-typo", ["RESOLVER: 'Service:fredd' not resolved.", "'Service' is registered under: 'barney', 'fred'."]),
            ("named-but-only-unnamed", ["RESOLVER: 'Service:fred' not resolved.",
                                        "An unnamed 'Service' is registered, but a named lookup never falls back to it."]),
            ("optional-registered", ["RESOLVER: 'Service:NONAME' not resolved.", "'Optional<Service>' is registered with no name"]),
            ("asked-for-optional", ["RESOLVER: 'Optional<Service>:NONAME' not resolved.",
                                    "'Service' is registered: to get an optional, call optional()"]),
            ("factory-nil", ["RESOLVER: 'Service:NONAME' not resolved.", "exists, but its factory returned nil"]),
            ("missing-dependency", ["RESOLVER: 'Missing:NONAME' not resolved.", "Needed while resolving Top → Middle."]),
            ("wrong-argument-type", ["RESOLVER: argument of type Int expected, but a String was passed."]),
            ("missing-keyed-argument", ["RESOLVER: argument 'id' of type Int expected, but it was not passed. Passed: 'name': a String."]),
            ("wrong-keyed-argument", ["RESOLVER: argument 'id' of type Int expected, but a String was passed."]),
            ("wrong-lone-argument-type", ["RESOLVER: argument '' (the single argument) of type Int expected, but a String was passed."]),
            ("no-arguments", ["RESOLVER: argument 'id' of type Int expected, but no arguments were passed."]),
            ("cycle", ["RESOLVER: circular dependency: A → B → C → A."]),
            ("named-cycle", ["RESOLVER: circular dependency: A:first → B → A:first."]),
            ("application-cycle", ["RESOLVER: circular dependency: X → Y → X."]),
            ("cross-thread-cycle", ["RESOLVER: circular dependency across threads:"]),
            ("runaway-recursion", ["RESOLVER: resolution nested more than 512 deep"]),
            ("child-cycle", ["add(child:) would make a container its own descendant"]),
            ("main-actor-off-main", ["RESOLVER: 'ViewModel' is registered with a @MainActor factory, and this synchronous resolve is not on the main actor (MainActor)",
                                     "`await Resolver.resolveAsync(ViewModel.self)`"]),
            ("main-actor-off-main-named", ["RESOLVER: 'ViewModel:settings' is registered with a @MainActor factory",
                                           "`await Resolver.resolveAsync(ViewModel.self, name: \"settings\")`"]),
            ("async-factory-sync-resolve", ["RESOLVER: 'Store' is registered with an async factory (or one isolated to a global actor other than the main actor), which a synchronous resolve cannot run.",
                                            "`await Resolver.resolveAsync(Store.self)`"]),
            ("async-cycle", ["RESOLVER: circular dependency: AsyncA → AsyncB → AsyncA."]),
            ("async-application-cycle", ["RESOLVER: circular dependency: AsyncA → AsyncB → AsyncA."]),
            // Typed arguments (`register(arguments:)`).
            ("typed-wrong-types", ["RESOLVER: 'TypedService' is registered with arguments (Int, String), but (String) were passed."]),
            ("typed-wrong-types-past-the-path", ["RESOLVER: 'TypedService:primary' is registered with arguments (Int, String), but untyped args: were passed."]),
            ("typed-wrong-types-through-a-scope", ["RESOLVER: 'TypedService:primary' is registered with arguments (Int, String), but untyped args: were passed."]),
            ("typed-wrong-types-through-its-registration", ["RESOLVER: 'TypedService:primary' is registered with arguments (Int, String), but none were passed."]),
            ("typed-none-passed", ["RESOLVER: 'TypedService' is registered with arguments (Int, String), but none were passed. Pass them with `Resolver.resolve(TypedService.self, arguments: …)`."]),
            ("typed-args-passed", ["RESOLVER: 'TypedService' is registered with arguments (Int, String), but untyped args: were passed."]),
            ("typed-passed-to-untyped", ["RESOLVER: 'TypedService' is registered without typed arguments, but (Int) were passed."]),
            ("typed-not-hashable-cached", ["RESOLVER: 'Service' takes arguments (Settings), which are not all Hashable: a caching scope keeps one instance per argument list"]),
            ("list-missing", ["RESOLVER: 'Array<Plugin>:NONAME' not resolved.",
                              "Nothing is registered for 'Array<Plugin>' in this container or its children.",
                              "A list of 'Plugin' is made of the elements added with `register(into: [Plugin].self) { … }`",
                              "'Plugin' is registered, but registrations of 'Plugin' itself are not collected into a list"]),
            ("list-cycle", ["RESOLVER: circular dependency: Array<Plugin> → Plugin:[Plugin] #2 → Array<Plugin>."]),
            // Compile-time-checked keys (issue 38).
            ("key-promise", ["RESOLVER: the key \\.probePromise of 'Service', promised at ResolverFailureProbe/main.swift:",
                             "is not registered. Register it with `Resolver.register(\\.probePromise) { … }`"]),
            ("key-async-sync-resolve", ["RESOLVER: 'Store:\\.probeStore' is registered with an async factory",
                                        "`await Resolver.resolveAsync(\\.probeStore)`"]),
            ("key-global-actor-sync-resolve", ["RESOLVER: 'PlayManager:\\.probePlayer' is registered with an async factory (or one isolated to a global actor other than the main actor)",
                                               "`await Resolver.resolveAsync(\\.probePlayer)`", "which runs the factory on its actor"]),
            ("key-main-actor-off-main", ["RESOLVER: 'ViewModel:\\.probeViewModel' is registered with a @MainActor factory",
                                         "`await Resolver.resolveAsync(\\.probeViewModel)`"]),
            ("key-two-declarations", ["RESOLVER: two keys \\.probeTwice of 'Service' are declared, at ResolverFailureProbe/main.swift:",
                                      "A key is its service type and the name of the property that declares it: rename one of them."]),
            ("key-getter-changes", ["RESOLVER: the getter of the key \\.probeChanging of 'Service' (declared at ResolverFailureProbe/main.swift:",
                                    "did not make its key there when run again."]),
            ("key-cycle", ["RESOLVER: circular dependency: A:\\.probeCycleA → B:\\.probeCycleB → C:\\.probeCycleC → A:\\.probeCycleA."]),
            // The internal checks of debug builds (DESIGN.md, L1).
            ("unlocked-table-write", ["CRegistry: internal check failed in crg_put_locked: called without the table's mutex"]),
            ("unlocked-scope-reset", ["RESOLVER: resetLocked() called without the registry mutex"]),
        ]

        @Test(arguments: cases)
        func stopsWithAClearMessage(scenario: String, expected: [String]) throws {
            let run = try runProgram("ResolverFailureProbe", [scenario])
            #expect(run.signaled, "\(scenario) should stop the program; it exited \(run.status): \(run.output)")
            for line in expected {
                #expect(run.output.contains(line), "\(scenario): missing '\(line)' in: \(run.output)")
            }
            #expect(!run.output.contains("PROBE-SURVIVED"))
        }

        @Test func probeRunsCleanlyWhenNothingFails() throws {
            let run = try runProgram("ResolverFailureProbe", ["none"])
            #expect(!run.signaled && run.status == 0)
            #expect(run.output.contains("PROBE-SURVIVED"))
        }

        @Test func breakingACycleWithResolvePropertiesWorksInTheProbeToo() throws {
            let run = try runProgram("ResolverFailureProbe", ["cycle-broken"])
            #expect(!run.signaled && run.status == 0, "\(run.output)")
            #expect(run.output.contains("cycle broken: true"))
        }
    }
}
