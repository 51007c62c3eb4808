import Foundation

/// The preview gallery's window (`/?g=_previews`): the app's previews in a sidebar, the chosen one beside it, in
/// the frame its traits ask for.
struct PreviewGallery: View {
    let items: [PreviewCatalog.Item]

    var body: some View {
        NavigationSplitView {
            List {
                ForEach(items) { item in
                    NavigationLink {
                        PreviewCanvas(item: item)
                    } label: {
                        VStack(alignment: .leading) {
                            Text(item.title)
                            Text(item.location).font(.caption).foregroundStyle(.secondary)
                        }
                    }
                }
            }
            .navigationTitle("Previews")
        } detail: {
            ContentUnavailableView(
                "Choose a preview", systemImage: "eye",
                description: Text(
                    items.count == 1 ? "This app has one preview." : "This app has \(items.count) previews."))
        }
    }
}

/// One preview, shown with its traits: its layout and orientation, inside its modifiers.
struct PreviewCanvas: View {
    let item: PreviewCatalog.Item

    var body: some View {
        let traits = item.traits()
        var layout = PreviewLayout.device
        var orientation = InterfaceOrientation.portrait
        var modifiers: [any PreviewModifier] = []
        for trait in traits {
            switch trait.kind {
            case .layout(let value): layout = value
            case .orientation(let value): orientation = value
            case .modifier(let value): modifiers.append(value)
            }
        }
        var content = AnyView(PreviewFrame(content: AnyView(item.body()), layout: layout, orientation: orientation))
        for modifier in modifiers.reversed() { content = PreviewCanvas.wrap(content, in: modifier) }
        return VStack(alignment: .leading, spacing: 12) {
            Text(item.title).font(.title2)
            Text(item.location).font(.caption).foregroundStyle(.secondary)
            content.environment(\.isPreviewing, true)
        }
        .padding()
    }

    private static func wrap<M: PreviewModifier>(_ content: AnyView, in modifier: M) -> AnyView {
        AnyView(ModifiedPreview(modifier: modifier, content: content))
    }
}

/// A preview inside a ``PreviewModifier``: the modifier's shared context is made first (once per modifier type for
/// the gallery), and a failure to make it is shown in its place.
struct ModifiedPreview<M: PreviewModifier>: View {
    let modifier: M
    let content: AnyView
    @State private var attempt = 0

    var body: some View {
        switch SharedPreviewContexts.state(of: M.self) {
        case .made(let context as M.Context):
            modifier.body(content: PreviewModifierContent(content: content), context: context)
        case .failed(let message):
            Text("\(String(describing: M.self)).makeSharedContext() failed: \(message)").foregroundStyle(.red)
        default:
            ProgressView("Preparing \(String(describing: M.self))…")
                .task {
                    await SharedPreviewContexts.make(M.self)
                    attempt += 1  // renders again with the context
                }
        }
    }
}

/// The shared contexts ``PreviewModifier``s made, by modifier type.
@MainActor
enum SharedPreviewContexts {
    enum State {
        case made(Any)
        case failed(String)
    }
    private static var states: [ObjectIdentifier: State] = [:]
    private static var making: [ObjectIdentifier: Task<Void, Never>] = [:]

    static func state<M: PreviewModifier>(of type: M.Type) -> State? { states[ObjectIdentifier(type)] }

    /// Makes the modifier type's context, or waits for the one being made; returns once it is made or failed.
    static func make<M: PreviewModifier>(_ type: M.Type) async {
        let key = ObjectIdentifier(type)
        guard states[key] == nil else { return }
        if let task = making[key] { return await task.value }
        let task = Task { @MainActor in
            do {
                states[key] = .made(try await M.makeSharedContext())
            } catch {
                states[key] = .failed(String(describing: error))
            }
            making[key] = nil
        }
        making[key] = task
        await task.value
    }
}
