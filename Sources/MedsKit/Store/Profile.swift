import Foundation

/// A person whose medications Meds tracks: the user, or someone they care for. Each profile has its own health
/// store, so one person's medications and doses never show in another's.
public struct Profile: Identifiable, Hashable, Sendable {
    /// Who the person is to the user.
    public enum Relationship: String, CaseIterable, Hashable, Sendable {
        /// The user.
        case me = "self"
        /// A child of the user.
        case child
        /// A parent of the user.
        case parent
        /// A partner of the user.
        case partner
        /// Anyone else the user cares for.
        case other

        /// The name shown in the app.
        public var title: String {
            switch self {
            case .me: "Me"
            case .child: "Child"
            case .parent: "Parent"
            case .partner: "Partner"
            case .other: "Other"
            }
        }
    }

    /// The profile's identity, also the name of its folder.
    public let id: UUID
    /// The person's name as the user wrote it.
    public var name: String
    /// Who the person is to the user.
    public var relationship: Relationship
    /// When the profile was made.
    public let createdAt: Date
    /// The colour the profile is marked with (one of ``AppDataMigration/palette``).
    public let colorName: String

    /// Creates a profile value.
    public init(id: UUID, name: String, relationship: Relationship, createdAt: Date, colorName: String) {
        self.id = id
        self.name = name
        self.relationship = relationship
        self.createdAt = createdAt
        self.colorName = colorName
    }

    /// The longest name a profile may have.
    public static let maximumNameLength = 60

    /// The name trimmed, or an error saying what is wrong with it.
    public static func validatedName(_ name: String) throws -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw MedsError("A profile needs a name.") }
        guard trimmed.count <= maximumNameLength else {
            throw MedsError(
                "A profile's name can be at most \(maximumNameLength) characters (this one has \(trimmed.count)).")
        }
        return trimmed
    }
}
