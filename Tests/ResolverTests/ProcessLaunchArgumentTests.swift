import Resolver
import ResolverTestSupport
import Testing

// Launch arguments set and removed for the whole process (issue 43):
// `ResolverContext.setLaunchArgument(_:)` and `removeLaunchArgument(_:)`,
// seen by every thread and task, with a task's `withLaunchArguments`
// winning inside it. They change process-wide state, so the tests run in a
// suite of `ResolverTests`, each with an argument of its own that it removes
// before it ends. The example of the testing article (Testing.md,
// "Contexts") is compiled and run here (`theExampleIsTheArticles`). A program
// that sets an argument before its first resolve, on a new thread:
// ContextTests, `aProgramSeesAnArgumentSetOrRemovedProcessWideOnANewThread`.

private protocol Clock: AnyObject {
    var name: String { get }
}
private final class NamedClock: Clock, @unchecked Sendable {
    let name: String
    init(_ name: String) { self.name = name }
}

extension ResolverKeys {
    fileprivate var pwClock: ResolverKey<any Clock> {
        ResolverKey { NamedClock("live") }.onArg("-pw-key") { NamedClock("argument") }.scope(.unique)
    }
}

/// The article's example: a debug menu's switch.
// DOC EXAMPLE: Sources/Resolver/Resolver.docc/Testing.md
func mockAPIToggled(_ on: Bool) {                           // a debug menu's switch
    if on {
        ResolverContext.setLaunchArgument("-mock-api")
    } else {
        ResolverContext.removeLaunchArgument("-mock-api")    // one the app was launched with too
    }
}
// END DOC EXAMPLE

/// A container with an `onArg(argument)` registration of each scope: a
/// `.unique` one, which builds at every resolve, and a `.container` one,
/// which keeps what it built first.
private func containerWithArgument(_ argument: String) -> Resolver {
    let container = Resolver()
    container.register { NamedClock("live") as Clock }
        .onArg(argument) { NamedClock("argument") as Clock }
        .scope(.unique)
    container.register(name: "kept") { NamedClock("live") as Clock }
        .onArg(argument) { NamedClock("argument") as Clock }
        .scope(.container)
    return container
}

/// What a new thread (no task, no task-local) sees: whether the process
/// has `argument`, and the name `container` resolves.
private func onANewThread(_ argument: String, _ container: Resolver) -> (has: Bool, resolved: String) {
    let seen = Locked((false, ""))
    runOnThreads(1) { _ in
        let has = ResolverContext.hasLaunchArgument(argument)
        let resolved = container.resolve(Clock.self).name
        seen.withLock { $0 = (has, resolved) }
    }
    return seen.withLock { $0 }
}

extension ResolverTests {
    /// `setLaunchArgument` and `removeLaunchArgument`: the process's
    /// arguments, for every thread and task.
    @Suite struct ProcessWideLaunchArguments {
        @Test func theExampleIsTheArticles() throws {
            #expect(try docExamples(in: #filePath).count == 1)
            let mismatches = try docExampleMismatches(in: #filePath)
            #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n\n"))")
        }

        @Test func theArticlesSwitchTurnsTheMockOnAndOffForEveryThread() {
            let container = containerWithArgument("-mock-api")
            defer { ResolverContext.removeLaunchArgument("-mock-api") }
            mockAPIToggled(true)
            #expect(onANewThread("-mock-api", container) == (true, "argument"))
            mockAPIToggled(false)
            #expect(onANewThread("-mock-api", container) == (false, "live"))
        }

        @Test func aPlainThreadSeesAnArgumentSetAndRemovedProcessWide() {
            let container = containerWithArgument("-pw-thread")
            defer { ResolverContext.removeLaunchArgument("-pw-thread") }
            #expect(onANewThread("-pw-thread", container) == (false, "live"))
            ResolverContext.setLaunchArgument("-pw-thread")
            #expect(onANewThread("-pw-thread", container) == (true, "argument"))
            ResolverContext.removeLaunchArgument("-pw-thread")
            #expect(onANewThread("-pw-thread", container) == (false, "live"))
        }

        @Test func aTaskSeesAnArgumentSetProcessWide() async {
            let container = containerWithArgument("-pw-task")
            defer { ResolverContext.removeLaunchArgument("-pw-task") }
            ResolverContext.setLaunchArgument("-pw-task")
            let detached = await Task.detached { ResolverContext.hasLaunchArgument("-pw-task") }.value
            #expect(detached)
            let resolved = await Task { container.resolve(Clock.self).name }.value
            #expect(resolved == "argument")
            ResolverContext.removeLaunchArgument("-pw-task")
            let afterRemoval = await Task.detached { ResolverContext.hasLaunchArgument("-pw-task") }.value
            #expect(!afterRemoval)
        }

        /// Inside `withLaunchArguments`, the task's `removing:` hides an
        /// argument set process-wide and its `adding:` adds one removed
        /// process-wide; every other thread keeps the process's answer.
        @Test func aTasksChangesWinOverTheProcessWideOnesInsideItOnly() {
            let container = containerWithArgument("-pw-precedence")
            defer { ResolverContext.removeLaunchArgument("-pw-precedence") }
            ResolverContext.setLaunchArgument("-pw-precedence")
            ResolverContext.withLaunchArguments(removing: ["-pw-precedence"]) {
                #expect(!ResolverContext.hasLaunchArgument("-pw-precedence"))
                #expect(container.resolve(Clock.self).name == "live")
                #expect(onANewThread("-pw-precedence", container) == (true, "argument"), "another thread: the process's")
            }
            #expect(ResolverContext.hasLaunchArgument("-pw-precedence"))
            ResolverContext.removeLaunchArgument("-pw-precedence")
            ResolverContext.withLaunchArguments(adding: ["-pw-precedence"]) {
                #expect(ResolverContext.hasLaunchArgument("-pw-precedence"))
                #expect(container.resolve(Clock.self).name == "argument")
                #expect(onANewThread("-pw-precedence", container) == (false, "live"), "another thread: the process's")
            }
        }

        /// Decided at each build: a `.unique` registration follows the
        /// argument; a caching scope keeps the instance it built before.
        @Test func anOnArgRegistrationBuildsWithTheArgumentsFactoryWhileItIsSet() {
            let container = containerWithArgument("-pw-registration")
            defer { ResolverContext.removeLaunchArgument("-pw-registration") }
            let kept = container.resolve(Clock.self, name: "kept")
            #expect(kept.name == "live")
            ResolverContext.setLaunchArgument("-pw-registration")
            #expect(container.resolve(Clock.self).name == "argument")
            #expect(container.resolve(Clock.self, name: "kept") === kept, "the cached instance, built live")
            ResolverContext.removeLaunchArgument("-pw-registration")
            #expect(container.resolve(Clock.self).name == "live")
        }

        @Test func anOnArgKeyBuildsWithTheArgumentsFactoryWhileItIsSet() {
            defer { ResolverContext.removeLaunchArgument("-pw-key") }
            let container = Resolver()
            #expect(container.resolve(\.pwClock).name == "live")
            ResolverContext.setLaunchArgument("-pw-key")
            #expect(Resolver.resolve(\.pwClock).name == "argument")
            #expect(container.resolve(\.pwClock).name == "argument")
            ResolverContext.removeLaunchArgument("-pw-key")
            #expect(container.resolve(\.pwClock).name == "live")
        }

        /// The last call wins; setting twice needs one removal.
        @Test func theLastCallForAnArgumentWins() {
            defer { ResolverContext.removeLaunchArgument("-pw-twice") }
            ResolverContext.setLaunchArgument("-pw-twice")
            ResolverContext.setLaunchArgument("-pw-twice")
            ResolverContext.removeLaunchArgument("-pw-twice")
            #expect(!ResolverContext.hasLaunchArgument("-pw-twice"))
            ResolverContext.removeLaunchArgument("-pw-twice")
            ResolverContext.setLaunchArgument("-pw-twice")
            #expect(ResolverContext.hasLaunchArgument("-pw-twice"))
        }
    }
}
