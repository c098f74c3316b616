import Foundation

// The documentation's code examples, compiled by the tests: a test file holds
// each example between a `// DOC EXAMPLE: <file> [<file> ...]` line and an
// `// END DOC EXAMPLE` line, as code the test target compiles (and its tests
// run), and `docExampleMismatches` checks that each file named there (an
// article, or a Swift file whose doc comments show it) has a `swift` code
// block with exactly those lines. An article's block may start with `import`
// lines, which a test file keeps at its top.

/// A region of a test file that a documentation file shows.
public struct DocExample: Sendable {
    /// The files (relative to the repository's root) that show it.
    public let files: [String]
    /// Its lines, without the indentation they share.
    public let lines: [String]
    /// Where it starts in the test file.
    public let line: Int
}

/// The repository's root, from a test file's `#filePath`
/// (`Tests/<target>/<file>.swift`).
public func repositoryRoot(of testFile: String) -> URL {
    URL(fileURLWithPath: testFile).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}

/// The doc examples of `testFile`, in order.
public func docExamples(in testFile: String) throws -> [DocExample] {
    let lines = try String(contentsOfFile: testFile, encoding: .utf8).components(separatedBy: "\n")
    var examples: [DocExample] = []
    var open: (files: [String], start: Int, lines: [String])?
    for (index, line) in lines.enumerated() {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("// DOC EXAMPLE:") {
            let files = trimmed.dropFirst("// DOC EXAMPLE:".count).split(separator: " ").map(String.init)
            open = (files, index + 1, [])
        } else if trimmed == "// END DOC EXAMPLE", let region = open {
            examples.append(DocExample(files: region.files, lines: dedented(region.lines), line: region.start))
            open = nil
        } else if open != nil {
            open?.lines.append(line)
        }
    }
    return examples
}

/// The `swift` code blocks of `file` (under `root`): fenced blocks of a
/// Markdown file, or of the doc comments (`///`) of a Swift file; each as its
/// lines, without the indentation they share.
public func swiftCodeBlocks(in file: String, root: URL) throws -> [[String]] {
    var lines = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8).components(separatedBy: "\n")
    if file.hasSuffix(".swift") {
        lines = lines.compactMap { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("///") else { return nil }
            let text = trimmed.dropFirst(3)
            return String(text.hasPrefix(" ") ? text.dropFirst() : text)
        }
    }
    var blocks: [[String]] = []
    var block: [String]?
    var fence = ""
    for line in lines {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if block == nil, trimmed == "```swift" {
            block = []
            fence = String(line.prefix { $0 == " " })
        } else if block != nil, trimmed == "```" {
            blocks.append(dedented(block!))
            block = nil
        } else if block != nil {
            block!.append(line.hasPrefix(fence) ? String(line.dropFirst(fence.count)) : line)
        }
    }
    return blocks
}

/// A message for each file an example of `testFile` names that has no code
/// block of exactly its lines; empty when every one matches.
public func docExampleMismatches(in testFile: String) throws -> [String] {
    let root = repositoryRoot(of: testFile)
    var mismatches: [String] = []
    for example in try docExamples(in: testFile) {
        for file in example.files {
            let blocks = try swiftCodeBlocks(in: file, root: root).map { block in
                Array(block.drop { $0.hasPrefix("import ") || $0.isEmpty })
            }
            if !blocks.contains(example.lines) {
                mismatches.append("\(file) has no code block of the example at line \(example.line) of \(testFile):\n"
                                  + example.lines.joined(separator: "\n"))
            }
        }
    }
    return mismatches
}

/// `lines` without the indentation they all share (blank lines aside), and
/// without blank lines at either end.
private func dedented(_ lines: [String]) -> [String] {
    var lines = lines.map { line in line.trimmingCharacters(in: .whitespaces).isEmpty ? "" : line }
    while lines.first == "" { lines.removeFirst() }
    while lines.last == "" { lines.removeLast() }
    let indent = lines.filter { !$0.isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
    return lines.map { $0.isEmpty ? $0 : String($0.dropFirst(indent)) }
}
