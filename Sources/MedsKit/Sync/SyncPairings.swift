import Crypto
import Foundation
import Synchronization

/// This machine's identity for sync, the machines it is paired with and, for each of them and each profile, how far
/// their changes have been applied here. Kept in `sync.json` in the data folder, readable by the user alone (it
/// holds the keys); every change is written to a new file that replaces the old one, so a killed process leaves
/// the last complete state.
///
/// Anchors are saved after the changes they cover are applied, never before: a process killed in between sends
/// those changes again, and applying a change twice does nothing (``OpenHealthKit/HKHealthAppEditor``'s rules).
public final class SyncPairings: Sendable {
    struct Peer: Codable, Sendable {
        var device: SyncDevice
        var secret: Data
        var anchors: [String: Int64]
        var pairedAt: Date
        /// By profile, the sequence numbers of this machine's changes that were written from this peer's pages:
        /// the peer has them, so they are not sent back to it (absent in files from before they were kept).
        var echoes: [String: [ClosedRange<Int64>]]?
    }

    struct State: Codable, Sendable {
        var device: SyncDevice
        var peers: [String: Peer]
        /// Whether the person turned sync on (the app starts it when it opens).
        var isOn = false
    }

    /// The file.
    public let url: URL
    private let state: Mutex<State>

    /// Opens `url`, or makes this machine's identity there with `deviceName`.
    public init(url: URL, deviceName: String) throws {
        self.url = url
        let files = FileManager.default
        if files.fileExists(atPath: url.path) {
            do {
                state = Mutex(try JSONDecoder().decode(State.self, from: Data(contentsOf: url)))
            } catch {
                throw MedsError(
                    "The sync settings at \(url.path) cannot be read (\(error.localizedDescription)); move the file "
                        + "away to pair this machine again.")
            }
        } else {
            let fresh = State(device: SyncDevice(id: UUID(), name: deviceName), peers: [:], isOn: false)
            state = Mutex(fresh)
            try Self.write(fresh, to: url)
        }
    }

    /// This machine.
    public var device: SyncDevice { state.withLock { $0.device } }

    /// The machines this one is paired with.
    public var peers: [SyncDevice] {
        state.withLock { $0.peers.values.map(\.device) }.sorted { $0.name < $1.name }
    }

    /// The key shared with a paired machine.
    func secret(for peer: UUID) -> Data? { state.withLock { $0.peers[peer.uuidString]?.secret } }

    /// How far each profile's changes from `peer` have been applied here.
    func anchors(from peer: UUID) -> [String: Int64] {
        state.withLock { $0.peers[peer.uuidString]?.anchors ?? [:] }
    }

    /// Records a pairing (a new key replaces an old one; the anchors are kept).
    func addPeer(_ device: SyncDevice, secret: Data, now: Date = Date()) throws {
        try update { state in
            let anchors = state.peers[device.id.uuidString]?.anchors ?? [:]
            state.peers[device.id.uuidString] = Peer(device: device, secret: secret, anchors: anchors, pairedAt: now)
        }
    }

    /// Records that `peer`'s changes to `profile` up to `anchor` are applied here, where they took the sequence
    /// numbers `written` (nil when they changed nothing).
    func setAnchor(
        _ anchor: Int64, from peer: UUID, profile: UUID, written: ClosedRange<Int64>? = nil
    ) throws {
        try update { state in
            guard state.peers[peer.uuidString] != nil else { return }
            state.peers[peer.uuidString]?.anchors[profile.uuidString] = anchor
            if let written {
                var echoes = state.peers[peer.uuidString]?.echoes ?? [:]
                echoes[profile.uuidString, default: []].append(written)
                state.peers[peer.uuidString]?.echoes = echoes
            }
        }
    }

    /// The sequence numbers of this machine's changes to `profile` that came from `peer` (not to be sent back).
    func echoes(to peer: UUID, profile: UUID) -> [ClosedRange<Int64>] {
        state.withLock { $0.peers[peer.uuidString]?.echoes?[profile.uuidString] ?? [] }
    }

    /// Forgets the echoes of `profile` at or below `anchor`: `peer` has said it holds this machine's changes that far.
    func dropEchoes(to peer: UUID, profile: UUID, upTo anchor: Int64) throws {
        guard echoes(to: peer, profile: profile).contains(where: { $0.upperBound <= anchor }) else { return }
        try update { state in
            state.peers[peer.uuidString]?.echoes?[profile.uuidString]?.removeAll { $0.upperBound <= anchor }
        }
    }

    /// Whether the person turned sync on.
    public var isOn: Bool { state.withLock { $0.isOn } }

    /// Records whether sync is on.
    public func setOn(_ on: Bool) throws {
        try update { state in state.isOn = on }
    }

    /// Whether `folder` has sync settings with sync turned on (false when it has none).
    public static func isOn(in folder: URL) throws -> Bool {
        let url = folder.appendingPathComponent("sync.json")
        guard FileManager.default.fileExists(atPath: url.path) else { return false }
        return try SyncPairings(url: url, deviceName: "").isOn
    }

    /// Forgets a paired machine: it can no longer connect.
    public func removePeer(_ id: UUID) throws {
        try update { state in state.peers[id.uuidString] = nil }
    }

    private func update(_ change: (inout State) -> Void) throws {
        try state.withLock { state in
            var next = state
            change(&next)
            try Self.write(next, to: url)
            state = next
        }
    }

    private static func write(_ state: State, to url: URL) throws {
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let data = try encoder.encode(state)
            let temporary = url.deletingLastPathComponent().appendingPathComponent(".sync-\(UUID().uuidString).json")
            guard
                FileManager.default.createFile(
                    atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600])
            else { throw MedsError("cannot create \(temporary.path)") }
            // rename(2) replaces the old file in one step: a reader sees the old state or the new, never a mix.
            guard rename(temporary.path, url.path) == 0 else {
                let reason = String(cString: strerror(errno))
                // `try?`: the temporary file is ours and useless once the rename failed.
                try? FileManager.default.removeItem(at: temporary)
                throw MedsError("cannot replace the file: \(reason)")
            }
        } catch {
            throw MedsError("Could not save the sync settings to \(url.path): \(error.localizedDescription)")
        }
    }
}

/// A pairing code: six digits shown on one machine and typed on the other. Both derive the same TLS pre-shared key
/// from it (HKDF-SHA256), so only a machine that knows the code completes the handshake. The ECDHE-PSK suites keep
/// an eavesdropper from testing codes against a recorded handshake; an active guesser gets ``maximumTries`` tries,
/// then the code is void. The key the two machines use afterwards is 32 random bytes the showing machine sends over
/// that first connection.
struct PairingCode: Sendable {
    /// The TLS identity a pairing connection presents.
    static let identity = "orchard-meds-pairing"
    /// How long a code is good for.
    static let lifetime: TimeInterval = 600
    /// How many handshakes may use a code.
    static let maximumTries = 5

    let code: String
    let expires: Date
    var triesLeft = PairingCode.maximumTries

    /// A fresh random code.
    static func random(now: Date) -> PairingCode {
        PairingCode(code: String(format: "%06d", Int.random(in: 0...999_999)), expires: now + lifetime)
    }

    /// The pre-shared key for a code (typed with or without spaces).
    static func key(for code: String) throws -> [UInt8] {
        let digits = code.filter { !$0.isWhitespace && $0 != "-" }
        guard digits.count == 6, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else {
            throw MedsError("A pairing code is six digits, as the other machine shows it; \"\(code)\" is not.")
        }
        let key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: Data(digits.utf8)), salt: Data("orchard-meds-pairing-v1".utf8),
            info: Data("tls-psk".utf8), outputByteCount: 32)
        return key.withUnsafeBytes { Array($0) }
    }
}
