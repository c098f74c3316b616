@testable import Resolver
import ResolverTestSupport
import Testing

// Services for the context tests.
private protocol Clock: AnyObject {
    var name: String { get }
}
private final class NamedClock: Clock {
    let name: String
    init(_ name: String) { self.name = name }
}
private final class Store {
    let name: String
    init(_ name: String) { self.name = name }
    static func live() async -> Store {
        await Task.yield()
        return Store("live")
    }
}

extension IndependentTests {
    /// Contexts on a registration (`onTest`, `onPreview`, `onArg`,
    /// `onDebug`), from a program in child processes (ResolverContextProbe)
    /// and under `swift test`.
    @Suite struct Contexts {
        // MARK: In a program (child processes)

        @Test func aProgramWithoutArgumentsResolvesTheDebugFactoryInADebugBuild() throws {
            let run = try runProgram("ResolverContextProbe", ["all"])
            #expect(run.status == 0, "\(run.output)")
            #expect(run.output.contains("resolved: debug"), "\(run.output)")
            #expect(run.output.contains("isRunningTests: false"), "a program the tests start is not under test: \(run.output)")
            #expect(run.output.contains("isRunningForPreviews: false"), "\(run.output)")
        }

        @Test func aProgramLaunchedWithTheArgumentResolvesItsFactoryBeforeEveryOtherContext() throws {
            let run = try runProgram("ResolverContextProbe", ["all", "-mock-api"],
                                     environment: ["XCODE_RUNNING_FOR_PREVIEWS": "1"])
            #expect(run.output.contains("resolved: argument"), "\(run.output)")
            #expect(run.output.contains("hasLaunchArgument: true"), "\(run.output)")
        }

        @Test func aProgramRunForPreviewsResolvesThePreviewFactory() throws {
            let run = try runProgram("ResolverContextProbe", ["all"], environment: ["XCODE_RUNNING_FOR_PREVIEWS": "1"])
            #expect(run.output.contains("resolved: preview"), "\(run.output)")
            #expect(run.output.contains("isRunningForPreviews: true"), "\(run.output)")
            let other = try runProgram("ResolverContextProbe", ["all"], environment: ["XCODE_RUNNING_FOR_PREVIEWS": "0"])
            #expect(other.output.contains("resolved: debug"), "only the value 1 means previews: \(other.output)")
        }

        @Test func aProgramWithXcodesTestVariablesResolvesTheTestFactory() throws {
            let run = try runProgram("ResolverContextProbe", ["all"], environment: ["XCTestConfigurationFilePath": "/tmp/x"])
            #expect(run.output.contains("resolved: test"), "\(run.output)")
            #expect(run.output.contains("isRunningTests: true"), "\(run.output)")
        }

        /// One context per static registration in `main`: each applies
        /// alone, or leaves the live factory.
        @Test func eachContextAloneAppliesOnlyInItsOwnContext() throws {
            let plain = try runProgram("ResolverContextProbe", ["each"])
            #expect(plain.output.contains("test: live\npreview: live\nargument: live\ndebug: debug"), "\(plain.output)")
            let everything = try runProgram("ResolverContextProbe", ["each", "-mock-api"],
                                            environment: ["XCODE_RUNNING_FOR_PREVIEWS": "1", "XCTestBundlePath": "/tmp/x"])
            #expect(everything.output.contains("test: test\npreview: preview\nargument: argument\ndebug: debug"),
                    "\(everything.output)")
        }

        @Test func aTaskAddsOrRemovesLaunchArgumentsForItselfOnly() throws {
            let without = try runProgram("ResolverContextProbe", ["task-arguments"])
            #expect(without.output.contains("adding: argument\nremoving: live\noutside: live"), "\(without.output)")
            let with = try runProgram("ResolverContextProbe", ["task-arguments", "-mock-api"])
            #expect(with.output.contains("adding: argument\nremoving: live\noutside: argument"), "\(with.output)")
        }

        /// Set, then removed, for the whole process before the first
        /// resolve, which runs on a new thread: each change is seen there;
        /// removing an argument the program was launched with hides it.
        @Test func aProgramSeesAnArgumentSetOrRemovedProcessWideOnANewThread() throws {
            let without = try runProgram("ResolverContextProbe", ["process-arguments"])
            #expect(without.output.contains("set: argument\nremoved: live"), "\(without.output)")
            let with = try runProgram("ResolverContextProbe", ["process-arguments", "-mock-api"])
            #expect(with.output.contains("set: argument\nremoved: live"), "\(with.output)")
        }

        // MARK: Under swift test

        @Test func underSwiftTestTheTestContextApplies() {
            #expect(ResolverContext.isRunningTests)
            let container = Resolver()
            container.register { NamedClock("live") as Clock }.onTest { NamedClock("test") as Clock }
            container.register(name: "resolver") { NamedClock("live") as Clock }.onTest { _ in NamedClock("test") as Clock }
            container.register(name: "args") { NamedClock("live") as Clock }
                .onTest { _, args in NamedClock(args()) as Clock }
            #expect(container.resolve(Clock.self).name == "test")
            #expect(container.resolve(Clock.self, name: "resolver").name == "test")
            #expect(container.resolve(Clock.self, name: "args", args: "from args").name == "from args")
        }

        /// Argument, preview, test, debug: the first that applies wins,
        /// whatever order the modifiers are written in.
        @Test func severalContextsResolveInOneOrderWhateverTheOrderWritten() {
            let container = Resolver()
            container.register { NamedClock("live") as Clock }
                .onDebug { NamedClock("debug") as Clock }
                .onTest { NamedClock("test") as Clock }
                .onArg("-fake-clock") { NamedClock("argument") as Clock }
                .onPreview { NamedClock("preview") as Clock }
            #expect(container.resolve(Clock.self).name == "test")
            ResolverContext.withLaunchArguments(adding: ["-fake-clock"]) {
                #expect(container.resolve(Clock.self).name == "argument")
            }
            container.register(name: "debug") { NamedClock("live") as Clock }.onDebug { NamedClock("debug") as Clock }
            // onDebug sees how this module (the tests, its caller) was built.
            #if DEBUG
            let expected = "debug"
            #else
            let expected = "live"
            #endif
            #expect(container.resolve(Clock.self, name: "debug").name == expected)
        }

        /// A context that does not apply changes nothing: the registration
        /// keeps its own factory, installed nowhere.
        @Test func aContextThatDoesNotApplyLeavesTheRegistrationAsItWas() {
            let container = Resolver()
            let options = container.register { NamedClock("live") as Clock }.onPreview { NamedClock("preview") as Clock }
            #expect(container.resolve(Clock.self).name == "live")
            #expect(options.registration.contexts == nil)
            #expect(registry.withLock { options.registration.installedFactoryLocked } == nil)
        }

        @Test func launchArgumentsChangedForATaskReachTheTasksItStarts() async {
            let container = Resolver()
            container.register { NamedClock("live") as Clock }.onArg("-fake-clock") { NamedClock("argument") as Clock }
            await ResolverContext.withLaunchArguments(adding: ["-fake-clock"]) {
                let name = await Task { container.resolve(Clock.self).name }.value
                #expect(name == "argument")
                ResolverContext.withLaunchArguments(removing: ["-fake-clock"]) {
                    #expect(!ResolverContext.hasLaunchArgument("-fake-clock"))
                    #expect(container.resolve(Clock.self).name == "live")
                }
            }
            #expect(container.resolve(Clock.self).name == "live")
        }

        /// An async registration whose test context applies never runs its
        /// async factory: `resolveAsync` and a synchronous resolve both get
        /// the test's instance.
        @Test func anAsyncRegistrationWithATestContextNeverRunsItsLiveFactory() async {
            let container = Resolver()
            let liveBuilds = Counter()
            container.register { () async -> Store in
                liveBuilds.increment()
                return await Store.live()
            }.onTest { Store("test") }
            #expect(await container.resolveAsync(Store.self).name == "test")
            #expect(container.resolve(Store.self).name == "test")
            #expect(liveBuilds.count == 0)
        }

        @Test func resolvePropertiesWrittenAfterAContextApplyToItsInstances() {
            let container = Resolver()
            let blocks = Counter()
            container.register { NamedClock("live") as Clock }
                .onTest { NamedClock("test") as Clock }
                .resolveProperties { _, _ in blocks.increment() }
            #expect(container.resolve(Clock.self).name == "test")
            #expect(blocks.count == 1)
        }

        /// A list's element takes contexts as any registration does.
        @Test func aListElementResolvesItsTestFactoryUnderTest() {
            let container = Resolver()
            container.register(into: [Clock].self) { NamedClock("live") as Clock }.onTest { NamedClock("test") as Clock }
            container.register(into: [Clock].self) { NamedClock("second") as Clock }
            #expect(container.resolve([Clock].self).map(\.name) == ["test", "second"])
        }

        /// A `@MainActor` registration's test factory is an ordinary one.
        @Test @MainActor func aMainActorRegistrationResolvesItsTestFactory() {
            let container = Resolver()
            container.register { @MainActor in NamedClock("live") as Clock }.onTest { NamedClock("test") as Clock }
            #expect(container.resolve(Clock.self).name == "test")
        }

        @Test func aCachedContextInstanceIsKeptLikeAnyOther() {
            let container = Resolver()
            container.register { NamedClock("live") as Clock }.onTest { NamedClock("test") as Clock }.scope(.container)
            #expect(container.resolve(Clock.self) === container.resolve(Clock.self))
        }
    }
}
