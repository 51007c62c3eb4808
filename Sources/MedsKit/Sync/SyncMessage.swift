import Foundation
import OpenHealthKit

/// A machine that takes part in sync: its identifier (made once, kept in `sync.json`) and the name people see.
public struct SyncDevice: Codable, Sendable, Hashable, Identifiable {
    /// The machine's identifier.
    public var id: UUID
    /// The machine's name, as its owner set it.
    public var name: String

    /// Creates a device.
    public init(id: UUID, name: String) {
        self.id = id
        self.name = name
    }
}

/// A profile as sync carries it.
struct SyncProfile: Codable, Sendable, Hashable {
    var id: UUID
    var name: String
    var relationship: String
    var createdAt: Date
    var colorName: String

    init(_ profile: Profile) {
        id = profile.id
        name = profile.name
        relationship = profile.relationship.rawValue
        createdAt = profile.createdAt
        colorName = profile.colorName
    }

    var profile: Profile {
        Profile(
            id: id, name: name, relationship: Profile.Relationship(rawValue: relationship) ?? .other,
            createdAt: createdAt, colorName: colorName)
    }
}

/// What two machines say to each other, one Coder message each (JSON over TLS with a pre-shared key).
///
/// A session, the same on both ends: each sends `hello` (who it is, its profiles, and for each profile how far the
/// other's changes have been applied here); each then sends its changes after those anchors, a page at a time, and
/// `caughtUp`, and answers the other's `caughtUp` with `applied` once it has applied every page before it. A round
/// ends for a machine when it has both the other's `caughtUp` and its `applied`: both then hold both sets. Afterwards each sends new pages as it makes changes. A pairing connection starts with
/// `pairingRequest` from the machine that typed the code and `pairingGrant` from the one that showed it.
enum SyncMessage: Codable, Sendable {
    /// The machine that typed the code introduces itself.
    case pairingRequest(SyncDevice)
    /// The machine that showed the code answers with itself and the key the two use from now on.
    case pairingGrant(device: SyncDevice, secret: Data)
    /// Who the sender is (with an HMAC proving it holds that machine's key), its profiles, and how far it has
    /// applied each of the receiver's profiles' changes.
    case hello(device: SyncDevice, proof: Data, profiles: [SyncProfile], anchors: [String: Int64])
    /// A page of a profile's changes.
    case changes(profile: UUID, page: HKHealthAppEditor.ReplicatedChanges)
    /// The sender has sent every change it had when the session began.
    case caughtUp
    /// The sender has applied every change the receiver sent before its `caughtUp`.
    case applied
    /// The sender refuses the session, saying why.
    case refused(String)
}
