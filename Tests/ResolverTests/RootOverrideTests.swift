import Resolver
import ResolverTestSupport
import Testing

/// Services only these tests register.
private final class Greeting: @unchecked Sendable {
    let text: String
    init(_ text: String) { self.text = text }
}

private final class Holder {
    @Injected var injected: Greeting
    @LazyInjected var lazy: Greeting
    @OptionalInjected var optional: Greeting?
}

private struct Failure: Error {}

extension ResolverTests {
    /// `Resolver.withRoot(_:operation:)` and `Resolver(child:isolatedScopes:)`.
    @Suite struct RootOverride {
        init() {
            Resolver.main.register { Greeting("main") }
        }

        private func mocks(_ text: String) -> Resolver {
            let container = Resolver(child: .main, isolatedScopes: true)
            container.register { Greeting(text) }
            return container
        }

        @Test func staticResolvesAndRootUseTheContainerInside() {
            let container = mocks("mock")
            let inside = Resolver.withRoot(container) { () -> String in
                #expect(Resolver.root === container)
                #expect(Resolver.optional(Greeting.self)?.text == "mock")
                return Resolver.resolve(Greeting.self).text
            }
            #expect(inside == "mock")
            #expect(Resolver.root !== container, "the app-wide root is back afterwards")
            #expect(Resolver.resolve(Greeting.self).text == "main")
        }

        @Test func propertyWrappersWithoutAContainerUseIt() {
            let holder = Resolver.withRoot(mocks("mock")) { () -> Holder in
                let holder = Holder()
                _ = holder.lazy   // the first read happens inside
                return holder
            }
            #expect(holder.injected.text == "mock")
            #expect(holder.lazy.text == "mock")
            #expect(holder.optional?.text == "mock")
            #expect(Holder().injected.text == "main")
        }

        @Test func otherThreadsKeepTheAppWideRoot() {
            let seen = Locked<[String]>([])
            Resolver.withRoot(mocks("mock")) {
                seen.withLock { $0.append(Resolver.resolve(Greeting.self).text) }
                runOnThreads(2) { _ in
                    let text = Resolver.resolve(Greeting.self).text
                    seen.withLock { $0.append(text) }
                }
            }
            #expect(seen.withLock { $0 } == ["mock", "main", "main"])
        }

        @Test func childTasksInheritItAndDetachedTasksDoNot() async {
            let container = mocks("mock")
            let (child, group, detached) = await Resolver.withRoot(container) { () async -> (String, [String], String) in
                async let child = Resolver.resolve(Greeting.self).text
                let group = await withTaskGroup(of: String.self) { tasks in
                    for _ in 0..<4 { tasks.addTask { Resolver.resolve(Greeting.self).text } }
                    return await tasks.reduce(into: []) { $0.append($1) }
                }
                let detached = await Task.detached { Resolver.resolve(Greeting.self).text }.value
                return (await child, group, detached)
            }
            #expect(child == "mock")
            #expect(group == ["mock", "mock", "mock", "mock"])
            #expect(detached == "main")
        }

        @Test func nestedCallsRestoreTheOuterContainer() {
            let outer = mocks("outer"), inner = mocks("inner")
            let texts = Resolver.withRoot(outer) { () -> [String] in
                var texts = [Resolver.resolve(Greeting.self).text]
                texts.append(Resolver.withRoot(inner) { Resolver.resolve(Greeting.self).text })
                texts.append(Resolver.resolve(Greeting.self).text)
                return texts
            }
            #expect(texts == ["outer", "inner", "outer"])
        }

        @Test func errorsPassThroughAndTheRootIsRestored() {
            let container = mocks("mock")
            #expect(throws: Failure.self) {
                try Resolver.withRoot(container) { throw Failure() }
            }
            #expect(Resolver.resolve(Greeting.self).text == "main")
        }

        /// Each isolated container keeps its own `.application`, `.cached`
        /// and `.shared` instances; registrations still come from `main`.
        @Test(arguments: ["application", "cached", "shared"])
        func isolatedContainersKeepTheirOwnSingletons(scope: String) {
            final class Single {}
            let resolverScope: ResolverScope = scope == "application" ? .application : scope == "cached" ? .cached : .shared
            Resolver.main.register(name: .init(scope)) { Single() }.scope(resolverScope)
            let first = Resolver(child: .main, isolatedScopes: true)
            let second = Resolver(child: .main, isolatedScopes: true)
            let name = Resolver.Name(scope)
            let mainOne: Single = Resolver.main.resolve(name: name)
            let firstOne: Single = first.resolve(name: name)
            let secondOne: Single = second.resolve(name: name)
            #expect(firstOne !== mainOne && secondOne !== mainOne && firstOne !== secondOne)
            #expect(first.resolve(Single.self, name: name) === firstOne, "still one instance per container")
            #expect(Resolver.main.resolve(Single.self, name: name) === mainOne)
            let plain = Resolver(child: .main)
            #expect(plain.resolve(Single.self, name: name) === mainOne, "a container without isolation shares the app's")
        }
    }
}
