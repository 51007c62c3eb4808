import Foundation

/// Where an `AsyncImage` is in loading its image.
public enum AsyncImagePhase: Sendable {
    /// Not loaded yet.
    case empty
    /// Loaded.
    case success(Image)
    /// Failed to load.
    case failure(any Error)

    /// The image, once loaded.
    public var image: Image? {
        if case .success(let image) = self { return image }
        return nil
    }
    /// The error, when loading failed.
    public var error: (any Error)? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

/// Why an `AsyncImage` shows its failure phase: the browser could not load the image.
public struct AsyncImageLoadError: Error, CustomStringConvertible {
    /// The image's URL.
    public let url: URL?
    /// What went wrong.
    public var description: String {
        url.map { "the browser could not load the image at \($0.absoluteString)" } ?? "the image has no URL"
    }
}

/// An image the browser loads from a URL. The page loads it (the server never fetches it): every phase the view
/// can show is rendered, and the page shows the one it is in (empty while loading, then success or failure).
public struct AsyncImage<Content: View>: View, PrimitiveView {
    let url: URL?
    let phaseContent: (AsyncImagePhase) -> Content
    let animation: Animation?
    /// Image pixels per point: a scale of 2 shows the image at half its pixel size.
    let scale: Double
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }

    /// Shows the phases the view gives for loading, loaded and failed; with an animation in `transaction`, the
    /// loaded phase fades in with it.
    public init(
        url: URL?, scale: CGFloat = 1, transaction: Transaction = Transaction(),
        @ViewBuilder content: @escaping (AsyncImagePhase) -> Content
    ) {
        self.url = url
        phaseContent = content
        animation = transaction.animation
        self.scale = scale > 0 ? Double(scale) : 1
    }

    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let loadable = url.map { ["http", "https"].contains($0.scheme?.lowercased() ?? "") } ?? false
        var children: [Node] = []
        if let url, loadable {
            children.append(
                Node(
                    "div", id: path + ".s",
                    attributes: [("class", "sw-phase sw-phase-success")]
                        + (animation.map {
                            [("style", "--sw-tr:\(Font.num($0.duration))s;--sw-tc:\($0.curve);--sw-io:0;--sw-it:none")]
                        } ?? []),
                    children: context.render(
                        phaseContent(.success(Image(remote: url, scale: scale))), path: path + ".s.c")))
        }
        children.append(
            Node(
                "div", id: path + ".e", attributes: [("class", "sw-phase sw-phase-empty")],
                children: context.render(phaseContent(.empty), path: path + ".e.c")))
        children.append(
            Node(
                "div", id: path + ".f", attributes: [("class", "sw-phase sw-phase-failure")],
                children: context.render(
                    phaseContent(.failure(AsyncImageLoadError(url: url))), path: path + ".f.c")))
        // No image to load (no URL, or not http/https): the failure phase at once.
        let state = loadable ? "loading" : "failed"
        return [
            Node("div", id: path, attributes: [("class", "sw-async-image"), ("data-phase", state)], children: children)
        ]
    }
}

extension AsyncImage where Content == Image {
    /// The loaded image, or a gray placeholder while it loads or when it fails.
    public init(url: URL?, scale: CGFloat = 1) {
        self.init(url: url, scale: scale) { phase in phase.image ?? Image(placeholder: ()) }
    }
}

extension AsyncImage {
    /// The loaded image through `content`, or `placeholder` while it loads or when it fails.
    public init<I: View, P: View>(
        url: URL?, scale: CGFloat = 1, @ViewBuilder content: @escaping (Image) -> I,
        @ViewBuilder placeholder: @escaping () -> P
    ) where Content == ConditionalContent {
        self.init(url: url, scale: scale) { phase in
            if let image = phase.image {
                ViewBuilder.buildEither(first: content(image))
            } else {
                ViewBuilder.buildEither(second: placeholder())
            }
        }
    }
}

/// How a change animates (for `AsyncImage(url:scale:transaction:content:)`).
public struct Transaction: Sendable {
    /// The animation of the change.
    public var animation: Animation?
    /// A transaction without animation.
    public init() {}
    /// A transaction with an animation.
    public init(animation: Animation?) { self.animation = animation }
}
