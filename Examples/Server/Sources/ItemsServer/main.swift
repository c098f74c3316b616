// The server: `HOST` and `PORT` pick the address (default 127.0.0.1:8080), `GREETING`
// the greeting, `LOG_LEVEL` Hummingbird's log level. Stops on SIGINT or SIGTERM.
import Foundation
import Hummingbird
import ItemsApp

let environment = ProcessInfo.processInfo.environment
let host = environment["HOST"] ?? "127.0.0.1"
guard let port = Int(environment["PORT"] ?? "8080"), (0...65535).contains(port) else {
    FileHandle.standardError.write(Data("ItemsServer: PORT must be a port number\n".utf8))
    exit(2)
}

print("ItemsServer: http://\(host):\(port)")
let app = buildApplication(
    wiring: ResolverWiring(),
    configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "ItemsServer")
)
try await app.runService()
