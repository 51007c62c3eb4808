/// The 3×3 board and its rules, shared by the referee and the players.
struct Board: CustomStringConvertible {
    private(set) var cells: [[String?]] = Array(repeating: Array(repeating: nil, count: 3), count: 3)

    /// Whether a cell is on the board and free.
    func isFree(row: Int, column: Int) -> Bool {
        (0..<3).contains(row) && (0..<3).contains(column) && cells[row][column] == nil
    }

    /// Places a character; false when the move is illegal.
    mutating func play(_ character: String, row: Int, column: Int) -> Bool {
        guard isFree(row: row, column: column) else { return false }
        cells[row][column] = character
        return true
    }

    /// The winner's character, if a line is complete.
    var winner: String? {
        let lines: [[(Int, Int)]] =
            (0..<3).map { r in (0..<3).map { (r, $0) } }
            + (0..<3).map { c in (0..<3).map { ($0, c) } }
            + [[(0, 0), (1, 1), (2, 2)], [(0, 2), (1, 1), (2, 0)]]
        for line in lines {
            let values = line.map { cells[$0.0][$0.1] }
            if let first = values[0], values.allSatisfy({ $0 == first }) { return first }
        }
        return nil
    }

    /// Whether the game is over (a winner or a full board).
    var isOver: Bool { winner != nil || cells.allSatisfy { $0.allSatisfy { $0 != nil } } }

    /// A simple deterministic strategy: win if possible, block if needed, else the best free cell.
    func choose(for me: String, against them: String) -> (row: Int, column: Int) {
        let free = [(1, 1), (0, 0), (2, 2), (0, 2), (2, 0), (0, 1), (1, 0), (1, 2), (2, 1)]
            .filter { isFree(row: $0.0, column: $0.1) }
        for who in [me, them] {
            for cell in free {
                var trial = self
                _ = trial.play(who, row: cell.0, column: cell.1)
                if trial.winner == who { return cell }
            }
        }
        return free[0]
    }

    var description: String {
        cells.map { row in row.map { $0 ?? "·" }.joined(separator: " ") }.joined(separator: "\n")
    }
}
