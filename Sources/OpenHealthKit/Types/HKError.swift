import OpenCoreData

/// HealthKit's error domain.
public let HKErrorDomain = "com.apple.healthkit"

/// A HealthKit error: a code and a message naming what was wrong.
public struct HKError: Error, CustomStringConvertible, Sendable, Equatable {
    /// HealthKit's error codes.
    public enum Code: Int, Sendable {
        /// HealthKit is not available.
        case errorHealthDataUnavailable = 1
        /// HealthKit is restricted.
        case errorHealthDataRestricted = 2
        /// An argument was invalid.
        case errorInvalidArgument = 3
        /// The app is not authorized for the operation.
        case errorAuthorizationDenied = 5
        /// Authorization was not determined.
        case errorAuthorizationNotDetermined = 6
        /// The store could not be read or written.
        case errorDatabaseInaccessible = 7
        /// The user canceled.
        case errorUserCanceled = 8
        /// No data.
        case errorNoData = 11
    }
    /// The error's code.
    public let code: Code
    /// What was wrong.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The code and message.
    public var description: String { "HKError(\(code)): \(message)" }
}

/// As on Apple's systems, an `HKError` bridges to an `NSError` in `HKErrorDomain` with its code, and its
/// `localizedDescription` is its message (not Foundation's generic "The operation could not be completed").
extension HKError: CustomNSError, LocalizedError {
    /// `HKErrorDomain`.
    public static var errorDomain: String { HKErrorDomain }
    /// The code's raw value.
    public var errorCode: Int { code.rawValue }
    /// The message.
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: message] }
    /// The message.
    public var errorDescription: String? { message }
}
