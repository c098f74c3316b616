// The API this library adds to 1.5.1's, used as apps use it, in Swift 5
// (APIProbe5) and Swift 6 (APIProbe6) language modes with warnings as
// errors: a new overload that made one of these calls ambiguous, or an error
// in either mode, fails `make test` here. Each use is checked when it runs.
import Resolver

final class ProbeUser: @unchecked Sendable {
    let id: Int
    let name: String
    init(id: Int, name: String) {
        self.id = id
        self.name = name
    }
}

/// `@DynamicInjected` by type, each spelling: resolved at every read.
final class ProbeDynamicScreen {
    @DynamicInjected var user: ProbeUser
    @DynamicInjected(name: "dynamic", container: probeDynamicContainer) var named: ProbeUser
    @DynamicInjected(container: nil) var fromRoot: ProbeUser
}

let probeDynamicContainer = Resolver()

/// Uses the additions; returns what did not behave.
func useBeyondResolver() -> [String] {
    var failures: [String] = []
    let container = Resolver()

    // Typed arguments: one, several; named; static and on a container.
    container.register(arguments: Int.self, String.self) { _, id, name in ProbeUser(id: id, name: name) }
    container.register(name: "one", arguments: Int.self) { _, id in ProbeUser(id: id, name: "one") }
        .scope(.application)
    let user = container.resolve(ProbeUser.self, arguments: 7, "ada")
    if user.id != 7 || user.name != "ada" { failures.append("resolve(_:arguments:)") }
    let one: ProbeUser = container.resolve(name: "one", arguments: 1)
    if one !== container.optional(ProbeUser.self, name: "one", arguments: 1) { failures.append("one instance per list") }
    if container.optional(ProbeUser.self, name: "none", arguments: 1) != nil { failures.append("optional(_:arguments:)") }
    Resolver.register(name: "probe", arguments: Int.self) { r, id in ProbeUser(id: id, name: "static") }
    if Resolver.resolve(ProbeUser.self, name: "probe", arguments: 3).id != 3 { failures.append("static arguments") }

    // @DynamicInjected: a resolve at each read; the wrapper is Sendable when its service is.
    Resolver.register { ProbeUser(id: 0, name: "root") }.scope(.unique)
    probeDynamicContainer.register(name: "dynamic") { ProbeUser(id: 1, name: "container") }
    let screen = ProbeDynamicScreen()
    if screen.user === screen.user || screen.fromRoot.name != "root" { failures.append("@DynamicInjected") }
    if screen.named.name != "container" { failures.append("@DynamicInjected(name:container:)") }
    let wrapper: DynamicInjected<ProbeUser> = screen.$user
    let _: any Sendable = wrapper
    Resolver.register { ProbeUser(id: 2, name: "again") }
    if wrapper.wrappedValue.name != "again" { failures.append("@DynamicInjected reads the registration of the moment") }
    return failures
}
