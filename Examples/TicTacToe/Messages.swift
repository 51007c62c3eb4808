import Foundation

// The seed's Tic-Tac-Toe messages, in both forms the WWDC25 session shows.

/// TLV form: the message type travels in the TLV type field; the value is a JSON-encoded
/// GameCharacter or GameMove.
enum TLVGameMessage: Int {
    case selectedCharacter = 0
    case move = 1
}

/// A player's chosen character.
struct GameCharacter: Codable {
    let character: String
}

/// A move on the 3×3 board.
struct GameMove: Codable {
    let row: Int
    let column: Int
}

/// Coder form: the whole message is one Codable enum.
enum GameMessage: Codable {
    case selectedCharacter(String)
    case move(row: Int, column: Int)
}
