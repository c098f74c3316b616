import Foundation
import Testing

extension IndependentTests {
    /// The migration article's table of differences from 1.5.1 says what
    /// the code does: the rows issue 19 added or corrected.
    @Suite struct MigrationArticle {
        /// The cells of each row of the article's tables.
        static func rows() throws -> [[String]] {
            let article = URL(fileURLWithPath: #filePath)
                .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Sources/Resolver/Resolver.docc/MigratingFromResolver.md")
            let text = try String(contentsOf: article, encoding: .utf8)
            return text.split(separator: "\n").filter { $0.hasPrefix("| ") }.map { line in
                line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                    .map { $0.trimmingCharacters(in: .whitespaces) }
            }
        }

        /// The article's text.
        static func text() throws -> String {
            let article = URL(fileURLWithPath: #filePath)
                .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Sources/Resolver/Resolver.docc/MigratingFromResolver.md")
            return try String(contentsOf: article, encoding: .utf8)
        }

        /// The row whose first cell is `subject`: original, here, why.
        static func row(_ subject: String) throws -> (original: String, here: String, why: String)? {
            guard let cells = try rows().first(where: { $0.first == subject }), cells.count == 4 else {
                return nil
            }
            return (cells[1], cells[2], cells[3])
        }

        @Test func resolverOptionsWasAPublicStruct() throws {
            let row = try #require(try Self.row("``ResolverOptions``"))
            #expect(row.original.contains("public struct"))
            #expect(!row.original.contains("class"))
        }

        @Test func aLazyInjectedReadAfterReleaseIsListed() throws {
            let row = try #require(try Self.row("``LazyInjected``, a read after `release()`"))
            #expect(row.original.contains("stopped the program"))
            #expect(row.here.contains("resolves again"))
        }

        /// What registering again does to an instance a scope holds, the
        /// same as 1.5.1 (ArticleExamples runs it).
        @Test func registeringAgainIsExplained() throws {
            let text = try Self.text().replacingOccurrences(of: "\n", with: " ")
            let explained = text.contains("Re-registering a service keeps what a scope already holds for it, as in 1.5.1")
            let namesTheReset = text.contains("``ResolverScope/reset(_:name:)``")
            #expect(explained && namesTheReset)
        }

        /// 1.5.1's function references compile unlabelled too (the API
        /// probe compiles each form in Swift 5 and Swift 6 modes).
        @Test func functionReferencesWithoutLabelsAreListed() throws {
            let row = try #require(try Self.row("`resolve`, `optional`"))
            #expect(row.why.contains("with the labels (`Resolver.resolve(_:name:args:)`) or without"))
            #expect(row.why.contains("`Resolver.main.resolve`") && row.why.contains("`r.optional`"))
        }

        @Test func aResetDuringACachedBuildIsListed() throws {
            let row = try #require(try Self.row("A reset while a cached instance is built"))
            #expect(row.original.contains("was cached"))
            #expect(row.here.contains("uncached"))
        }
    }
}
