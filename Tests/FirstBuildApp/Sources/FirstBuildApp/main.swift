// The README's "Add it to your app" lines, as an app writes them.
import Resolver

protocol Greeting { func hello() -> String }
struct ConsoleGreeting: Greeting { func hello() -> String { "Hello from Resolver" } }

Resolver.register { ConsoleGreeting() as Greeting }
let greeting: Greeting = Resolver.resolve()
print(greeting.hello())
