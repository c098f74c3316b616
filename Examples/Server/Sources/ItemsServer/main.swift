// The server: `CONTAINER=resolver|swinject|hand` (default resolver) picks the wiring,
// `HOST` and `PORT` the address (default 127.0.0.1:8080), `GREETING` the greeting,
// `LOG_LEVEL` Hummingbird's log level. Stops on SIGINT or SIGTERM.
// `ItemsServer --graph dot|mermaid` prints the Resolver wiring's dependency graph.
import Foundation
import Hummingbird
import ItemsApp
import Resolver

let arguments = CommandLine.arguments.dropFirst()
if arguments.first == "--graph" {
    let formats: [String: Resolver.GraphFormat] = ["dot": .dot, "mermaid": .mermaid]
    guard arguments.count == 2, let format = formats[arguments.last!] else {
        FileHandle.standardError.write(Data("usage: ItemsServer --graph dot|mermaid\n".utf8))
        exit(2)
    }
    print(Resolver.graph(format: format), terminator: "")
    exit(0)
}

let environment = ProcessInfo.processInfo.environment
let kind: ContainerKind
do {
    kind = try ContainerKind(environment: environment)
} catch {
    FileHandle.standardError.write(Data("ItemsServer: \(error)\n".utf8))
    exit(2)
}
let host = environment["HOST"] ?? "127.0.0.1"
guard let port = Int(environment["PORT"] ?? "8080"), (0...65535).contains(port) else {
    FileHandle.standardError.write(Data("ItemsServer: PORT must be a port number\n".utf8))
    exit(2)
}

if kind == .resolver {
    // The graph check at start-up: every registration resolves (in a sandbox, so
    // no singleton is made early), or the server does not start.
    let verification = Resolver.verify()
    guard verification.isValid else {
        FileHandle.standardError.write(Data("ItemsServer: \(verification)\n".utf8))
        exit(1)
    }
}

print("ItemsServer: \(kind.rawValue) wiring on http://\(host):\(port)")
let app = buildApplication(
    wiring: kind.makeWiring(),
    configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "ItemsServer")
)
try await app.runService()
