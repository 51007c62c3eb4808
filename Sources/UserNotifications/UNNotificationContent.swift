import Foundation

/// What a notification says. Linux difference: a notification is shown by the app's browser windows (Web
/// Notifications), which show its title and body; `subtitle` is shown in front of the body, and `sound` and `badge`
/// are kept but have no effect (browsers play their own sound and have no badge).
open class UNNotificationContent: NSObject, @unchecked Sendable {
    // Unchecked: the immutable class's properties are set once in `init`; the mutable subclass is not Sendable in
    // use (as Apple's: copy it before handing it on).
    /// The title.
    open fileprivate(set) var title: String = ""
    /// The subtitle.
    open fileprivate(set) var subtitle: String = ""
    /// The body.
    open fileprivate(set) var body: String = ""
    /// The badge number (no effect here).
    open fileprivate(set) var badge: NSNumber?
    /// The app's own information about the notification.
    open fileprivate(set) var userInfo: [AnyHashable: Any] = [:]
    /// The identifier of the thread the notification belongs to.
    open fileprivate(set) var threadIdentifier: String = ""
    /// The category identifier.
    open fileprivate(set) var categoryIdentifier: String = ""

    /// Empty content.
    public override init() { super.init() }

    /// The text a browser window shows as the body: the subtitle, then the body.
    var shownBody: String { subtitle.isEmpty ? body : body.isEmpty ? subtitle : subtitle + "\n" + body }

    func copyValues(from other: UNNotificationContent) {
        title = other.title
        subtitle = other.subtitle
        body = other.body
        badge = other.badge
        userInfo = other.userInfo
        threadIdentifier = other.threadIdentifier
        categoryIdentifier = other.categoryIdentifier
    }

    /// An immutable copy.
    open override func copy() -> Any {
        let copy = UNNotificationContent()
        copy.copyValues(from: self)
        return copy
    }

    /// A mutable copy.
    open override func mutableCopy() -> Any {
        let copy = UNMutableNotificationContent()
        copy.copyValues(from: self)
        return copy
    }
}

/// Notification content to fill in.
open class UNMutableNotificationContent: UNNotificationContent, @unchecked Sendable {
    /// The title.
    open override var title: String {
        get { super.title }
        set { super.title = newValue }
    }
    /// The subtitle.
    open override var subtitle: String {
        get { super.subtitle }
        set { super.subtitle = newValue }
    }
    /// The body.
    open override var body: String {
        get { super.body }
        set { super.body = newValue }
    }
    /// The badge number (no effect here).
    open override var badge: NSNumber? {
        get { super.badge }
        set { super.badge = newValue }
    }
    /// The app's own information about the notification.
    open override var userInfo: [AnyHashable: Any] {
        get { super.userInfo }
        set { super.userInfo = newValue }
    }
    /// The identifier of the thread the notification belongs to.
    open override var threadIdentifier: String {
        get { super.threadIdentifier }
        set { super.threadIdentifier = newValue }
    }
    /// The category identifier.
    open override var categoryIdentifier: String {
        get { super.categoryIdentifier }
        set { super.categoryIdentifier = newValue }
    }
    /// The sound (no effect here: browsers play their own).
    open var sound: UNNotificationSound?
}

/// A notification's sound. Kept for source compatibility; browsers play their own sound.
public final class UNNotificationSound: NSObject, Sendable {
    /// The default sound.
    public static let `default` = UNNotificationSound()
}
