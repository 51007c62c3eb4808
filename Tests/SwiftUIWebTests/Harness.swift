import Foundation
import Testing
@testable import SwiftUIWeb

/// An app whose window shows the view a test gives it.
struct Harness<V: View>: App {
    let make: @MainActor () -> V
    init() { fatalError("use init(_:)") }
    init(_ make: @escaping @MainActor () -> V) { self.make = make }
    var body: some Scene { WindowGroup { make() } }
}

/// Opens one window on a view and renders its first document.
@MainActor
func window<V: View>(_ make: @escaping @MainActor () -> V) -> SceneInstance {
    let host = AppHost(app: Harness(make), storageDirectory: tempDir())
    let scene = host.newScene()
    _ = scene.document()
    return scene
}

extension Node {
    func first(where pred: (Node) -> Bool) -> Node? {
        if pred(self) { return self }
        for c in children { if let f = c.first(where: pred) { return f } }
        return nil
    }
    func all(where pred: (Node) -> Bool) -> [Node] {
        (pred(self) ? [self] : []) + children.flatMap { $0.all(where: pred) }
    }
    func attr(_ name: String) -> String? { attributes.first { $0.0 == name }?.1 }
    var cssClass: String { attr("class") ?? "" }
}

extension SceneInstance {
    var tree: Node { lastTree! }
    var html: String { lastTree!.html }
    /// The id of the clickable element whose text is `label`.
    func clickable(_ label: String) -> String {
        guard let n = tree.first(where: { $0.attr("data-click") != nil && $0.textContent == label }) else {
            Issue.record("no clickable \(label) in \(html)"); return ""
        }
        return n.id
    }
    @discardableResult func click(_ label: String) -> [Patch] { handle(event: ClientEvent(t: "click", id: clickable(label))) }
    /// The first element with this tag (and class fragment).
    func element(_ tag: String, class cls: String = "") -> Node? {
        tree.first { $0.tag == tag && (cls.isEmpty || $0.cssClass.contains(cls)) }
    }
    @discardableResult func input(_ id: String, _ value: String) -> [Patch] { handle(event: ClientEvent(t: "input", id: id, v: value)) }
    func text(_ s: String) -> Bool { tree.textContent.contains(s) }
}

func hasText(_ patches: [Patch], _ s: String) -> Bool {
    patches.contains {
        switch $0 {
        case .text(_, let t): return t.contains(s)
        case .replace(_, let h), .insert(_, _, let h): return h.contains(s)
        default: return false
        }
    }
}

/// The suites that drive headless Chromium run one at a time: each starts a browser, a driver and an app server,
/// and on two cores several at once slow one another past their waits.
@Suite(.serialized) enum InBrowser {}
