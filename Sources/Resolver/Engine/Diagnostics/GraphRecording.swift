/// Collects the edges of a dependency graph: the app-wide recording (`Resolver.isRecordingGraph`), or one
/// verification's. Any thread may record; its own mutex guards the edges (never the registry's).
@usableFromInline
final class GraphRecorder: @unchecked Sendable {
    static let global = GraphRecorder()

    private let mutex = Mutex.make()
    private var recorded = Set<Resolver.Graph.Edge>()

    deinit { mutex.release() }

    var edges: Set<Resolver.Graph.Edge> { mutex.withLock { recorded } }

    func clear() { mutex.withLock { recorded.removeAll() } }
    func record(_ edge: Resolver.Graph.Edge) { _ = mutex.withLock { recorded.insert(edge) } }

    /// The recorder a resolve made now reports to, nil when nothing records (DESIGN.md, "Detours").
    static var current: GraphRecorder? {
        if let verification = ResolutionContext.existing?.verification ?? VerificationRun.current {
            return verification.recorder
        }
        return Published.recordingGraph.load() != 0 ? global : nil
    }

    /// The one place that records an edge, on every resolve path's detour: from the innermost factory
    /// running on this thread, else the async factory this task runs (`AsyncFrame`), to `type`.
    @usableFromInline
    @inline(never)
    static func recordResolve(of type: Any.Type, _ key: RegistryKey) {
        guard let recorder = current else { return }
        guard let from = ResolutionContext.currentState.innermostRegistration?.graphNode ?? AsyncFrame.current?.node else {
            return
        }
        let to = Resolver.Graph.Node(typeID: key.typeID, type: String(describing: type), name: key.nameText, scope: nil)
        recorder.record(Resolver.Graph.Edge(from: from, to: to))
    }
}
