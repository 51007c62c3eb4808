/// Collects the output of one render pass of a scene: nodes, actions, title, navigation detail.
@MainActor
final class RenderContext {
    let scene: SceneInstance
    var actions: [String: () -> Void] = [:]
    var inputs: [String: (String) -> Void] = [:]
    var title: String?
    var detail: (any View)?
    var environmentObjects: [ObjectIdentifier: AnyObject] = [:]

    init(scene: SceneInstance) { self.scene = scene }

    /// Renders any view at a structural path.
    func render(_ view: any View, path: String) -> [Node] {
        if let primitive = view as? any PrimitiveView { return primitive.makeNodes(self, path: path) }
        scene.installDynamicProperties(of: view, path: path, context: self)
        return render(view.body, path: path)
    }
}
