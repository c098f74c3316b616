import Resolver
import ResolverTestSupport
import Testing

// Examples of the articles (Sources/Resolver/Resolver.docc), compiled and run
// here. Each region between `DOC EXAMPLE` lines is a code block of the file
// it names, word for word (`theExamplesAreTheArticles`); each example's
// types are its own, nested, so its names are the article's.

/// GettingStarted.md, "Scopes": registering again keeps what a scope holds.
enum ReRegisteringExample {
    protocol API: AnyObject {}
    final class LiveAPI: API {}
    final class StubAPI: API {}

    static func run() -> (live: API, same: API, stub: API) {
        // DOC EXAMPLE: Sources/Resolver/Resolver.docc/GettingStarted.md
        Resolver.register { LiveAPI() as API }.scope(.application)
        let live = Resolver.resolve(API.self)           // LiveAPI, now held by .application
        Resolver.register { StubAPI() as API }.scope(.application)
        let same = Resolver.resolve(API.self)           // still the LiveAPI
        ResolverScope.application.reset(API.self)
        let stub = Resolver.resolve(API.self)           // StubAPI
        // END DOC EXAMPLE
        return (live, same, stub)
    }
}

/// ArgumentsLifetimesAndCollections.md, "One instance per argument list".
enum ArgumentInstancesExample {
    struct User: Identifiable { let id: Int }
    final class API {}
    final class Session {
        let user: User.ID
        init(user: User.ID, api: API) { self.user = user }
    }

    static func run() -> (first: Session, again: Session, other: Session) {
        Resolver.register { API() }
        let ada = User(id: 1).id, grace = User(id: 2).id
        // DOC EXAMPLE: Sources/Resolver/Resolver.docc/ArgumentsLifetimesAndCollections.md
        Resolver.register(arguments: User.ID.self) { r, id in Session(user: id, api: r.resolve()) }
            .scope(.cached)
        let first = Resolver.resolve(Session.self, arguments: ada)     // built
        let again = Resolver.resolve(Session.self, arguments: ada)     // the same instance as first
        let other = Resolver.resolve(Session.self, arguments: grace)   // another one
        ResolverScope.cached.reset()                                   // drops them all
        // END DOC EXAMPLE
        return (first, again, other)
    }
}

extension ResolverTests {
    /// The articles' examples: the same code, and it does what they say.
    @Suite struct ArticleExamples {
        @Test func theExamplesAreTheArticles() throws {
            #expect(try docExamples(in: #filePath).count == 2)
            let mismatches = try docExampleMismatches(in: #filePath)
            #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n\n"))")
        }

        /// A scope keeps the instance it holds when the service is
        /// registered again, until it is reset (as 1.5.1 does).
        @Test func registeringAgainKeepsTheInstanceAScopeHolds() {
            Resolver.reset()
            let run = ReRegisteringExample.run()
            #expect(run.live is ReRegisteringExample.LiveAPI)
            #expect(run.same === run.live)
            #expect(run.stub is ReRegisteringExample.StubAPI)
            ResolverScope.application.reset()
        }

        @Test func aCachingScopeKeepsOneInstancePerArgumentList() {
            Resolver.reset()
            let run = ArgumentInstancesExample.run()
            #expect(run.first === run.again)
            #expect(run.other !== run.first)
            #expect(run.first.user == 1 && run.other.user == 2)
        }
    }
}
