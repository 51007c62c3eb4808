import OpenNetwork
import Testing

// Only `import OpenNetwork` (and Testing) in this file: Foundation's types must come with it, as with Apple's
// `import Network`.

/// What `import OpenNetwork` brings with it.
@Suite("Imports")
struct ImportTests {
    struct Move: Codable, Equatable {
        var square: Int
    }

    @Test func foundationComesWithOpenNetwork() throws {
        let data: Data = try JSONEncoder().encode(Move(square: 4))
        #expect(try JSONDecoder().decode(Move.self, from: data) == Move(square: 4))
        #expect(URL(string: "https://example.com")?.host == "example.com")
    }
}
