import Foundation
import OpenNetwork

/// What travels between a player and the referee, whatever the framing.
enum Event: Sendable {
    case character(String)
    case move(row: Int, column: Int)
}

/// A connection seen as a stream of game events (adapts Coder and TLV connections).
struct Wire: Sendable {
    let send: @Sendable (Event) async throws -> Void
    /// The next event, or nil when the peer has closed.
    let receive: @Sendable () async throws -> Event?
}

extension Wire {
    /// Over Coder: GameMessage values are sent and received as they are.
    init(_ connection: NetworkConnection<Coder<GameMessage, GameMessage, NetworkJSONCoder>>) {
        send = { event in
            switch event {
            case .character(let c): try await connection.send(.selectedCharacter(c))
            case .move(let row, let column): try await connection.send(.move(row: row, column: column))
            }
        }
        receive = {
            var messages = connection.messages.makeAsyncIterator()
            guard let (message, _) = try await messages.next() else { return nil }
            switch message {
            case .selectedCharacter(let c): return .character(c)
            case .move(let row, let column): return .move(row: row, column: column)
            }
        }
    }

    /// Over TLV: the type field says which struct the JSON value holds.
    init(_ connection: NetworkConnection<TLV>) {
        send = { event in
            switch event {
            case .character(let c):
                let data = try JSONEncoder().encode(GameCharacter(character: c))
                try await connection.send(data, type: TLVGameMessage.selectedCharacter.rawValue)
            case .move(let row, let column):
                let data = try JSONEncoder().encode(GameMove(row: row, column: column))
                try await connection.send(data, type: TLVGameMessage.move.rawValue)
            }
        }
        receive = {
            var messages = connection.messages.makeAsyncIterator()
            guard let (data, metadata) = try await messages.next() else { return nil }
            switch TLVGameMessage(rawValue: metadata.type) {
            case .selectedCharacter:
                return .character(try JSONDecoder().decode(GameCharacter.self, from: data).character)
            case .move:
                let move = try JSONDecoder().decode(GameMove.self, from: data)
                return .move(row: move.row, column: move.column)
            case .none:
                throw NWError.malformedMessage("unknown game message type \(metadata.type)")
            }
        }
    }
}

extension Wire {
    /// Over NWConnection with the game's framer: the message type travels in the framer's header, the body is JSON.
    init(_ connection: NWConnection) {
        send = { event in
            let (type, body): (GameMessageType, Data)
            switch event {
            case .character(let c):
                (type, body) = (.selectedCharacter, try JSONEncoder().encode(GameCharacter(character: c)))
            case .move(let row, let column):
                (type, body) = (.move, try JSONEncoder().encode(GameMove(row: row, column: column)))
            }
            let context = NWConnection.ContentContext(
                identifier: "\(type)", metadata: [NWProtocolFramer.Message(gameMessageType: type)])
            try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
                connection.send(
                    content: body, contentContext: context, isComplete: true,
                    completion: .contentProcessed { error in
                        if let error { done.resume(throwing: error) } else { done.resume() }
                    })
            }
        }
        receive = {
            let (body, context, error) = await withCheckedContinuation {
                (got: CheckedContinuation<(Data?, NWConnection.ContentContext?, NWError?), Never>) in
                connection.receiveMessage { body, context, _, error in got.resume(returning: (body, context, error)) }
            }
            if let error { throw error }
            guard
                let message = context?.protocolMetadata(definition: GameProtocol.definition)
                    as? NWProtocolFramer.Message
            else { return nil }  // The peer finished: no more messages.
            switch message.gameMessageType {
            case .selectedCharacter:
                return .character(try JSONDecoder().decode(GameCharacter.self, from: body ?? Data()).character)
            case .move:
                let move = try JSONDecoder().decode(GameMove.self, from: body ?? Data())
                return .move(row: move.row, column: move.column)
            case .invalid:
                throw NWError.malformedMessage("a game message of unknown type")
            }
        }
    }
}

/// The listener side: pairs two players, checks every move and relays it to the opponent.
actor Referee {
    private var players: [(wire: Wire, character: String)] = []
    private var paired: [CheckedContinuation<Void, Never>] = []
    private var board = Board()
    private var turn = 0
    private var firstMover = 0
    private(set) var result: String?
    private var finished: [CheckedContinuation<String, Never>] = []

    /// Serves one player's connection until the game is over.
    func serve(_ wire: Wire) async throws {
        guard case .character(let character) = try await wire.receive() else {
            throw NWError.malformedMessage("a player must first select a character")
        }
        let me = players.count
        players.append((wire, character))
        if players.count == 2 {
            // Each player learns the opponent's character; the one whose character sorts first moves first.
            firstMover = players[0].character < players[1].character ? 0 : 1
            try await players[0].wire.send(.character(players[1].character))
            try await players[1].wire.send(.character(players[0].character))
            for p in paired { p.resume() }
            paired.removeAll()
        } else {
            await withCheckedContinuation { paired.append($0) }
        }
        while result == nil, let event = try await wire.receive() {
            guard case .move(let row, let column) = event, (turn % 2 == 0) == (me == firstMover),
                board.play(players[me].character, row: row, column: column)
            else {
                throw NWError.malformedMessage("illegal move from \(players[me].character)")
            }
            turn += 1
            print("  referee: \(players[me].character) plays (\(row), \(column))")
            try await players[1 - me].wire.send(.move(row: row, column: column))
            if board.isOver {
                let outcome = board.winner.map { "\($0) wins" } ?? "draw"
                result = outcome
                print(board)
                for f in finished { f.resume(returning: outcome) }
                finished.removeAll()
            }
        }
    }

    /// Waits for the end of the game and returns its outcome.
    func outcome() async -> String {
        if let result { return result }
        return await withCheckedContinuation { finished.append($0) }
    }
}

/// A player: selects a character, then alternates its own moves with the opponent's relayed ones.
func play(as me: String, over wire: Wire) async throws -> String {
    try await wire.send(.character(me))
    guard case .character(let them) = try await wire.receive() else {
        throw NWError.malformedMessage("expected the opponent's character")
    }
    var board = Board()
    var myTurn = me < them  // the character that sorts first moves first (the referee's rule)
    while !board.isOver {
        if myTurn {
            let (row, column) = board.choose(for: me, against: them)
            _ = board.play(me, row: row, column: column)
            try await wire.send(.move(row: row, column: column))
        } else {
            guard case .move(let row, let column) = try await wire.receive() else {
                throw NWError.malformedMessage("expected a move")
            }
            _ = board.play(them, row: row, column: column)
        }
        myTurn.toggle()
    }
    return board.winner.map { $0 == me ? "\(me) won" : "\(me) lost" } ?? "\(me): draw"
}
