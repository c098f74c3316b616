// The server: `CONTAINER=resolver|swinject` (default resolver) picks the wiring,
// `HOST` and `PORT` the address (default 127.0.0.1:8080), `GREETING` the greeting,
// `LOG_LEVEL` Hummingbird's log level. Stops on SIGINT or SIGTERM.
import Foundation
import Hummingbird
import ItemsApp

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

print("ItemsServer: \(kind.rawValue) wiring on http://\(host):\(port)")
let app = buildApplication(
    wiring: kind.makeWiring(),
    configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "ItemsServer")
)
try await app.runService()
