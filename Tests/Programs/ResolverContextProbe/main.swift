// A program the tests (and `make test-contexts`) run as a child process, to
// see which context of a registration applies in a program: launched with or
// without an argument, with XCODE_RUNNING_FOR_PREVIEWS=1, with Xcode's test
// variables, built for debug or release. Each scenario prints what it
// resolved, one `name: value` line each.
import Resolver
import ResolverTestSupport

protocol API: Sendable {
    var name: String { get }
}

struct NamedAPI: API {
    let name: String
}

let scenario = CommandLine.arguments.dropFirst().first ?? "all"

/// A registration with every context: which one resolves.
func registerEveryContext(in container: Resolver) {
    container.register { NamedAPI(name: "live") as API }
        .onTest { NamedAPI(name: "test") as API }
        .onPreview { NamedAPI(name: "preview") as API }
        .onArg("-mock-api") { NamedAPI(name: "argument") as API }
        .onDebug { NamedAPI(name: "debug") as API }
}

switch scenario {
case "all":
    let container = Resolver()
    registerEveryContext(in: container)
    print("resolved: \(container.resolve(API.self).name)")
    print("isRunningTests: \(ResolverContext.isRunningTests)")
    print("isRunningForPreviews: \(ResolverContext.isRunningForPreviews)")
    print("hasLaunchArgument: \(ResolverContext.hasLaunchArgument("-mock-api"))")
case "each":
    // One context per registration, in `main` (static register).
    Resolver.register(name: "test") { NamedAPI(name: "live") as API }.onTest { NamedAPI(name: "test") as API }
    Resolver.register(name: "preview") { NamedAPI(name: "live") as API }.onPreview { r in NamedAPI(name: "preview") as API }
    Resolver.register(name: "argument") { NamedAPI(name: "live") as API }
        .onArg("-mock-api") { _, _ in NamedAPI(name: "argument") as API }
    Resolver.register(name: "debug") { NamedAPI(name: "live") as API }.onDebug { NamedAPI(name: "debug") as API }
    for name in ["test", "preview", "argument", "debug"] {
        print("\(name): \(Resolver.resolve(API.self, name: Resolver.Name(name)).name)")
    }
case "task-arguments":
    // The launch arguments changed for one task: instances built inside see
    // the change, a transient one built outside does not.
    let container = Resolver()
    registerEveryContext(in: container)
    container.register(name: "transient") { NamedAPI(name: "live") as API }
        .onArg("-mock-api") { NamedAPI(name: "argument") as API }
    ResolverContext.withLaunchArguments(adding: ["-mock-api"]) {
        print("adding: \(container.resolve(API.self, name: "transient").name)")
    }
    ResolverContext.withLaunchArguments(removing: ["-mock-api"]) {
        print("removing: \(container.resolve(API.self, name: "transient").name)")
    }
    print("outside: \(container.resolve(API.self, name: "transient").name)")
case "process-arguments":
    // The argument set, then removed, for the whole process before anything
    // resolves; each resolve runs on a new thread (no task, no task-local),
    // its first. Removing it hides it whether or not the program was
    // launched with it.
    let container = Resolver()
    container.register(name: "transient") { NamedAPI(name: "live") as API }
        .onArg("-mock-api") { NamedAPI(name: "argument") as API }
    func resolvedOnANewThread() -> String {
        let name = Locked("")
        runOnThreads(1) { _ in
            let resolved = container.resolve(API.self, name: "transient").name
            name.withLock { $0 = resolved }
        }
        return name.withLock { $0 }
    }
    ResolverContext.setLaunchArgument("-mock-api")
    print("set: \(resolvedOnANewThread())")
    ResolverContext.removeLaunchArgument("-mock-api")
    print("removed: \(resolvedOnANewThread())")
default:
    print("unknown scenario \(scenario)")
}
