import Foundation

/// The app's system notifications, shown by its open browser windows as Web Notifications: the way a SwiftUIWeb app
/// reaches the person when none of its windows is in front. The `UserNotifications` module's
/// `UNUserNotificationCenter` delivers through it.
///
/// Browsers show a page's notifications only with the person's permission, which a page may ask for only right after
/// the person clicked in it. So ``requestPermission()`` asks in the window clicked last, within the last few
/// seconds, and fails otherwise. Each window reports whether it has permission when it connects (and after asking);
/// the app has permission when one of its open windows does.
@MainActor
public final class WebNotificationCenter {
    /// Whether the app may show notifications, as its windows report it.
    public enum Permission: String, Sendable {
        /// No window has asked yet.
        case notDetermined = "default"
        /// The person allowed notifications.
        case granted
        /// The person refused them (the browser's settings change it back).
        case denied
        /// No open window can show notifications (none is open, or the browser has no Web Notifications).
        case unavailable = "unsupported"
    }

    /// Why a permission request failed.
    public struct RequestError: Error, CustomStringConvertible {
        /// What went wrong.
        public let description: String
    }

    /// The one center of this process.
    public static let shared = WebNotificationCenter()

    /// The window whose click is being handled: a task a button's action starts inherits it, so a permission request
    /// made there goes to the window that was clicked.
    @TaskLocal static var clickedScene: SceneInstance?

    /// How long after a click a window may still ask for permission (browsers keep a click's "user activation"
    /// about five seconds).
    static let activationWindow: Duration = .seconds(4)

    private var hosts: [ObjectIdentifier: () -> AppHost?] = [:]
    private var waiters: [ObjectIdentifier: [CheckedContinuation<Permission, Never>]] = [:]

    nonisolated init() {}

    func register(_ host: AppHost) {
        hosts[ObjectIdentifier(host)] = { [weak host] in host }
    }

    /// The open windows of every app host in this process.
    var connectedScenes: [SceneInstance] {
        hosts.values.compactMap { $0() }.flatMap { $0.scenes.values.filter { $0.sink != nil } }
    }

    /// Whether the app may show notifications: granted when an open window has permission.
    public var permission: Permission {
        let reports = connectedScenes.compactMap(\.notificationPermission)
        if reports.contains(.granted) { return .granted }
        if reports.contains(.denied) { return .denied }
        if reports.contains(.notDetermined) { return .notDetermined }
        return .unavailable
    }

    /// Asks the person whether the app may show notifications, in the window whose button started the calling task
    /// (else the window clicked last), and returns their answer. Throws when that window was not clicked in the last
    /// few seconds (call it from a button's action).
    public func requestPermission() async throws -> Permission {
        let now = ContinuousClock.now
        let recent = { (scene: SceneInstance) in
            scene.sink != nil && scene.lastClick.map { now - $0 < Self.activationWindow } ?? false
        }
        guard
            let scene = Self.clickedScene.flatMap({ recent($0) ? $0 : nil })
                ?? connectedScenes.filter(recent).max(by: { $0.lastClick! < $1.lastClick! })
        else {
            throw RequestError(
                description:
                    "notification permission can be asked only right after a click in one of the app's windows "
                    + "(browsers allow it then only); ask from a button's action")
        }
        if let known = scene.notificationPermission, known == .granted || known == .denied { return known }
        scene.pending.append(.askNotificationPermission)
        scene.schedule()
        // A window closed before the person answered: after a minute the request ends with what is known.
        let key = ObjectIdentifier(scene)
        Task { [weak scene] in
            try? await Task.sleep(for: .seconds(60))  // `try?`: a cancelled sleep ends the wait early, as intended
            for waiter in self.waiters.removeValue(forKey: key) ?? [] {
                waiter.resume(returning: scene?.notificationPermission ?? .notDetermined)
            }
        }
        return await withCheckedContinuation { waiters[ObjectIdentifier(scene), default: []].append($0) }
    }

    /// Shows a notification in every open window that may show one; the browser shows one per `tag`. Returns
    /// whether a window took it.
    @discardableResult
    public func show(tag: String, title: String, body: String) -> Bool {
        var shown = false
        for scene in connectedScenes where scene.notificationPermission == .granted {
            scene.pending.append(.notify(tag: tag, title: title, body: body))
            scene.schedule()
            shown = true
        }
        return shown
    }

    /// A window reported its permission.
    func report(_ permission: Permission, from scene: SceneInstance) {
        scene.notificationPermission = permission
        for waiter in waiters.removeValue(forKey: ObjectIdentifier(scene)) ?? [] {
            waiter.resume(returning: permission)
        }
    }
}
