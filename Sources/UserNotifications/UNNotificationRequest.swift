import Foundation

/// A notification to deliver: its identifier, content and trigger.
public final class UNNotificationRequest: NSObject, @unchecked Sendable {
    // Unchecked: immutable once made (the content is copied in).
    /// The identifier: a request added with the identifier of a pending one replaces it.
    public let identifier: String
    /// What it says.
    public let content: UNNotificationContent
    /// When it is delivered (nil: now).
    public let trigger: UNNotificationTrigger?

    /// A request.
    public init(identifier: String, content: UNNotificationContent, trigger: UNNotificationTrigger?) {
        self.identifier = identifier
        // Safe cast: `copy()` of content is always a `UNNotificationContent`.
        self.content = content.copy() as! UNNotificationContent
        self.trigger = trigger
    }
}

/// A delivered notification.
public final class UNNotification: NSObject, @unchecked Sendable {
    // Unchecked: immutable once made.
    /// The request it came from.
    public let request: UNNotificationRequest
    /// When it was delivered.
    public let date: Date

    init(request: UNNotificationRequest, date: Date) {
        self.request = request
        self.date = date
    }
}

/// What the app may do with notifications.
public struct UNAuthorizationOptions: OptionSet, Sendable, Hashable {
    /// The options' bits.
    public let rawValue: UInt
    /// An option set.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// Badges (no effect here).
    public static let badge = UNAuthorizationOptions(rawValue: 1 << 0)
    /// Sounds (the browser's own).
    public static let sound = UNAuthorizationOptions(rawValue: 1 << 1)
    /// Alerts: what a browser shows.
    public static let alert = UNAuthorizationOptions(rawValue: 1 << 2)
    /// Car play (no effect here).
    public static let carPlay = UNAuthorizationOptions(rawValue: 1 << 3)
    /// Critical alerts (no effect here).
    public static let criticalAlert = UNAuthorizationOptions(rawValue: 1 << 4)
    /// A button for the app's notification settings (no effect here).
    public static let providesAppNotificationSettings = UNAuthorizationOptions(rawValue: 1 << 5)
    /// Provisional authorization: not available in browsers, which always ask.
    public static let provisional = UNAuthorizationOptions(rawValue: 1 << 6)
}

/// Whether the app may show notifications.
public enum UNAuthorizationStatus: Int, Sendable {
    /// The person has not been asked.
    case notDetermined = 0
    /// The person refused.
    case denied = 1
    /// The person allowed them.
    case authorized = 2
    /// Provisional (never here).
    case provisional = 3
    /// Ephemeral (never here).
    case ephemeral = 4
}

/// The app's notification settings.
public final class UNNotificationSettings: NSObject, Sendable {
    /// Whether the app may show notifications.
    public let authorizationStatus: UNAuthorizationStatus

    init(authorizationStatus: UNAuthorizationStatus) { self.authorizationStatus = authorizationStatus }
}
