import Foundation

/// The older way to declare previews: a type whose static `previews` is the view to show. The preview gallery
/// finds every such type in the app, as Xcode does.
@MainActor @preconcurrency
public protocol PreviewProvider {
    /// The previews' view type.
    associatedtype Previews: View
    /// The views to preview (a `Group` of several shows them one after another).
    @ViewBuilder static var previews: Previews { get }
    /// The platform the previews are for (`nil`: the app's own).
    static var platform: PreviewPlatform? { get }
}

extension PreviewProvider {
    /// The app's own platform.
    public static var platform: PreviewPlatform? { nil }
}

/// The platforms a ``PreviewProvider`` can name.
public enum PreviewPlatform: Sendable {
    /// iOS.
    case iOS
    /// macOS.
    case macOS
    /// tvOS.
    case tvOS
    /// watchOS.
    case watchOS
    /// visionOS.
    case visionOS
}

/// How a preview is sized in the gallery.
public enum PreviewLayout: Sendable {
    /// In a device-sized frame (393 × 852 points, upright).
    case device
    /// As large as the view wants to be.
    case sizeThatFits
    /// A fixed size, in points.
    case fixed(width: CGFloat, height: CGFloat)
}

/// A device a preview is meant for, by name ("iPhone 15 Pro"); the gallery labels the preview with it.
public struct PreviewDevice: RawRepresentable, ExpressibleByStringLiteral, Sendable, Hashable {
    /// The device's name.
    public let rawValue: String
    /// A device by name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A device by name.
    public init(stringLiteral value: String) { rawValue = value }
}

/// Which way up a device is held.
public enum InterfaceOrientation: CaseIterable, Identifiable, Hashable, Sendable {
    /// Upright.
    case portrait
    /// Upside down.
    case portraitUpsideDown
    /// On its side, home button on the left.
    case landscapeLeft
    /// On its side, home button on the right.
    case landscapeRight
    /// The orientation itself.
    public var id: Self { self }
    var isLandscape: Bool { self == .landscapeLeft || self == .landscapeRight }
}

/// Whether a view is being shown in the preview gallery (where the `preview…` modifiers take effect).
struct PreviewingKey: EnvironmentKey {
    static let defaultValue = false
}

extension EnvironmentValues {
    /// Whether the view is shown in the preview gallery.
    var isPreviewing: Bool {
        get { self[PreviewingKey.self] }
        set { self[PreviewingKey.self] = newValue }
    }
}

extension View {
    /// The name the preview gallery shows above this preview. Outside the gallery, nothing (as on Apple's systems,
    /// where it names the preview in Xcode's canvas).
    public func previewDisplayName(_ value: String?) -> some View { PreviewCaption(content: self, caption: value) }

    /// The preview's size in the gallery: a device frame, the view's own size, or a fixed one. Outside the
    /// gallery, nothing.
    public func previewLayout(_ value: PreviewLayout) -> some View { PreviewFrame(content: self, layout: value) }

    /// The device the preview is for; the gallery labels the preview with its name. Outside the gallery, nothing.
    public func previewDevice(_ value: PreviewDevice?) -> some View {
        PreviewCaption(content: self, caption: value.map { "Device: " + $0.rawValue })
    }

    /// Which way up the preview's device frame is held in the gallery. Outside the gallery, nothing.
    public func previewInterfaceOrientation(_ value: InterfaceOrientation) -> some View {
        PreviewFrame(content: self, layout: .device, orientation: value)
    }
}

/// A caption above a view in the preview gallery.
struct PreviewCaption<Content: View>: View {
    let content: Content
    let caption: String?
    @Environment(\.isPreviewing) private var previewing
    var body: some View {
        if previewing, let caption {
            VStack(alignment: .leading, spacing: 4) {
                Text(caption).font(.caption).foregroundStyle(.secondary)
                content
            }
        } else {
            content
        }
    }
}

/// A view sized as the preview gallery's layout says.
struct PreviewFrame<Content: View>: View {
    let content: Content
    let layout: PreviewLayout
    var orientation: InterfaceOrientation = .portrait
    @Environment(\.isPreviewing) private var previewing
    var body: some View {
        if previewing {
            switch layout {
            case .sizeThatFits:
                content.fixedSize()
            case .fixed(let width, let height):
                content.frame(width: width, height: height)
            case .device:
                let size = PreviewFrame.deviceSize(orientation)
                content.frame(width: size.width, height: size.height).border(Color.secondary)
            }
        } else {
            content
        }
    }

    /// The device frame's size: an iPhone's, in points.
    static func deviceSize(_ orientation: InterfaceOrientation) -> CGSize {
        orientation.isLandscape ? CGSize(width: 852, height: 393) : CGSize(width: 393, height: 852)
    }
}
