// Contexts on a registration: another factory for tests, Xcode's previews,
// a launch argument or a debug build of the app, written where the live one
// is registered:
//
//     Resolver.register { LiveAPI() as API }
//         .onTest { StubAPI() as API }
//         .onPreview { PreviewAPI() as API }
//         .onArg("-mock-api") { MockAPI() as API }
//         .onDebug { VerboseAPI() as API }
//
// Decided once when the modifier runs, but launch arguments at each build;
// the first that applies wins in Factory's order: argument, preview, test,
// debug (DESIGN.md, C1–C3).

/// What the contexts of a registration (`onTest(_:)`, `onPreview(_:)`, `onArg(_:_:)`,
/// `onDebug(_:)`) see of the process.
public enum ResolverContext {
    /// Whether a test runner runs this process: `swift test` (XCTest or Swift Testing) or Xcode's
    /// tests. Decided once: Xcode's test variables (`XCTestConfigurationFilePath`,
    /// `XCTestBundlePath`, `XCTestSessionIdentifier`), or XCTest or Swift Testing loaded.
    public static var isRunningTests: Bool {
        ProcessContext.isRunningTests
    }

    /// Whether Xcode runs this process for its previews
    /// (`XCODE_RUNNING_FOR_PREVIEWS=1`). Decided once.
    public static var isRunningForPreviews: Bool {
        ProcessContext.isRunningForPreviews
    }

    /// Whether this is a debug build, as `onDebug(_:)` decides it: `DEBUG` defined where this
    /// package was compiled, the app's configuration when SwiftPM or Xcode builds the package
    /// with the app (Debug: true; Release, `swift build -c release`: false).
    public static var isDebugBuild: Bool {
        ProcessContext.isDebugBuild
    }

    /// Whether the process was launched with `argument` (an exact match of one of
    /// `CommandLine.arguments` after the program's path), as changed for the process by
    /// ``setLaunchArgument(_:)`` and ``removeLaunchArgument(_:)``, then for this task by
    /// ``withLaunchArguments(adding:removing:operation:)``, whose change wins in the task.
    public static func hasLaunchArgument(_ argument: String) -> Bool {
        if let changes = launchArgumentChanges {
            if changes.removed.contains(argument) {
                return false
            }
            if changes.added.contains(argument) {
                return true
            }
        }
        return ProcessLaunchArguments.shared.contains(argument)
    }

    /// Adds `argument` to the launch arguments of the whole process, as if it had been launched
    /// with it: `ResolverContext.setLaunchArgument("-mock-api")` (Factory's `FactoryContext.setArg`).
    ///
    /// Every thread and task sees it from now on, except a task that removes it with
    /// ``withLaunchArguments(adding:removing:operation:)``; an `onArg(_:_:)` registration builds
    /// with its factory from its next build (an instance a caching scope holds keeps the factory
    /// it was built with). Safe to call from any thread; the last call for an argument wins.
    ///
    /// - Parameter argument: the argument, as `onArg(_:_:)` names it.
    public static func setLaunchArgument(_ argument: String) {
        ProcessLaunchArguments.shared.update(argument, present: true)
    }

    /// Removes `argument` from the launch arguments of the whole process, one it was launched with
    /// too: `ResolverContext.removeLaunchArgument("-mock-api")` (Factory's `FactoryContext.removeArg`).
    /// As ``setLaunchArgument(_:)``, the other way.
    ///
    /// - Parameter argument: the argument, as `onArg(_:_:)` names it.
    public static func removeLaunchArgument(_ argument: String) {
        ProcessLaunchArguments.shared.update(argument, present: false)
    }

    /// Runs `operation` as if the process had also been launched with `adding` and without
    /// `removing`, for the current task and the tasks it starts (task-local, like
    /// `Resolver.withRoot`): how a test checks an `onArg(_:_:)` registration without relaunching.
    /// Instances built inside see the change; instances cached before keep what they were built
    /// with, so pair it with a container of the test's own (`.resolver { … }` of ResolverTesting).
    /// Nested calls add to the outer one's changes, and the task's changes win over the process's
    /// inside it.
    public static func withLaunchArguments<Result>(adding: [String] = [], removing: [String] = [],
                                                   operation: () throws -> Result) rethrows -> Result {
        try $launchArgumentChanges.withValue(LaunchArgumentChanges(launchArgumentChanges, adding, removing),
                                             operation: operation)
    }

    /// The async `withLaunchArguments(adding:removing:operation:)`.
    public static func withLaunchArguments<Result>(adding: [String] = [], removing: [String] = [],
                                                   isolation: isolated (any Actor)? = #isolation,
                                                   operation: () async throws -> Result) async rethrows -> Result {
        try await $launchArgumentChanges.withValue(LaunchArgumentChanges(launchArgumentChanges, adding, removing),
                                                   operation: operation, isolation: isolation)
    }

    /// This task's changes to the launch arguments, if any.
    @TaskLocal
    static var launchArgumentChanges: LaunchArgumentChanges?
}

/// The launch arguments of the whole process, as `setLaunchArgument(_:)` and
/// `removeLaunchArgument(_:)` changed them, under a mutex of its own (DESIGN.md, C3).
final class ProcessLaunchArguments: @unchecked Sendable {
    static let shared = ProcessLaunchArguments()

    private let mutex = Mutex.make()
    /// Guarded by `mutex`.
    private var arguments = ProcessContext.launchArguments

    private init() {}

    func contains(_ argument: String) -> Bool {
        mutex.withLock { arguments.contains(argument) }
    }

    func update(_ argument: String, present: Bool) {
        mutex.withLock {
            if present {
                arguments.insert(argument)
            } else {
                arguments.remove(argument)
            }
        }
    }
}

/// Launch arguments a task added and removed (the later call winning).
struct LaunchArgumentChanges: Sendable {
    let added: Set<String>
    let removed: Set<String>

    init(_ outer: LaunchArgumentChanges?, _ adding: [String], _ removing: [String]) {
        added = (outer?.added ?? []).subtracting(removing).union(adding)
        removed = (outer?.removed ?? []).subtracting(adding).union(removing)
    }
}

/// A registration's context: where its factory gives way to another.
@usableFromInline
enum RegistrationContext {
    /// The process launched with this argument (decided at each build).
    case argument(String)
    case preview
    case test
    case debug

    /// For the contexts decided once: whether it applies in this process,
    /// and its rank when several do (lower wins). nil for an argument.
    var fixedRank: Int?? {
        switch self {
        case .argument: return nil
        case .preview: return .some(ProcessContext.isRunningForPreviews ? 0 : nil)
        case .test: return .some(ProcessContext.isRunningTests ? 1 : nil)
        case .debug: return .some(ProcessContext.isDebugBuild ? 2 : nil)
        }
    }
}

/// The contexts of one registration (under the registry mutex): the factory
/// they fall back on (the one installed when the first context applied),
/// the `onArg` factories in the order written, and the context decided once
/// that applies with the lowest rank.
final class RegistrationContexts<Service> {
    typealias Factory = ResolverFactoryAnyArguments<Service>
    let fallback: Factory
    var arguments: [(argument: String, factory: Factory)] = []
    var fixed: (rank: Int, factory: Factory)?

    init(fallback: @escaping Factory) {
        self.fallback = fallback
    }

    /// The factory a build uses now: the first `onArg` whose argument the
    /// process (this task) has, else the fixed context's, else nil.
    func applying() -> Factory? {
        Self.applying(arguments, fixed?.factory)
    }

    static func applying(_ arguments: [(argument: String, factory: Factory)], _ fixed: Factory?) -> Factory? {
        arguments.first { ResolverContext.hasLaunchArgument($0.argument) }?.factory ?? fixed
    }

    /// The factory to install: `applying()` at each build, or the fallback.
    func combined() -> Factory {
        let fallback = self.fallback
        guard !arguments.isEmpty else {
            return fixed?.factory ?? fallback
        }
        let arguments = self.arguments
        let fixed = self.fixed?.factory
        return { resolver, args in (Self.applying(arguments, fixed) ?? fallback)(resolver, args) }
    }
}

extension ResolverRegistration {
    /// Adds `factory` for `context`: installed now if the context applies
    /// (or may, for an argument), else nothing changes. Marks the
    /// registration as having a test context either way (strict tests).
    @usableFromInline
    func addContext(_ context: RegistrationContext, _ factory: @escaping ResolverFactoryAnyArguments<Service>) {
        registry.write {
            addContextLocked(context, factory)
        }
    }

    /// `addContext`, holding the mutex (a key's declaration, before its
    /// registration is published).
    func addContextLocked(_ context: RegistrationContext, _ factory: @escaping ResolverFactoryAnyArguments<Service>) {
        registry.assertLocked()
        if case .test = context {
            hasTestContext = true
        }
        let rank = context.fixedRank
        if case .some(.none) = rank {
            return
        }
        let contexts = self.contexts ?? RegistrationContexts(fallback: installedFactoryLocked ?? registeredFactory)
        self.contexts = contexts
        switch (context, rank) {
        case (.argument(let argument), _):
            contexts.arguments.append((argument, factory))
        case (_, .some(.some(let rank))):
            guard contexts.fixed.map({ rank < $0.rank }) ?? true else {
                return
            }
            contexts.fixed = (rank, factory)
        default:
            return
        }
        replaceFactoryLocked(contexts.combined())
    }

    /// Whether a context's factory is the one a build uses now (an async
    /// registration then skips its async factory). The mutex must be held.
    var contextAppliesLocked: Bool {
        registry.assertLocked()
        return contexts?.applying() != nil
    }
}

extension ResolverOptions {
    // MARK: Tests

    /// Under a test runner (`swift test`, XCTest or Swift Testing, or
    /// Xcode's tests), resolves with `factory` instead:
    /// `register { LiveAPI() as API }.onTest { StubAPI() as API }`.
    ///
    /// Decided once per process (``ResolverContext/isRunningTests``). A
    /// strict test (`.resolver(strict: true)`) does not report a
    /// registration with an `onTest`. Write contexts right after `register`:
    /// each replaces the factory as it stands, with any
    /// `resolveProperties` blocks written before it.
    @discardableResult
    public func onTest(_ factory: @escaping ResolverFactory<Service>) -> ResolverOptions<Service> {
        registration.addContext(.test) { _, _ in factory() }
        return self
    }

    /// Under a test runner, resolves with `factory`, given the container.
    @discardableResult
    public func onTest(_ factory: @escaping ResolverFactoryResolver<Service>) -> ResolverOptions<Service> {
        registration.addContext(.test) { resolver, _ in factory(resolver) }
        return self
    }

    /// Under a test runner, resolves with `factory`, given the container and
    /// the resolve call's arguments.
    @discardableResult
    public func onTest(_ factory: @escaping ResolverFactoryArgumentsN<Service>) -> ResolverOptions<Service> {
        registration.addContext(.test) { resolver, args in factory(resolver, Resolver.Args(args)) }
        return self
    }

    // MARK: Previews

    /// When Xcode runs the app for its previews (`XCODE_RUNNING_FOR_PREVIEWS=1`),
    /// resolves with `factory` instead:
    /// `register { LiveAPI() as API }.onPreview { PreviewAPI() as API }`.
    ///
    /// Decided once per process (``ResolverContext/isRunningForPreviews``).
    @discardableResult
    public func onPreview(_ factory: @escaping ResolverFactory<Service>) -> ResolverOptions<Service> {
        registration.addContext(.preview) { _, _ in factory() }
        return self
    }

    /// For previews, resolves with `factory`, given the container.
    @discardableResult
    public func onPreview(_ factory: @escaping ResolverFactoryResolver<Service>) -> ResolverOptions<Service> {
        registration.addContext(.preview) { resolver, _ in factory(resolver) }
        return self
    }

    /// For previews, resolves with `factory`, given the container and the
    /// resolve call's arguments.
    @discardableResult
    public func onPreview(_ factory: @escaping ResolverFactoryArgumentsN<Service>) -> ResolverOptions<Service> {
        registration.addContext(.preview) { resolver, args in factory(resolver, Resolver.Args(args)) }
        return self
    }

    // MARK: Launch arguments

    /// When the app was launched with `argument` (UI tests pass one in
    /// `launchArguments`), resolves with `factory` instead:
    /// `register { LiveAPI() as API }.onArg("-mock-api") { MockAPI() as API }`.
    ///
    /// The process's arguments are read once; `ResolverContext.setLaunchArgument(_:)`
    /// and `removeLaunchArgument(_:)` change them for the process, and a test
    /// changes them for its task with `ResolverContext.withLaunchArguments(adding:removing:operation:)`.
    /// Decided at each build of an instance, so an instance a caching scope
    /// holds keeps the factory it was built with. The first `onArg` whose
    /// argument is there wins over every other context.
    @discardableResult
    public func onArg(_ argument: String, _ factory: @escaping ResolverFactory<Service>) -> ResolverOptions<Service> {
        registration.addContext(.argument(argument)) { _, _ in factory() }
        return self
    }

    /// With the launch argument `argument`, resolves with `factory`, given
    /// the container.
    @discardableResult
    public func onArg(_ argument: String, _ factory: @escaping ResolverFactoryResolver<Service>) -> ResolverOptions<Service> {
        registration.addContext(.argument(argument)) { resolver, _ in factory(resolver) }
        return self
    }

    /// With the launch argument `argument`, resolves with `factory`, given
    /// the container and the resolve call's arguments.
    @discardableResult
    public func onArg(_ argument: String, _ factory: @escaping ResolverFactoryArgumentsN<Service>) -> ResolverOptions<Service> {
        registration.addContext(.argument(argument)) { resolver, args in factory(resolver, Resolver.Args(args)) }
        return self
    }

    // MARK: Debug builds

    /// In a debug build of the app, resolves with `factory` instead:
    /// `register { LiveAPI() as API }.onDebug { VerboseAPI() as API }`.
    ///
    /// "Debug build" is a build with `DEBUG` defined where this package is
    /// compiled (``ResolverContext/isDebugBuild``): SwiftPM and Xcode build a
    /// package in the app's configuration, so Xcode's Debug configuration and
    /// `swift build` apply, Release and `swift build -c release` do not. A
    /// prebuilt binary of the library keeps the configuration it was built in.
    @discardableResult
    public func onDebug(_ factory: @escaping ResolverFactory<Service>) -> ResolverOptions<Service> {
        registration.addContext(.debug) { _, _ in factory() }
        return self
    }

    /// In a debug build of the app, resolves with `factory`, given the
    /// container.
    @discardableResult
    public func onDebug(_ factory: @escaping ResolverFactoryResolver<Service>) -> ResolverOptions<Service> {
        registration.addContext(.debug) { resolver, _ in factory(resolver) }
        return self
    }

    /// In a debug build of the app, resolves with `factory`, given the
    /// container and the resolve call's arguments.
    @discardableResult
    public func onDebug(_ factory: @escaping ResolverFactoryArgumentsN<Service>) -> ResolverOptions<Service> {
        registration.addContext(.debug) { resolver, args in
            factory(resolver, Resolver.Args(args))
        }
        return self
    }
}
