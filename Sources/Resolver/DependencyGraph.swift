extension Resolver {
    /// A dependency graph: one node per service, one edge per "the factory of `from` resolves `to`".
    ///
    /// An edge is recorded whenever a resolve (through any container, the static API or a property wrapper)
    /// happens while a factory is running on the same thread: `@Injected` properties of an object made by a
    /// factory count, a `@LazyInjected` property counts only if it is first read while a factory runs.
    public struct Graph: Sendable, Equatable {
        /// A service: its type, its name, and the scope of its registration (nil when nothing is registered
        /// under that type and name: a dependency that is missing, or one resolved with `optional()`).
        public struct Node: Hashable, Sendable, Comparable, CustomStringConvertible {
            /// The identity of the type (two types may print the same).
            let typeID: UInt64
            /// The service type, as Swift prints it.
            public let type: String
            /// The registration's name, or nil.
            public let name: String?
            /// The registration's scope (`application`, `graph`, …, or the class of a custom scope),
            /// `collection` for a list whose elements are added with `register(into:)`, nil if unregistered.
            public let scope: String?
            /// What its factory is bound to: `"@MainActor"` for a factory registered as `{ @MainActor in … }`,
            /// `"async"` for an async factory, nil for a plain one (or nothing registered).
            public let isolation: String?
            /// For an element of a collection (`register(into:)`), whose name (`[Element] #n`) says nothing
            /// of where it comes from: where it was registered (`Module/File.swift:LINE`); else nil.
            public let registeredAt: String?
            /// For an element of a collection: the type of the instance it built, as Swift prints it
            /// (`MetricsPlugin` in a list of `any Plugin`), once a resolve has shown it (`verify()`, and
            /// `graph(format:)` through it, resolve each element). Nil before, when the factory returned
            /// nil, and for other nodes.
            public let instanceType: String?
            /// Whether it is an element of a collection.
            let isElement: Bool

            init(typeID: UInt64, type: String, name: String?, scope: String?, isolation: String? = nil,
                 element: (registeredAt: String?, instanceType: String?)? = nil) {
                self.typeID = typeID
                self.type = type
                self.name = name
                self.scope = scope
                self.isolation = isolation
                registeredAt = element?.registeredAt
                instanceType = element?.instanceType
                isElement = element != nil
            }

            /// Whether something is registered under this type and name.
            public var isRegistered: Bool {
                scope != nil
            }

            /// "Type" or "Type:name", as the failure messages print a service.
            public var description: String {
                name.map { "\(type):\($0)" } ?? type
            }

            /// Nodes are the same service when type and name are.
            public static func == (lhs: Node, rhs: Node) -> Bool {
                lhs.typeID == rhs.typeID && lhs.name == rhs.name
            }

            public func hash(into hasher: inout Hasher) {
                hasher.combine(typeID)
                hasher.combine(name)
            }

            /// By description, so renderings come out in a stable order.
            public static func < (lhs: Node, rhs: Node) -> Bool {
                (lhs.description, lhs.typeID) < (rhs.description, rhs.typeID)
            }

            /// The same node with `scope` (and `element`, when given).
            func with(scope: String?, element: (registeredAt: String?, instanceType: String?)? = nil) -> Node {
                Node(typeID: typeID, type: type, name: name, scope: scope, isolation: isolation,
                     element: element ?? (isElement ? (registeredAt, instanceType) : nil))
            }
        }

        /// `from`'s factory resolves `to`.
        public struct Edge: Hashable, Sendable, Comparable {
            /// The service whose factory was running.
            public let from: Node
            /// The service it resolved.
            public let to: Node

            public static func < (lhs: Edge, rhs: Edge) -> Bool {
                (lhs.from, lhs.to) < (rhs.from, rhs.to)
            }
        }

        /// Every node, sorted.
        public let nodes: [Node]
        /// Every edge, sorted.
        public let edges: [Edge]

        /// A graph of `nodes` and `edges`: the nodes of the edges are added when missing, with the scope
        /// `nodes` gives them.
        init(nodes: some Sequence<Node>, edges: some Sequence<Edge>) {
            var byKey = Dictionary(nodes.map { ($0, $0) }, uniquingKeysWith: { $1 })
            let edges = Set(edges.map { edge in
                let from = byKey[edge.from, default: edge.from], to = byKey[edge.to, default: edge.to]
                byKey[from] = from
                byKey[to] = to
                return Edge(from: from, to: to)
            })
            self.nodes = byKey.values.sorted()
            self.edges = edges.sorted()
        }

        /// The graph as text for `format`.
        public func rendered(as format: GraphFormat) -> String {
            switch format {
            case .dot: return dot
            case .mermaid: return mermaid
            }
        }

        /// The label lines of `node`: its type, its name, its scope (and its factory's isolation, if any).
        /// A collection's element shows the type of the instance it built, where known, and where it was
        /// registered: its type and name are its list's.
        private func labelLines(of node: Node) -> [String] {
            var lines = [node.instanceType ?? node.type]
            if let name = node.name {
                lines.append("name: \(name)")
            }
            if let place = node.registeredAt {
                lines.append("at: \(place)")
            }
            let scope = node.scope ?? "not registered"
            lines.append(node.isolation.map { "\(scope), \($0)" } ?? scope)
            return lines
        }

        private func identifiers() -> [Node: String] {
            Dictionary(uniqueKeysWithValues: nodes.enumerated().map { ($1, "n\($0)") })
        }

        /// Graphviz: `dot -Tsvg` draws it.
        var dot: String {
            let id = identifiers()
            var lines = [
                "digraph Resolver {",
                "    rankdir=LR;",
                "    node [shape=box, style=rounded, fontname=\"Helvetica\"];",
            ]
            for node in nodes {
                let label = labelLines(of: node).map(Graph.dotEscaped).joined(separator: "\\n")
                let style = node.isRegistered ? "" : ", style=\"rounded,dashed\", color=\"#c0392b\""
                lines.append("    \(id[node]!) [label=\"\(label)\"\(style)];")
            }
            for edge in edges {
                let style = edge.to.isRegistered ? "" : " [style=dashed, color=\"#c0392b\"]"
                lines.append("    \(id[edge.from]!) -> \(id[edge.to]!)\(style);")
            }
            lines.append("}")
            return lines.joined(separator: "\n") + "\n"
        }

        /// Mermaid: a `flowchart`, for Markdown that renders Mermaid.
        var mermaid: String {
            let id = identifiers()
            var lines = ["flowchart LR"]
            for node in nodes {
                let label = labelLines(of: node).map(Graph.mermaidEscaped).joined(separator: "<br/>")
                lines.append("    \(id[node]!)[\"\(label)\"]\(node.isRegistered ? "" : ":::missing")")
            }
            for edge in edges {
                lines.append("    \(id[edge.from]!) \(edge.to.isRegistered ? "-->" : "-.->") \(id[edge.to]!)")
            }
            lines.append("    classDef missing stroke:#c0392b,stroke-dasharray:5 5")
            return lines.joined(separator: "\n") + "\n"
        }

        /// A DOT double-quoted string's contents.
        static func dotEscaped(_ text: String) -> String {
            escaped(text, ["\\": "\\\\", "\"": "\\\"", "\n": "\\n"])
        }

        /// A Mermaid quoted label's contents: quotes and markup characters as Mermaid's entity codes.
        static func mermaidEscaped(_ text: String) -> String {
            escaped(text, ["\"": "#quot;", "<": "#lt;", ">": "#gt;", "&": "#amp;", "#": "#35;", "\n": "<br/>"])
        }

        /// `text` with each character found in `replacements` replaced.
        private static func escaped(_ text: String, _ replacements: [Character: String]) -> String {
            text.map { replacements[$0] ?? String($0) }.joined()
        }
    }

    /// A text format for a dependency graph.
    public enum GraphFormat: Sendable {
        /// Graphviz DOT: `dot -Tsvg graph.dot > graph.svg`.
        case dot
        /// A Mermaid `flowchart`, which GitHub renders in Markdown.
        case mermaid
    }

    /// The dependency graph of `root`, as ``graph(format:)-swift.method``.
    public static func graph(format: GraphFormat) -> String {
        root.graph(format: format)
    }

    /// The dependency graph of this container (and its children), as text for `format`: the edges recorded
    /// so far while `isRecordingGraph` is on, or else the graph `verify()` finds, which runs every
    /// argument-less factory once (see `verify(timeout:)`).
    public func graph(format: GraphFormat) -> String {
        if Resolver.isRecordingGraph {
            return recordedGraph.rendered(as: format)
        }
        return verify().graph.rendered(as: format)
    }

    /// Whether every resolve made while a factory runs is recorded as an edge of the dependency graph
    /// (`graph(format:)`), as the app runs. Off by default; switching it on starts an empty recording.
    /// While it is on, every resolve takes a slower path (a lock per resolve).
    public static var isRecordingGraph: Bool {
        get { Published.recordingGraph.load() != 0 }
        set {
            registry.withLock {
                let wasOn = Published.recordingGraph.load() != 0
                guard newValue != wasOn else { return }
                if newValue {
                    GraphRecorder.global.clear()
                    Published.recordingGraph.store(1)
                    Published.detours.increment()
                } else {
                    Published.recordingGraph.store(0)
                    Published.detours.decrement()
                }
            }
        }
    }

    /// The recorded edges, with a node for each registration this container resolves.
    var recordedGraph: Graph {
        Graph(nodes: registry.withLock { reachableRegistrationsLocked() }.map(\.scopedGraphNode),
              edges: GraphRecorder.global.edges)
    }

    /// Every registration a lookup in this container can find, in lookup order: its own, then its
    /// children's depth first, skipping keys found earlier; a collection's list followed by each element a
    /// resolve of it from here includes. The mutex must be held.
    func reachableRegistrationsLocked() -> [RegistrationDescribing] {
        registry.assertLocked()
        var seen = Set<Graph.Node>()
        var found: [RegistrationDescribing] = []
        func collect(_ container: Resolver) {
            let own = container.ownEntriesLocked().compactMap { $0.registration as? RegistrationDescribing }
            found += own.sorted { $0.graphNode < $1.graphNode }.filter { seen.insert($0.graphNode).inserted }
            container.children.forEach(collect)
        }
        collect(self)
        return found.flatMap { $0.describingLocked(from: self) }
    }
}

/// How a graph names a scope: the built-in scopes by their static names, others by their class.
func scopeName(_ scope: ResolverScope) -> String {
    let builtIn: [(ResolverScope, String)] = [(ResolverScope.application, "application"), (ResolverScope.cached, "cached"),
                                              (ResolverScope.graph, "graph"), (ResolverScope.shared, "shared"),
                                              (ResolverScope.unique, "unique"), (ResolverScope.container, "container")]
    return builtIn.first { $0.0 === scope }?.1 ?? String(describing: type(of: scope))
}
