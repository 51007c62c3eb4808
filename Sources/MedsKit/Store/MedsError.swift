import Foundation

/// An error Meds shows to the person as it is: the message says what was wrong and what was left unchanged.
public struct MedsError: Error, LocalizedError, Equatable, CustomStringConvertible {
    /// The message.
    public let message: String
    /// Creates an error with a message for the person.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var errorDescription: String? { message }
    /// The message.
    public var description: String { message }
}
