import Crypto
import Foundation
import OpenNetwork

// The third way to play: the Network framework's callback API, as Apple's peer-to-peer sample apps write it. A custom
// framer puts an 8-byte header (message type, body length) before each message, and TLS authenticates both players
// with a key derived from a passcode (TLS with a pre-shared key).

/// The game's message types, carried in the framer's header.
enum GameMessageType: UInt32 {
    case invalid = 0
    case selectedCharacter = 1
    case move = 2
}

/// The game's framer: a header of type and length (big-endian), then the body.
final class GameProtocol: NWProtocolFramerImplementation {
    static let definition = NWProtocolFramer.Definition(implementation: GameProtocol.self)
    static var label: String { "TicTacToe" }

    required init(framer: NWProtocolFramer.Instance) {}
    func start(framer: NWProtocolFramer.Instance) -> NWProtocolFramer.StartResult { .ready }
    func wakeup(framer: NWProtocolFramer.Instance) {}
    func stop(framer: NWProtocolFramer.Instance) -> Bool { true }
    func cleanup(framer: NWProtocolFramer.Instance) {}

    func handleOutput(
        framer: NWProtocolFramer.Instance, message: NWProtocolFramer.Message, messageLength: Int, isComplete: Bool
    ) {
        let header = GameProtocolHeader(type: message.gameMessageType.rawValue, length: UInt32(messageLength))
        framer.writeOutput(data: header.encodedData)
        do {
            try framer.writeOutputNoCopy(length: messageLength)
        } catch {
            framer.markFailed(error: error as? NWError)
        }
    }

    func handleInput(framer: NWProtocolFramer.Instance) -> Int {
        while true {
            var header: GameProtocolHeader?
            let size = GameProtocolHeader.encodedSize
            let parsed = framer.parseInput(minimumIncompleteLength: size, maximumLength: size) { buffer, _ in
                guard let buffer, buffer.count >= size else { return 0 }
                header = GameProtocolHeader(Array(buffer))
                return size
            }
            guard parsed, let header else { return size }
            let message = NWProtocolFramer.Message(gameMessageType: GameMessageType(rawValue: header.type) ?? .invalid)
            if !framer.deliverInputNoCopy(length: Int(header.length), message: message, isComplete: true) {
                return 0
            }
        }
    }
}

extension NWProtocolFramer.Message {
    /// A game message of `gameMessageType`.
    convenience init(gameMessageType: GameMessageType) {
        self.init(definition: GameProtocol.definition)
        self["GameMessageType"] = gameMessageType
    }

    /// The message's type (`.invalid` when it has none).
    var gameMessageType: GameMessageType { self["GameMessageType"] as? GameMessageType ?? .invalid }
}

/// The framer's header.
struct GameProtocolHeader {
    static let encodedSize = 8
    let type: UInt32
    let length: UInt32

    init(type: UInt32, length: UInt32) {
        self.type = type
        self.length = length
    }

    /// Reads a header from its eight bytes.
    init(_ bytes: [UInt8]) {
        func word(_ at: Int) -> UInt32 { bytes[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) } }
        type = word(0)
        length = word(4)
    }

    var encodedData: Data {
        var data = Data()
        for value in [type, length] { withUnsafeBytes(of: value.bigEndian) { data.append(contentsOf: $0) } }
        return data
    }
}

extension NWParameters {
    /// TCP with keep-alive, TLS keyed by `passcode`, and the game's framer on top.
    convenience init(passcode: String) {
        let tcpOptions = NWProtocolTCP.Options()
        tcpOptions.enableKeepalive = true
        tcpOptions.keepaliveIdle = 2
        self.init(tls: NWParameters.tlsOptions(passcode: passcode), tcp: tcpOptions)
        self.includePeerToPeer = true
        let gameOptions = NWProtocolFramer.Options(definition: GameProtocol.definition)
        self.defaultProtocolStack.applicationProtocols.insert(gameOptions, at: 0)
    }

    /// TLS authenticated by a key derived from the passcode (HMAC-SHA256 of the game's name).
    private static func tlsOptions(passcode: String) -> NWProtocolTLS.Options {
        let tlsOptions = NWProtocolTLS.Options()
        let authenticationKey = SymmetricKey(data: Data(passcode.utf8))
        let authenticationCode = HMAC<SHA256>.authenticationCode(for: Data("TicTacToe".utf8), using: authenticationKey)
        let key = authenticationCode.withUnsafeBytes { DispatchData(bytes: $0) }
        let identity = Data("TicTacToe".utf8).withUnsafeBytes { DispatchData(bytes: $0) }
        sec_protocol_options_add_pre_shared_key(
            tlsOptions.securityProtocolOptions, key as __DispatchData, identity as __DispatchData)
        sec_protocol_options_append_tls_ciphersuite(
            tlsOptions.securityProtocolOptions, tls_ciphersuite_t(rawValue: TLS_PSK_WITH_AES_128_GCM_SHA256)!)
        return tlsOptions
    }
}
