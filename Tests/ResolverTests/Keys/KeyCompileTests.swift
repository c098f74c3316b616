import Foundation
import Testing

// What the compiler says about keys (issue 38): small files type-checked in a
// child process against the Resolver module `swift build --build-tests`
// built beside the tests. The mistakes a key exists to catch must not
// compile, with a diagnostic that names what is wrong; the documentation's
// examples of keys must compile.

/// Type-checks Swift sources against the built Resolver module.
enum KeyTypeCheck {
    /// The build directory holding `Modules/Resolver.swiftmodule`: the one
    /// the running tests were built into.
    static let buildDirectory: URL? = {
        var starts = [URL(fileURLWithPath: "/proc/self/exe")]
        starts += [CommandLine.arguments.first.map { URL(fileURLWithPath: $0) }].compactMap { $0 }
        for start in starts {
            var directory = start.resolvingSymlinksInPath().deletingLastPathComponent()
            while directory.pathComponents.count > 1 {
                let module = directory.appendingPathComponent("Modules/Resolver.swiftmodule")
                if FileManager.default.fileExists(atPath: module.path) {
                    return directory
                }
                directory.deleteLastPathComponent()
            }
        }
        return nil
    }()

    /// The package's root (this file is Tests/ResolverTests/Keys/KeyCompileTests.swift).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The C core's module map (its own, in the package's sources: SwiftPM
    /// generates none for it).
    static let cRegistryModuleMap = packageRoot.appendingPathComponent("Sources/CRegistry/include/module.modulemap")

    /// `swiftc -typecheck` of `source` (Swift 6 mode, as `main.swift`: top-level
    /// code allowed) against the built module.
    static func run(_ source: String, name: String) throws -> ProgramRun {
        let build = try #require(buildDirectory, "no Modules/Resolver.swiftmodule above the test executable")
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("resolver-key-typecheck-\(ProcessInfo.processInfo.processIdentifier)-\(name)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("main.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        return try runTool("swiftc", [
            "-typecheck", "-swift-version", "6",
            "-I", build.appendingPathComponent("Modules").path,
            "-Xcc", "-fmodule-map-file=" + cRegistryModuleMap.path,
            "-module-cache-path", folder.appendingPathComponent("ModuleCache").path,
            file.path,
        ], timeout: 300)
    }

    /// The services the documentation's examples of keys use.
    static let documentationPrelude = """
        import Resolver

        protocol API: AnyObject {}
        final class LiveAPI: API {}
        final class MockAPI: API {}
        final class NoteStore { init(api: any API) {} }
        final class NoteListViewModel { init(userID: Int, locale: String, store: NoteStore) {} }
        @MainActor final class SettingsViewModel { init() {} }
        @MainActor final class AlertPresenter { init() {} }
        final class Database: Sendable { static func open() async -> Database { Database() } }
        protocol Analytics: AnyObject {}
        final class ConsoleAnalytics: Analytics {}
        protocol WeatherService: AnyObject {}
        final class LiveWeather: WeatherService {}
        final class StubWeather: WeatherService {}

        """

    /// The keys the failing files misuse.
    static let failurePrelude = """
        import Resolver

        protocol API: AnyObject {}
        final class LiveAPI: API {}
        final class NotAnAPI {}
        final class NoteListViewModel { init(userID: Int, locale: String) {} }
        @MainActor final class AlertPresenter { init() {} }
        @globalActor actor PlayActor { static let shared = PlayActor() }
        @PlayActor final class PlayManager { init() {} }
        extension ResolverKeys {
            var api: ResolverKey<any API> { ResolverKey { LiveAPI() } }
            var noteList: ResolverKey<NoteListViewModel, Int, String> {
                ResolverKey { userID, locale in NoteListViewModel(userID: userID, locale: locale) }
            }
        }

        """

    /// The Swift code blocks of a document, from the line `from` (a
    /// heading) to the next heading of its level, or to the end.
    static func swiftBlocks(of path: String, from heading: String? = nil) throws -> String {
        var lines = try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let heading {
            let start = try #require(lines.firstIndex(of: heading), "\(path) has no heading '\(heading)'")
            let level = heading.prefix { $0 == "#" } + " "
            let end = lines[(start + 1)...].firstIndex { $0.hasPrefix(level) } ?? lines.endIndex
            lines = Array(lines[start..<end])
        }
        var code: [String] = []
        var inside = false
        var indent = 0
        for line in lines {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if !inside, trimmed == "```swift" {
                inside = true
                indent = line.prefix { $0 == " " }.count
            } else if inside, trimmed == "```" {
                inside = false
                code.append("")
            } else if inside {
                code.append(String(line.dropFirst(min(indent, line.prefix { $0 == " " }.count))))
            }
        }
        return code.joined(separator: "\n")
    }
}

extension IndependentTests {
    /// The documentation's examples of keys compile, as one program each.
    @Suite struct KeyDocumentation {
        static let documents: [(path: String, heading: String?)] = [
            ("Sources/Resolver/Resolver.docc/CompileTimeCheckedKeys.md", nil),
            ("Sources/Resolver/Resolver.docc/MigratingFromResolver.md", "## Moving to compile-time-checked keys"),
            ("README.md", "## What it is"),
        ]

        @Test(arguments: documents)
        func theExamplesCompile(path: String, heading: String?) throws {
            let examples = try KeyTypeCheck.swiftBlocks(of: path, from: heading)
            #expect(examples.contains("ResolverKey"), "no examples of keys in \(path)")
            let run = try KeyTypeCheck.run(KeyTypeCheck.documentationPrelude + examples,
                                           name: URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent)
            #expect(run.status == 0, "\(path)'s examples do not compile:\n\(run.output)")
        }
    }

    /// The mistakes keys exist to catch do not compile, and the compiler
    /// says what is wrong, naming the types where it can.
    @Suite struct KeyCompileFailures {
        static let cases: [(name: String, code: String, expected: [String])] = [
            ("default-factory-wrong-type",
             "extension ResolverKeys { var wrong: ResolverKey<any API> { ResolverKey { NotAnAPI() } } }",
             ["cannot convert value of type 'NotAnAPI' to closure result type 'any API'"]),
            ("default-factory-wrong-arguments",
             """
             extension ResolverKeys {
                 var wrongArguments: ResolverKey<NoteListViewModel, Int, String> {
                     ResolverKey { (userID: String, locale: String) in NoteListViewModel(userID: 0, locale: locale) }
                 }
             }
             """,
             ["cannot convert value of type '(String, String) -> NoteListViewModel' to expected argument type '(Int, String) -> NoteListViewModel'"]),
            ("default-factory-without-the-arguments",
             "extension ResolverKeys { var none: ResolverKey<NoteListViewModel, Int, String> { ResolverKey { NoteListViewModel(userID: 0, locale: \"\") } } }",
             ["pack expansion requires that 'Int, String' and '' have the same shape"]),
            ("override-wrong-type",
             "func override() { Resolver.register(\\.api) { NotAnAPI() } }",
             ["cannot convert value of type 'NotAnAPI' to closure result type 'any API'"]),
            ("override-wrong-arguments",
             "func override() { Resolver.register(\\.noteList) { (userID: Int) in NoteListViewModel(userID: userID, locale: \"\") } }",
             ["pack expansion requires that 'Int, String' and 'Int' have the same shape"]),
            ("argument-wrong-type",
             "func use() { _ = Resolver.resolve(\\.noteList, arguments: \"42\", \"en\") }",
             ["cannot convert value of type 'String' to expected argument type 'Int'"]),
            ("arguments-missing",
             "func use() { _ = Resolver.resolve(\\.noteList) }",
             ["cannot convert value of type 'KeyPath<ResolverKeys, ResolverKey<NoteListViewModel, Int, String>>' to expected argument type 'KeyPath<ResolverKeys, ResolverKey<NoteListViewModel>>'"]),
            ("arguments-to-a-key-without",
             "func use() { _ = Resolver.resolve(\\.api, arguments: 1) }",
             ["cannot convert value of type 'KeyPath<ResolverKeys, ResolverKey<any API>>' to expected argument type 'KeyPath<ResolverKeys, ResolverKey<any API, Int>>'"]),
            ("arguments-too-few",
             "func use() { _ = Resolver.resolve(\\.noteList, arguments: 42) }",
             ["missing argument for parameter #3 in call", "'resolve(_:arguments:_:)' declared here"]),
            ("arguments-too-many",
             "func use(_ container: Resolver) { _ = container.resolve(\\.noteList, arguments: 42, \"en\", 3) }",
             ["extra argument in call"]),
            ("wrapper-of-a-key-with-arguments",
             "final class Screen { @Injected(\\.noteList) var model: NoteListViewModel }",
             ["cannot convert value of type 'KeyPath<ResolverKeys, ResolverKey<NoteListViewModel, Int, String>>' to expected argument type 'KeyPath<ResolverKeys, ResolverKey<NoteListViewModel>>'"]),
            ("key-that-does-not-exist",
             "final class Screen { @Injected(\\.nope) var api: LiveAPI }",
             ["value of type 'ResolverKeys' has no member 'nope'"]),
            ("key-that-does-not-exist-rooted",
             "func use() { _ = Resolver.resolve(\\ResolverKeys.nope) }",
             ["value of type 'ResolverKeys' has no member 'nope'"]),
            // A key declared `@MainActor var` (every key of a module with
            // default MainActor isolation) cannot be named by a key path off
            // the main actor: declare it `nonisolated var`, its factory
            // `@MainActor` (CompileTimeCheckedKeys.md, "Keys and actors").
            ("main-actor-key-resolved-from-elsewhere",
             """
             extension ResolverKeys { @MainActor var alert: ResolverKey<AlertPresenter> { ResolverKey { @MainActor in AlertPresenter() } } }
             func use() async { _ = await Resolver.resolveAsync(\\.alert) }
             """,
             ["cannot form key path to main actor-isolated property 'alert'"]),
            // A factory isolated to another global actor is written as an
            // async closure (`{ @PlayActor () async in … }`): beside the
            // plain factory, the compiler takes a synchronous `@PlayActor`
            // closure for a plain one, then rejects its isolation.
            ("global-actor-factory-written-synchronous",
             "extension ResolverKeys { var player: ResolverKey<PlayManager> { ResolverKey { @PlayActor in PlayManager() } } }",
             ["converting function value of type '@PlayActor @Sendable () -> PlayManager' to '() -> PlayManager' loses global actor 'PlayActor'"]),
            ("key-that-does-not-exist-unrooted",
             "func use() { _ = Resolver.resolve(\\.nope) }",
             ["cannot infer key path type from context"]),
        ]

        @Test func theKeysTheFailingFilesMisuseCompile() throws {
            let run = try KeyTypeCheck.run(KeyTypeCheck.failurePrelude + "func use() { _ = Resolver.resolve(\\.noteList, arguments: 42, \"en\") }\n",
                                           name: "failure-prelude")
            #expect(run.status == 0, "\(run.output)")
        }

        @Test(arguments: cases)
        func aMistakeDoesNotCompile(name: String, code: String, expected: [String]) throws {
            let run = try KeyTypeCheck.run(KeyTypeCheck.failurePrelude + code + "\n", name: name)
            #expect(run.status != 0 && !run.signaled, "\(name) compiled (or the compiler crashed): \(run.output)")
            for diagnostic in expected {
                #expect(run.output.contains(diagnostic), "\(name): no '\(diagnostic)' in:\n\(run.output)")
            }
        }
    }
}
