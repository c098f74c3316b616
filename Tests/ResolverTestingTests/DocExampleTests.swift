import Resolver
import ResolverTestSupport
import ResolverTesting
import Testing
import XCTest

// The testing article's examples (Sources/Resolver/Resolver.docc/Testing.md)
// and the trait's (its doc comment), compiled and run here. Each region
// between `DOC EXAMPLE` lines is a code block of the files it names, word for
// word (`theExamplesAreTheDocumentations`).

protocol NetworkServicing: Sendable { var user: String { get } }
final class MockNetwork: NetworkServicing { let user = "Mock User" }
final class ProfileViewModel {
    @Injected var network: NetworkServicing
    var title: String { network.user }
}
protocol AppClock: Sendable {}
final class MockClock: AppClock {}

/// The trait, on a test and on a suite.
@Suite struct TestingArticleTrait {
    // DOC EXAMPLE: Sources/Resolver/Resolver.docc/Testing.md Sources/ResolverTesting/ResolverTrait.swift
    @Test(.resolver { $0.register { MockNetwork() as NetworkServicing } })
    func showsTheMockUser() {
        #expect(ProfileViewModel().title == "Mock User")
    }

    @Suite(.resolver { $0.register { MockClock() as AppClock } })
    struct ClockTests {
        // Each test gets its own container: a fresh isolated child of main.
        @Test func usesTheMockClock() {
            #expect(Resolver.resolve(AppClock.self) is MockClock)
        }
    }
    // END DOC EXAMPLE
}

// A strict test under XCTest.
// DOC EXAMPLE: Sources/Resolver/Resolver.docc/Testing.md
final class ProfileTests: XCTestCase {
    func testShowsTheMockUser() {
        let mocks = Resolver(child: .main, isolatedScopes: true)
        mocks.register { MockNetwork() as NetworkServicing }
        Resolver.withRoot(mocks) {
            Resolver.withStrictTesting(mocks, report: { XCTFail($0.description) }) {
                XCTAssertEqual(ProfileViewModel().title, "Mock User")
            }
        }
    }
}
// END DOC EXAMPLE

extension ResolverKeys {
    var weather: ResolverKey<any Weather> { ResolverKey { LiveWeather() }.scope(.application) }
}

/// Registering inside a test: a key's override and `Resolver.root.register`
/// go to the test's root.
@Suite struct TestingArticleRegistering {
    // DOC EXAMPLE: Sources/Resolver/Resolver.docc/Testing.md
    @Test(.resolver())
    func showsTheStubWeather() {
        Resolver.register(\.weather) { StubWeather() }       // the test's root
        Resolver.root.register { StubWeather() as Weather }  // the test's root
        // Resolver.register { StubWeather() as Weather } would register in main:
        // it would outlive the test and reach the tests running beside it.
        #expect(Resolver.resolve(\.weather) is StubWeather)
    }
    // END DOC EXAMPLE

    @Test func mainDoesNotHaveTheTestsOverride() {
        #expect(Resolver.main.resolve(\.weather) is LiveWeather)
    }
}

@Suite struct DocExampleTests {
    /// The examples above are the ones the article and the trait's doc
    /// comment show.
    @Test func theExamplesAreTheDocumentations() throws {
        #expect(try docExamples(in: #filePath).map(\.files.count) == [2, 1, 1])
        let mismatches = try docExampleMismatches(in: #filePath)
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n\n"))")
    }

    /// What the XCTest example's `report` receives when the test reaches a
    /// live registration: the sentence `XCTFail` records.
    @Test func theXCTestReportReceivesTheSentenceOfTheIssue() {
        let app = Resolver()
        let line = #line + 1
        app.register { MockNetwork() as NetworkServicing }
        let mocks = Resolver(child: app, isolatedScopes: true)
        let failures = Locked<[String]>([])
        Resolver.withRoot(mocks) {
            Resolver.withStrictTesting(mocks, report: { use in failures.withLock { $0.append(use.description) } }) {
                _ = ProfileViewModel().title
            }
        }
        #expect(failures.withLock { $0 }.count == 1)
        #expect(failures.withLock { $0 }.first?.contains(
            "live registration of 'NetworkServicing', registered at ResolverTestingTests/DocExampleTests.swift:\(line)") == true)
    }
}
