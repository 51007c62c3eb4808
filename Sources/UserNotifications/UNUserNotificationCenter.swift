import Foundation
import SwiftUIWeb
import Synchronization

/// The app's notifications: asks the person's permission, keeps the pending requests and delivers each when its
/// trigger fires.
///
/// Linux difference: notifications are shown by the app's open browser windows as Web Notifications
/// (SwiftUIWeb's `WebNotificationCenter`), so they reach the person while at least one window of the app is open
/// in a browser (in the background or minimized is enough), and the app's process keeps the schedule: pending
/// requests end with the process, as they would if the app removed them. ``requestAuthorization(options:)`` must be
/// called from a button's action (a browser asks only right after a click). There is no delegate: a notification
/// is shown whether or not a window is in front, and a click on it brings its window forward.
public final class UNUserNotificationCenter: NSObject, Sendable {
    struct Pending {
        var request: UNNotificationRequest
        var task: Task<Void, Never>
    }

    struct State {
        var pending: [String: Pending] = [:]
        var delivered: [UNNotification] = []
    }

    private let state = Mutex(State())
    private static let shared = UNUserNotificationCenter()

    /// The app's notification center.
    public static func current() -> UNUserNotificationCenter { shared }

    override private init() { super.init() }

    /// Asks the person whether the app may show notifications (in the window clicked last: call it from a button's
    /// action); returns whether they allowed them. Throws when no window was clicked moments before.
    public func requestAuthorization(options: UNAuthorizationOptions = []) async throws -> Bool {
        let permission = try await WebNotificationCenter.shared.requestPermission()
        return permission == .granted
    }

    /// The app's notification settings, as its windows report them.
    public func notificationSettings() async -> UNNotificationSettings {
        let permission = await WebNotificationCenter.shared.permission
        let status: UNAuthorizationStatus =
            switch permission {
            case .granted: .authorized
            case .denied: .denied
            case .notDetermined, .unavailable: .notDetermined
            }
        return UNNotificationSettings(authorizationStatus: status)
    }

    /// Schedules a request (replacing a pending one with its identifier). A request without a trigger is delivered
    /// now; one whose trigger never fires again is refused.
    public func add(_ request: UNNotificationRequest) async throws {
        let first = request.trigger.map { $0.nextDate(after: Date()) } ?? Date()
        guard let first else {
            throw NSError(
                domain: "UNErrorDomain", code: 0,
                userInfo: [NSLocalizedDescriptionKey: "the trigger of \(request.identifier) never fires"])
        }
        state.withLock { state in
            state.pending[request.identifier]?.task.cancel()
            let task = Task { [weak self] in
                guard let self else { return }
                await self.run(request, first: first)
            }
            state.pending[request.identifier] = Pending(request: request, task: task)
        }
    }

    /// Waits for each time the request's trigger fires and delivers it then.
    private func run(_ request: UNNotificationRequest, first: Date) async {
        var next: Date? = first
        while let date = next {
            do {
                try await Task.sleep(for: .seconds(max(0, date.timeIntervalSinceNow)))
            } catch {
                return  // removed or replaced
            }
            await deliver(request)
            next =
                request.trigger?.repeats == true ? request.trigger?.nextDate(after: date.addingTimeInterval(0.5)) : nil
        }
        state.withLock { state in
            if state.pending[request.identifier]?.request === request { state.pending[request.identifier] = nil }
        }
    }

    private func deliver(_ request: UNNotificationRequest) async {
        let shown = await WebNotificationCenter.shared.show(
            tag: request.identifier, title: request.content.title, body: request.content.shownBody)
        guard shown else { return }
        state.withLock { state in
            state.delivered.removeAll { $0.request.identifier == request.identifier }
            state.delivered.append(UNNotification(request: request, date: Date()))
        }
    }

    /// The requests waiting for their triggers.
    public func pendingNotificationRequests() async -> [UNNotificationRequest] {
        state.withLock { $0.pending.values.map(\.request) }.sorted { $0.identifier < $1.identifier }
    }

    /// Removes pending requests.
    public func removePendingNotificationRequests(withIdentifiers identifiers: [String]) {
        state.withLock { state in
            for identifier in identifiers { state.pending.removeValue(forKey: identifier)?.task.cancel() }
        }
    }

    /// Removes every pending request.
    public func removeAllPendingNotificationRequests() {
        state.withLock { state in
            for pending in state.pending.values { pending.task.cancel() }
            state.pending = [:]
        }
    }

    /// The notifications delivered (shown by a window) since the app started, oldest first.
    public func deliveredNotifications() async -> [UNNotification] { state.withLock { $0.delivered } }

    /// Forgets delivered notifications.
    public func removeDeliveredNotifications(withIdentifiers identifiers: [String]) {
        state.withLock { $0.delivered.removeAll { identifiers.contains($0.request.identifier) } }
    }

    /// Forgets every delivered notification.
    public func removeAllDeliveredNotifications() { state.withLock { $0.delivered = [] } }
}
