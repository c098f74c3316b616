import CRegistry
import Foundation
@testable import Resolver
import Testing

// Services for the graph tests.
private final class Config {}
private final class Store { init(config: Config) {} }
private final class API { init(config: Config) {} }
private final class Model { init(store: Store, api: API) {} }
private final class Logger {}
private final class Page {
    @Injected var logger: Logger
    @OptionalInjected var tracker: Tracker?
}
private final class Tracker {}
private final class Panel {
    init(logger: Logger, tracker: Tracker?) {}
}

extension ResolverTests {
    /// `graph(format:)`: the dependency graph as DOT and Mermaid.
    @Suite struct DependencyGraph {
        /// Model(Store(Config), API(Config)): Config named, Store cached.
        static func modelContainer() -> Resolver {
            let container = Resolver()
            container.register(name: "live") { Config() }
            container.register { Store(config: $0.resolve(name: "live")) }.scope(.application)
            container.register { API(config: $0.resolve(name: "live")) }.scope(.unique)
            container.register { Model(store: $0.resolve(), api: $0.resolve()) }
            return container
        }

        @Test func verifyFindsOneNodePerRegistrationAndOneEdgePerResolve() {
            let graph = Self.modelContainer().verify().graph
            ResolverScope.application.reset()

            #expect(graph.nodes.map(\.description) == ["API", "Config:live", "Model", "Store"])
            #expect(graph.nodes.map(\.scope) == ["unique", "graph", "graph", "application"])
            let edges = graph.edges.map { "\($0.from) -> \($0.to)" }
            #expect(edges == ["API -> Config:live", "Model -> API", "Model -> Store", "Store -> Config:live"])
        }

        @Test func dotOutput() {
            let dot = Self.modelContainer().graph(format: .dot)
            ResolverScope.application.reset()

            #expect(dot == """
                digraph Resolver {
                    rankdir=LR;
                    node [shape=box, style=rounded, fontname="Helvetica"];
                    n0 [label="API\\nunique"];
                    n1 [label="Config\\nname: live\\ngraph"];
                    n2 [label="Model\\ngraph"];
                    n3 [label="Store\\napplication"];
                    n0 -> n1;
                    n2 -> n0;
                    n2 -> n3;
                    n3 -> n1;
                }

                """)
        }

        @Test func mermaidOutputIsAFlowchart() {
            let mermaid = Self.modelContainer().graph(format: .mermaid)
            ResolverScope.application.reset()

            #expect(mermaid == """
                flowchart LR
                    n0["API<br/>unique"]
                    n1["Config<br/>name: live<br/>graph"]
                    n2["Model<br/>graph"]
                    n3["Store<br/>application"]
                    n0 --> n1
                    n2 --> n0
                    n2 --> n3
                    n3 --> n1
                    classDef missing stroke:#c0392b,stroke-dasharray:5 5

                """)
        }

        @Test func missingServicesAreDashedNodes() {
            let container = Resolver()
            container.register { Store(config: $0.resolve()) }
            let verification = container.verify()
            #expect(!verification.isValid)
            let graph = verification.graph
            #expect(graph.nodes.map(\.description) == ["Config", "Store"])
            #expect(graph.nodes.filter(\.isRegistered).map(\.description) == ["Store"])
            let dot = graph.rendered(as: .dot)
            #expect(dot.contains(##"n0 [label="Config\nnot registered", style="rounded,dashed", color="#c0392b"];"##), "\(dot)")
            #expect(dot.contains(##"n1 -> n0 [style=dashed, color="#c0392b"];"##), "\(dot)")
            let mermaid = graph.rendered(as: .mermaid)
            #expect(mermaid.contains(#"n0["Config<br/>not registered"]:::missing"#), "\(mermaid)")
            #expect(mermaid.contains("n1 -.-> n0"), "\(mermaid)")
        }

        /// Property wrappers of an object a factory makes resolve from the
        /// sandbox (they use `root`), and count as the factory's edges.
        @Test func propertyWrappersInAFactoryAreEdges() {
            let container = Resolver()
            container.register { Page() }
            container.register { Logger() }
            let verification = container.verify()
            #expect(verification.isValid, "\(verification)")
            let edges = verification.graph.edges.map { "\($0.from) -> \($0.to)" }
            #expect(edges == ["Page -> Logger", "Page -> Tracker"])
            #expect(verification.graph.nodes.map(\.isRegistered) == [true, true, false])
        }

        /// A protocol registered with `implements()` resolves through the
        /// registration it names: one edge between them.
        @Test func implementsIsAnEdge() {
            let container = Resolver()
            container.register { XYZService() }.implements(XYZFetching.self).scope(.application)
            let graph = container.verify().graph
            ResolverScope.application.reset()
            #expect(graph.edges.map { "\($0.from) -> \($0.to)" } == ["XYZFetching -> XYZService"])
        }

        /// An `implements()` registration answers with the instance of the
        /// registration it names: its node shows that one's scope (an
        /// `.application` service's protocol is not drawn as `graph`).
        @Test func implementsNodesShowTheScopeTheyAnswerFrom() {
            let container = Resolver()
            container.register { XYZService() }.implements(XYZFetching.self).scope(.application)
            container.register(name: "each") { XYZService() }.implements(XYZFetching.self, name: "each").scope(.unique)
            let graph = container.verify().graph
            ResolverScope.application.reset()
            #expect(graph.nodes.map(\.description) == ["XYZFetching", "XYZFetching:each", "XYZService", "XYZService:each"])
            #expect(graph.nodes.map(\.scope) == ["application", "unique", "application", "unique"])
            let dot = graph.rendered(as: .dot)
            #expect(dot.contains(#"n0 [label="XYZFetching\napplication"];"#), "\(dot)")
        }

        @Test func labelsAreEscaped() {
            let node = Resolver.Graph.Node(typeID: 1, type: "Box<\"A\\B\">", name: "x#1&y", scope: "graph")
            let graph = Resolver.Graph(nodes: [node], edges: [])
            #expect(graph.rendered(as: .dot).contains(##"n0 [label="Box<\"A\\B\">\nname: x#1&y\ngraph"];"##))
            #expect(graph.rendered(as: .mermaid).contains(##"n0["Box#lt;#quot;A\B#quot;#gt;<br/>name: x#35;1#amp;y<br/>graph"]"##))
        }

        /// Graphviz reads the DOT (Debian's `graphviz`; `make test` installs
        /// it where apt-get can): it must draw an SVG with every label.
        @Test func graphvizDrawsTheDot() throws {
            let dot = Self.modelContainer().graph(format: .dot)
            ResolverScope.application.reset()
            let check = try runTool("sh", ["-c", "command -v dot"])
            guard check.status == 0 else {
                // No Graphviz: the text itself must still be a digraph.
                #expect(dot.hasPrefix("digraph Resolver {") && dot.hasSuffix("}\n"))
                return
            }
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("resolver-graph-\(UUID()).dot")
            try dot.write(to: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: file) }
            let drawn = try runTool("dot", ["-Tsvg", file.path])
            #expect(drawn.status == 0, "dot failed: \(drawn.output)")
            #expect(drawn.output.contains("<svg"))
            for label in ["Model", "Store", "Config", "name: live", "application"] {
                #expect(drawn.output.contains(label), "the SVG lacks \(label)")
            }
        }

        @Test func recordingCollectsWhatTheAppResolvesOnAnyThread() {
            let container = Self.modelContainer()
            container.register { Panel(logger: $0.resolve(), tracker: $0.optional()) }
            container.register { Logger() }
            Resolver.isRecordingGraph = true
            #expect(Resolver.isRecordingGraph)
            let model: Model = container.resolve()
            let finished = runOnThreads(2, within: 60) { _ in
                let panel: Panel = container.resolve()
                withExtendedLifetime(panel) {}
            }
            let recorded = container.graph(format: .mermaid)
            Resolver.isRecordingGraph = false
            ResolverScope.application.reset()
            withExtendedLifetime(model) {}

            #expect(finished)
            #expect(!Resolver.isRecordingGraph)
            #expect(recorded.contains(#"["Panel<br/>graph"]"#) && recorded.contains(#"["Tracker<br/>not registered"]:::missing"#),
                    "\(recorded)")
            let edges = Set(container.recordedGraph.edges.map { "\($0.from) -> \($0.to)" })
            #expect(edges == ["Model -> Store", "Model -> API", "Store -> Config:live", "API -> Config:live",
                              "Panel -> Logger", "Panel -> Tracker"])
            #expect(released { Published.detours.load() == 0 }, "recording left resolves on the detour")
        }

        @Test func switchingRecordingOnStartsAnEmptyRecording() {
            let container = Self.modelContainer()
            Resolver.isRecordingGraph = true
            _ = container.resolve(Model.self)
            Resolver.isRecordingGraph = false
            #expect(!container.recordedGraph.edges.isEmpty)
            Resolver.isRecordingGraph = true
            #expect(container.recordedGraph.edges.isEmpty)
            Resolver.isRecordingGraph = false
            ResolverScope.application.reset()
        }
    }
}
