import Foundation
import Testing

/// The runnable Tic-Tac-Toe example (Examples/TicTacToe): a refereeing listener and two players, over
/// TLS with Coder and over TLS with TLV. Both games must finish and agree on their outcome.
@Suite("Examples", .timeLimit(.minutes(2)))
struct ExampleTests {
    /// The example's binary, built next to the test runner (the test target depends on it).
    static var ticTacToe: URL {
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = runner.deletingLastPathComponent()
        while folder.path != "/"
            && !FileManager.default.fileExists(atPath: folder.appendingPathComponent("TicTacToe").path)
        {
            folder = folder.deletingLastPathComponent()
        }
        return folder.appendingPathComponent("TicTacToe")
    }

    @Test func ticTacToeOverCoderTLVAndAFramerWithAPasscode() async throws {
        let binary = Self.ticTacToe
        #expect(FileManager.default.isExecutableFile(atPath: binary.path), "no TicTacToe binary at \(binary.path)")
        let game = try await InteropTests.Tool([binary.path])
        let result = try await game.finish(timeout: .seconds(90))
        #expect(result.status == 0, "\(result.out)\n\(result.err)")
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(lines.contains("== Coder(GameMessage.self, using: .json) { TLS() }"))
        #expect(lines.contains("== TLV { TLS() }"))
        #expect(lines.contains("== NWConnection + NWProtocolFramer, TLS with a passcode"))
        // Each game: the referee's outcome, and the two players' views matching it.
        let outcomes = lines.filter { $0.hasPrefix("  referee: ") && !$0.contains(" plays ") }
        #expect(outcomes.count == 3, "\(result.out)")
        for outcome in outcomes {
            #expect(outcome.hasSuffix("draw") || outcome.hasSuffix("wins"), "\(outcome)")
        }
        let players = lines.filter { $0.hasPrefix("  🐨") || $0.hasPrefix("  🐯") }
        #expect(players.count == 3, "\(result.out)")
    }
}
