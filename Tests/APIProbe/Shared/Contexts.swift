// Contexts on a registration, strict-test marks and registration places (the
// additions of the tests-and-previews issue), used as apps use them, in Swift 5
// (APIProbe5) and Swift 6 (APIProbe6) language modes with warnings as errors.
// The probe is a program: not under test and not run for previews, so only
// `onArg` (through `withLaunchArguments`) and `onDebug` (in a debug build)
// apply here. Each use is checked when it runs.
import Resolver

protocol ProbeAPI: AnyObject {
    var kind: String { get }
}

final class ProbeLiveAPI: ProbeAPI {
    let kind = "live"
}

final class ProbeOtherAPI: ProbeAPI {
    let kind: String
    init(_ kind: String) {
        self.kind = kind
    }
}

/// Uses the additions; returns what did not behave.
func useContexts() -> [String] {
    var failures: [String] = []
    let container = Resolver()

    // Every context, in each closure shape, on a container's registration.
    container.register { ProbeLiveAPI() as ProbeAPI }
        .onTest { ProbeOtherAPI("test") as ProbeAPI }
        .onPreview { _ in ProbeOtherAPI("preview") as ProbeAPI }
        .onArg("-probe-mock") { _, _ in ProbeOtherAPI("argument") as ProbeAPI }
        .allowedInStrictTests()
    if ResolverContext.isRunningTests || ResolverContext.isRunningForPreviews {
        failures.append("a program is neither under test nor run for previews")
    }
    if container.resolve(ProbeAPI.self).kind != "live" { failures.append("no context applies in a program") }
    let launched = ResolverContext.withLaunchArguments(adding: ["-probe-mock"]) {
        container.resolve(ProbeAPI.self).kind
    }
    if launched != "argument" { failures.append("onArg with the argument added for this task") }
    if ResolverContext.hasLaunchArgument("-probe-mock") { failures.append("the argument outside withLaunchArguments") }
    ResolverContext.setLaunchArgument("-probe-mock")
    let removedForTheTask = ResolverContext.withLaunchArguments(removing: ["-probe-mock"]) {
        container.resolve(ProbeAPI.self).kind
    }
    if container.resolve(ProbeAPI.self).kind != "argument" || removedForTheTask != "live" {
        failures.append("onArg with the argument set for the process, removed for a task")
    }
    ResolverContext.removeLaunchArgument("-probe-mock")
    if ResolverContext.hasLaunchArgument("-probe-mock") { failures.append("the argument removed for the process") }

    // onDebug, statically registered, named.
    Resolver.register(name: "probe-debug") { ProbeLiveAPI() as ProbeAPI }
        .onDebug { ProbeOtherAPI("debug") as ProbeAPI }
    let expected = ResolverContext.isDebugBuild ? "debug" : "live"
    if Resolver.resolve(ProbeAPI.self, name: "probe-debug").kind != expected { failures.append("onDebug") }

    // Places: a registration knows its register call; verify() lists a replacement.
    let first = container.register(name: "twice") { ProbeLiveAPI() as ProbeAPI }
    let second = container.register(name: "twice") { ProbeOtherAPI("mock") as ProbeAPI }
    if first.registration.registeredAt?.hasSuffix("Contexts.swift:\(#line - 2)") != true {
        failures.append("registeredAt: \(first.registration.registeredAt ?? "nil")")
    }
    let replaced = container.verify().replacements.filter { $0.registeredAt == second.registration.registeredAt }
    if replaced.count != 1 || replaced.first?.replacedRegistrationAt != first.registration.registeredAt {
        failures.append("verify().replacements: \(replaced)")
    }
    return failures
}
