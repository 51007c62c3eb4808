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
