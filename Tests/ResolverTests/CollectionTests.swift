import Foundation
@testable import Resolver
import Testing

// Collections: `register(into: [Element].self) { … }` adds an element, and
// resolving `[Element]` gives the elements of the containers the lookup
// reaches, parents first (Sources/Resolver/Collections.swift).

/// What the lists hold in these tests.
private protocol Plugin: AnyObject, Sendable {
    var label: String { get }
}

private final class NamedPlugin: Plugin, @unchecked Sendable {
    let label: String
    let id = Serial.next()
    var configured = false
    init(_ label: String) { self.label = label }
}

/// A plugin that needs a service of the container it is resolved from.
private final class GreetingPlugin: Plugin, @unchecked Sendable {
    let label: String
    init(greeting: Greeting) { label = greeting.text }
}

private final class Greeting: @unchecked Sendable {
    let text: String
    init(_ text: String) { self.text = text }
}

/// A plugin made by an async factory.
private final class LoadedPlugin: Plugin, @unchecked Sendable {
    let label: String
    init(_ label: String) async {
        await Task.yield()
        self.label = label
    }
}

@MainActor private final class MainActorPlugin: Plugin {
    nonisolated let label: String
    nonisolated init(_ label: String) { self.label = label }
}

/// The labels of the list of plugins resolved from `container`.
private func labels(_ container: Resolver, name: Resolver.Name? = nil) -> [String] {
    container.resolve([any Plugin].self, name: name).map(\.label)
}

/// Adds a plugin labelled `label` to `container`'s list.
@discardableResult
private func add(_ label: String, to container: Resolver, name: Resolver.Name? = nil) -> ResolverOptions<any Plugin> {
    container.register(into: [any Plugin].self, name: name) { NamedPlugin(label) }
}

/// Holds lists through the property wrappers (from the root: a test's own
/// through `withRoot`).
private final class PluginHost {
    @Injected var plugins: [any Plugin]
    @LazyInjected var lazyPlugins: [any Plugin]
    @OptionalInjected var optionalPlugins: [any Plugin]?
}

extension IndependentTests {
    /// `register(into:)` and resolving `[Element]`.
    @Suite struct Collections {
        // MARK: Order

        @Test func oneContainerGivesItsElementsInRegistrationOrder() {
            let container = Resolver()
            add("a", to: container)
            container.register(into: [any Plugin].self) { r in GreetingPlugin(greeting: r.resolve()) }
            container.register { Greeting("b") }
            add("c", to: container)

            #expect(labels(container) == ["a", "b", "c"])
            #expect(container.optional([any Plugin].self)?.map(\.label) == ["a", "b", "c"])
        }

        @Test func parentsFirstAcrossTwoLevels() {
            let app = Resolver()
            let feature = Resolver(child: app)
            add("feature 1", to: feature)
            add("app 1", to: app)
            add("feature 2", to: feature)
            add("app 2", to: app)

            #expect(labels(feature) == ["app 1", "app 2", "feature 1", "feature 2"])
            #expect(labels(app) == ["app 1", "app 2"])
        }

        @Test func parentsFirstAcrossThreeLevels() {
            let app = Resolver()
            let feature = Resolver(child: app)
            let screen = Resolver(child: feature)
            add("screen", to: screen)
            add("feature", to: feature)
            add("app", to: app)

            #expect(labels(screen) == ["app", "feature", "screen"])
            #expect(labels(feature) == ["app", "feature"])
            // A container that adds nothing gives what it falls back on.
            let empty = Resolver(child: screen)
            #expect(labels(empty) == ["app", "feature", "screen"])
        }

        /// Several children: each child's part (its own children's first)
        /// in the order the children were added, then the container's own.
        /// A container reached twice contributes once.
        @Test func childrenContributeInTheOrderAdded() {
            let shared = Resolver()
            let first = Resolver(child: shared)
            let second = Resolver(child: shared)
            let top = Resolver(child: first)
            top.add(child: second)
            for (label, container) in [("top", top), ("second", second), ("first", first), ("shared", shared)] {
                add(label, to: container)
            }

            #expect(labels(top) == ["shared", "first", "second", "top"])
            #expect(labels(second) == ["shared", "second"])
        }

        @Test func namedListsAreListsOfTheirOwn() {
            let container = Resolver()
            add("unnamed", to: container)
            add("tracking", to: container, name: "analytics")
            add("crash", to: container, name: "analytics")

            #expect(labels(container) == ["unnamed"])
            #expect(labels(container, name: "analytics") == ["tracking", "crash"])
            #expect(container.optional([any Plugin].self, name: "other") == nil)
        }

        @Test func aListWithNoElementsAnywhereIsNotRegistered() {
            let app = Resolver()
            let feature = Resolver(child: app)
            app.register { NamedPlugin("not an element") as any Plugin }

            #expect(feature.optional([any Plugin].self) == nil)
            #expect(feature.optional([NamedPlugin].self) == nil)
        }

        // MARK: Scopes

        @Test func eachElementHasItsOwnScope() {
            let container = Resolver(isolatedScopes: true)
            add("app 1", to: container).scope(.application)
            add("app 2", to: container).scope(.application)
            add("unique", to: container).scope(.unique)

            // Both lists stay alive: a freed .unique instance's address may
            // be the next one's.
            let firstList = container.resolve([any Plugin].self)
            let secondList = container.resolve([any Plugin].self)
            let first = firstList.map { ObjectIdentifier($0) }
            let second = secondList.map { ObjectIdentifier($0) }
            #expect(Set(first).count == 3, "two .application elements are two instances")
            #expect(first[0] == second[0] && first[1] == second[1], ".application elements are kept")
            #expect(first[2] != second[2], "a .unique element is made anew")
        }

        @Test func elementsOfTwoContainersDoNotShareACachedInstance() {
            let app = Resolver()
            let feature = Resolver(child: app, isolatedScopes: true)
            add("app", to: app).scope(.container)
            add("feature", to: feature).scope(.application)
            add("feature 2", to: feature).scope(.application)

            let plugins = feature.resolve([any Plugin].self)
            #expect(plugins.map(\.label) == ["app", "feature", "feature 2"])
            #expect(Set(plugins.map { ObjectIdentifier($0) }).count == 3)
            #expect(feature.resolve([any Plugin].self).map { ObjectIdentifier($0) } == plugins.map { ObjectIdentifier($0) })
        }

        @Test func theDefaultScopeIsGraph() {
            let container = Resolver()
            container.register { Greeting("shared within one resolve") }
            container.register(into: [any Plugin].self) { r in GreetingPlugin(greeting: r.resolve()) }
            add("a", to: container)

            let first = container.resolve([any Plugin].self)
            let second = container.resolve([any Plugin].self)
            #expect(ObjectIdentifier(first[1]) != ObjectIdentifier(second[1]))
        }

        @Test func resolvePropertiesRunsOnItsElement() {
            let container = Resolver()
            add("configured", to: container).resolveProperties { _, plugin in
                (plugin as? NamedPlugin)?.configured = true
            }
            add("plain", to: container)

            let configured = container.resolve([any Plugin].self).map { ($0 as? NamedPlugin)?.configured }
            #expect(configured == [true, false])
        }

        @Test func anElementWhoseFactoryReturnsNilIsLeftOut() {
            let container = Resolver()
            add("kept", to: container)
            container.register(into: [any Plugin].self) { nil }
            add("also kept", to: container)

            #expect(labels(container) == ["kept", "also kept"])
        }

        @Test func elementFactoriesGetTheResolvingContainer() {
            let app = Resolver()
            let feature = Resolver(child: app)
            app.register { Greeting("from app") }
            feature.register { Greeting("from feature") }
            app.register(into: [any Plugin].self) { r in GreetingPlugin(greeting: r.resolve()) }

            #expect(labels(app) == ["from app"])
            #expect(labels(feature) == ["from feature"])
        }

        // MARK: Plain registrations of the list

        /// A plain `[Element]` registration is found as any registration is:
        /// the answer from its own container, and the base of the lists of
        /// containers that fall back on it.
        @Test func aPlainRegistrationReplacesTheListThere() {
            let app = Resolver()
            let feature = Resolver(child: app)
            let screen = Resolver(child: feature)
            add("app", to: app)
            feature.register { [NamedPlugin("plain 1"), NamedPlugin("plain 2")] as [any Plugin] }
            add("screen", to: screen)

            #expect(labels(app) == ["app"])
            #expect(labels(feature) == ["plain 1", "plain 2"])
            #expect(labels(screen) == ["plain 1", "plain 2", "screen"])
        }

        @Test func inOneContainerTheLastRegistrationWins() {
            let container = Resolver()
            add("element", to: container)
            container.register { [NamedPlugin("plain")] as [any Plugin] }
            #expect(labels(container) == ["plain"])

            add("new element", to: container)
            #expect(labels(container) == ["new element"], "register(into:) after a plain registration starts a new list")
        }

        /// A lookup stops at the first registration it finds; so does the
        /// list, at a plain one: what a lookup would search after it adds
        /// nothing.
        @Test func aPlainRegistrationHidesWhatALookupReachesAfterIt() {
            let plainChild = Resolver()
            let laterChild = Resolver()
            let top = Resolver(child: plainChild)
            top.add(child: laterChild)
            plainChild.register { [NamedPlugin("plain")] as [any Plugin] }
            add("later", to: laterChild)
            add("top", to: top)

            #expect(labels(top) == ["plain", "top"])
            #expect(labels(laterChild) == ["later"])
            // With no elements of its own, `top` finds the plain registration, as before.
            #expect(labels(Resolver(child: plainChild)) == ["plain"])
        }

        // MARK: Property wrappers and async

        @Test func propertyWrappersResolveTheList() {
            let app = Resolver()
            let feature = Resolver(child: app)
            add("app", to: app)
            add("feature", to: feature)

            let host = Resolver.withRoot(feature) { () -> PluginHost in
                let host = PluginHost()
                _ = host.lazyPlugins   // the first read happens inside
                return host
            }
            #expect(host.plugins.map(\.label) == ["app", "feature"])
            #expect(host.lazyPlugins.map(\.label) == ["app", "feature"])
            #expect(host.optionalPlugins?.map(\.label) == ["app", "feature"])
        }

        @Test func resolveAsyncAwaitsTheElementsThatNeedIt() async {
            let app = Resolver()
            let feature = Resolver(child: app)
            add("plain", to: app)
            app.register(into: [any Plugin].self) { await LoadedPlugin("async") }
            feature.register(into: [any Plugin].self) { r in await LoadedPlugin(r.resolve(Greeting.self).text) }
            feature.register { Greeting("async with the container") }
            feature.register(into: [any Plugin].self) { @MainActor in MainActorPlugin("main actor") }

            let plugins = await feature.resolveAsync([any Plugin].self)
            #expect(plugins.map(\.label) == ["plain", "async", "async with the container", "main actor"])
            #expect(await feature.optionalAsync([any Plugin].self, name: "none") == nil)
        }

        @Test func asyncElementsInACachingScopeAreBuiltOnce() async {
            let container = Resolver(isolatedScopes: true)
            container.register(into: [any Plugin].self) { await LoadedPlugin("kept") }.scope(.application)

            let first = await container.resolveAsync([any Plugin].self)
            let second = await container.resolveAsync([any Plugin].self)
            #expect(ObjectIdentifier(first[0]) == ObjectIdentifier(second[0]))
            // Once built, a synchronous resolve returns the instance, as for any async registration.
            #expect(ObjectIdentifier(container.resolve([any Plugin].self)[0]) == ObjectIdentifier(first[0]))
        }

        // MARK: Threads

        /// Readers resolve while a writer adds elements to three containers
        /// in turn: every list returned is one that existed at some moment
        /// (each container's elements a prefix of what it was given, and
        /// the counts as the writer left them between two additions).
        @Test func everyListReturnedExistedAtSomeMoment() {
            let app = Resolver()
            let feature = Resolver(child: app)
            let screen = Resolver(child: feature)
            let containers = [app, feature, screen]
            let additions = 300
            let problems = Locked<[String]>([])
            let done = Locked(false)

            runOnThreads(3) { thread in
                if thread == 0 {
                    for index in 0..<additions {
                        add("\(index % 3)/\(index / 3)", to: containers[index % 3])
                    }
                    done.withLock { $0 = true }
                    return
                }
                while !done.withLock({ $0 }) {
                    guard let list = screen.optional([any Plugin].self) else { continue }
                    let parsed = list.map { $0.label.split(separator: "/").map { Int($0)! } }
                    var counts = [0, 0, 0]
                    var valid = true
                    for (level, index) in parsed.map({ ($0[0], $0[1]) }) {
                        // In order: app's, then feature's, then screen's, each a prefix.
                        valid = valid && index == counts[level] && counts[(level + 1)...].allSatisfy { $0 == 0 }
                        counts[level] += 1
                    }
                    // The writer adds to app, feature, screen, app, ...: the
                    // counts at any moment are n+1 ≥ … ≥ n.
                    valid = valid && counts[0] >= counts[1] && counts[1] >= counts[2] && counts[0] - counts[2] <= 1
                    if !valid {
                        problems.withLock { $0.append("\(parsed)") }
                    }
                }
            }
            #expect(problems.withLock { $0 }.isEmpty)
            #expect(screen.resolve([any Plugin].self).count == additions)
        }

        /// The walk alone (white-box), so that readers spend their time in
        /// it: the containers' elements it reads are as they were at one
        /// moment, while a writer adds to the three in turn (the counts at
        /// any moment are n+1 ≥ … ≥ n), however the readers are preempted.
        @Test func theWalkReadsTheContainersAsTheyWereAtOneMoment() {
            let app = Resolver()
            let feature = Resolver(child: app)
            let screen = Resolver(child: feature)
            let containers = [app, feature, screen]
            let problems = Locked<[[Int]]>([])
            let done = Locked(false)
            let readers = 4

            runOnThreads(readers + 1) { thread in
                if thread == readers {
                    for index in 0..<1_500 {
                        add("\(index)", to: containers[index % 3])
                    }
                    done.withLock { $0 = true }
                    return
                }
                while !done.withLock({ $0 }) {
                    let counts = withRegistryKey([any Plugin].self, nil) { key in
                        ReadSection.run { section in
                            ElementCollection<any Plugin>.parts(from: UncheckedReference(screen), key, section).map { part -> Int in
                                guard case .elements(let collection) = part else { return -1 }
                                return collection.read { $0.elements.count }
                            }
                        }
                    }
                    // Parents first: app's, feature's, screen's; the writer
                    // adds to app first, so those with elements are a prefix.
                    let full = counts + Array(repeating: 0, count: 3 - counts.count)
                    if !(full[0] >= full[1] && full[1] >= full[2] && full[0] - full[2] <= 1) {
                        problems.withLock { $0.append(full) }
                    }
                }
            }
            #expect(problems.withLock { $0 }.isEmpty)
        }

        // MARK: verify() and the graph

        @Test func verifyResolvesTheListAndEachElement() {
            let app = Resolver()
            let feature = Resolver(child: app)
            add("app", to: app, name: "verify")
            feature.register(into: [any Plugin].self, name: "verify") { r in GreetingPlugin(greeting: r.resolve()) }

            let verification = feature.verify()
            #expect(verification.resolved == ["Plugin:[Plugin]:verify #1"], "\(verification)")
            // The list resolves every element, so it fails with the one that does.
            #expect(verification.failures.map(\.service) == ["Array<Plugin>:verify", "Plugin:[Plugin]:verify #2"])
            #expect(verification.failures.map(\.kind) == [.missing, .missing])
            #expect(verification.failures.last?.message.contains("'Greeting:NONAME' not resolved") == true)
        }

        @Test func verifySkipsAListWithAMainActorElementButChecksTheOthers() {
            let container = Resolver()
            add("plain", to: container)
            container.register(into: [any Plugin].self) { @MainActor in MainActorPlugin("main actor") }

            let verification = container.verify()
            #expect(verification.isValid)
            #expect(verification.skipped.count == 2, "the list and its main-actor element: \(verification)")
            #expect(verification.resolved.count == 1)
        }

        @Test func verifyRunsAsyncElements() {
            let container = Resolver()
            container.register(into: [any Plugin].self) { await LoadedPlugin("async") }
            container.register(into: [any Plugin].self) { r in await LoadedPlugin(r.resolve(Greeting.self).text) }

            let verification = container.verify()
            #expect(verification.resolved.count == 1, "\(verification)")
            #expect(verification.failures.count == 2, "the list, and the element that needs a Greeting: \(verification)")
            #expect(verification.failures.allSatisfy { $0.kind == .missing })
        }

        @Test func verifyReportsACycleThroughTheList() {
            let container = Resolver()
            add("fine", to: container, name: "cycle")
            container.register(into: [any Plugin].self, name: "cycle") { r in
                _ = r.resolve([any Plugin].self, name: "cycle")
                return NamedPlugin("never")
            }

            let verification = container.verify()
            #expect(verification.failures.map(\.kind) == [.cycle, .cycle], "\(verification)")
            #expect(verification.failures.first?.message.contains(
                "circular dependency: Array<Plugin>:cycle → Plugin:[Plugin]:cycle #2 → Array<Plugin>:cycle.") == true,
                    "\(verification)")
        }

        /// Each element is a node, labelled with the type of the instance
        /// it built and where it was registered (its type and name are its
        /// list's, which tell two elements apart by number only).
        @Test func theGraphHasANodePerElementAndEdgesFromTheList() {
            let app = Resolver()
            let feature = Resolver(child: app)
            app.register { Greeting("hello") }
            let appLine = #line + 1
            app.register(into: [any Plugin].self, name: "graph") { r in GreetingPlugin(greeting: r.resolve()) }.scope(.application)
            let featureLine = #line + 1
            feature.register(into: [any Plugin].self, name: "graph") { NamedPlugin("feature") }

            let graph = feature.verify().graph
            #expect(graph.nodes.map(\.description) == ["Array<Plugin>:graph", "Greeting", "Plugin:[Plugin]:graph #1",
                                                        "Plugin:[Plugin]:graph #2"])
            #expect(graph.nodes.map(\.scope) == ["collection", "graph", "application", "graph"])
            #expect(graph.edges.map { "\($0.from) -> \($0.to)" } == [
                "Array<Plugin>:graph -> Plugin:[Plugin]:graph #1",
                "Array<Plugin>:graph -> Plugin:[Plugin]:graph #2",
                "Plugin:[Plugin]:graph #1 -> Greeting",
            ])
            #expect(feature.graph(format: .dot) == """
                digraph Resolver {
                    rankdir=LR;
                    node [shape=box, style=rounded, fontname="Helvetica"];
                    n0 [label="Array<Plugin>\\nname: graph\\ncollection"];
                    n1 [label="Greeting\\ngraph"];
                    n2 [label="GreetingPlugin\\nname: [Plugin]:graph #1\\nat: ResolverTests/CollectionTests.swift:\(appLine)\\napplication"];
                    n3 [label="NamedPlugin\\nname: [Plugin]:graph #2\\nat: ResolverTests/CollectionTests.swift:\(featureLine)\\ngraph"];
                    n0 -> n2;
                    n0 -> n3;
                    n2 -> n1;
                }

                """)
            let nodes = feature.verify().graph.nodes
            #expect(nodes.map(\.instanceType) == [nil, nil, "GreetingPlugin", "NamedPlugin"])
            #expect(nodes.map(\.registeredAt) == [nil, nil, "ResolverTests/CollectionTests.swift:\(appLine)",
                                                  "ResolverTests/CollectionTests.swift:\(featureLine)"])
        }

        /// Two elements of one list that build different types, async ones
        /// included, and one that returns nil (no instance: its list's type).
        @Test func elementNodesTellTheirInstancesApart() {
            let container = Resolver()
            let line = #line + 1
            container.register(into: [any Plugin].self, name: "apart") { NamedPlugin("metrics") }
            container.register(into: [any Plugin].self, name: "apart") { await LoadedPlugin("audit") }
            container.register(into: [any Plugin].self, name: "apart") { () -> (any Plugin)? in nil }
            let dot = container.graph(format: .dot)
            let place = "ResolverTests/CollectionTests.swift"
            #expect(dot.contains(#"n1 [label="NamedPlugin\nname: [Plugin]:apart #1\nat: \#(place):\#(line)\ngraph"];"#), "\(dot)")
            #expect(dot.contains(#"n2 [label="LoadedPlugin\nname: [Plugin]:apart #2\nat: \#(place):\#(line + 1)\ngraph, async"];"#),
                    "\(dot)")
            #expect(dot.contains(#"n3 [label="Plugin\nname: [Plugin]:apart #3\nat: \#(place):\#(line + 2)\ngraph"];"#), "\(dot)")
        }
    }
}

extension ResolverTests {
    /// Collections through the static API, `root` and `withRoot`.
    @Suite struct StaticCollections {
        init() {
            Resolver.reset()
        }

        @Test func staticRegistrationAndInjectedUseMainAndRoot() {
            Resolver.register(into: [any Plugin].self) { NamedPlugin("main 1") }
            Resolver.main.register(into: [any Plugin].self) { NamedPlugin("main 2") }

            final class Host {
                @Injected var plugins: [any Plugin]
                @LazyInjected var lazyPlugins: [any Plugin]
            }
            let host = Host()
            #expect(host.plugins.map(\.label) == ["main 1", "main 2"])
            #expect(host.lazyPlugins.map(\.label) == ["main 1", "main 2"])
            #expect(Resolver.resolve([any Plugin].self).map(\.label) == ["main 1", "main 2"])
            Resolver.reset()
            #expect(Resolver.optional([any Plugin].self) == nil, "a reset drops the elements with main")
        }

        @Test func withRootATestContainerAddsAnElement() async {
            Resolver.register(into: [any Plugin].self) { NamedPlugin("app") }
            let mocks = Resolver(child: .main, isolatedScopes: true)
            mocks.register(into: [any Plugin].self) { NamedPlugin("mock") }

            Resolver.withRoot(mocks) {
                #expect(Resolver.resolve([any Plugin].self).map(\.label) == ["app", "mock"])
            }
            let inTask = await Resolver.withRoot(mocks) {
                await Resolver.resolveAsync([any Plugin].self).map(\.label)
            }
            #expect(inTask == ["app", "mock"])
            #expect(Resolver.resolve([any Plugin].self).map(\.label) == ["app"])
        }

        @Test func aRecordedGraphHasTheEdgesFromTheList() {
            Resolver.register { Greeting("hello") }
            Resolver.register(into: [any Plugin].self, name: "recorded") { r in GreetingPlugin(greeting: r.resolve()) }
            Resolver.isRecordingGraph = true
            defer { Resolver.isRecordingGraph = false }
            _ = Resolver.resolve([any Plugin].self, name: "recorded")

            let graph = Resolver.root.recordedGraph
            #expect(graph.edges.map { "\($0.from) -> \($0.to)" } == [
                "Array<Plugin>:recorded -> Plugin:[Plugin]:recorded #1",
                "Plugin:[Plugin]:recorded #1 -> Greeting",
            ])
        }
    }
}
