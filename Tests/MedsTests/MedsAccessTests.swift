import Foundation
import MedsKit
import SwiftUIWebDriver
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Meds' health data as an attacker on the same machine would try to read it: over HTTP without the launch's
/// token, with a wrong one, or with a forged Host header; and in the files, as another user. They get nothing.
@Suite(.serialized, .enabled(if: BrowserEnvironment.shouldRun), .timeLimit(.minutes(2)))
struct MedsAccessTests {
    @MainActor @Test func noTokenNoHealthData() async throws {
        let server = try ExampleServer("Meds")
        let data = URL(fileURLWithPath: server.dataDirectory).appendingPathComponent("meds")
        let seeded = try MedsModel(dataDirectory: data)
        #expect(
            await seeded.addMedication(
                MedsModel.NewMedication(rxcui: MedsModelTests.acetaminophen, nickname: "Tylenol")))
        try await server.start()
        defer { server.stop() }

        func fetch(_ url: String, host: String? = nil) async throws -> (Int, String) {
            var request = URLRequest(url: URL(string: url)!)
            if let host { request.setValue(host, forHTTPHeaderField: "Host") }
            let (body, response) = try await URLSession.shared.data(for: request)
            return ((response as? HTTPURLResponse)?.statusCode ?? -1, String(decoding: body, as: UTF8.self))
        }
        for (url, host) in [
            (server.url, nil), (server.url + "?token=not-the-token", nil), (server.url + "?g=medication", nil),
            (server.url + "_swiftuiweb/ws", nil), (server.signInURL, "attacker.example:\(server.port)"),
        ] {
            let (status, body) = try await fetch(url, host: host)
            #expect(status != 200 || !body.contains("Tylenol"), "\(url) (Host \(host ?? "-")) answered \(status)")
            #expect(!body.contains("Tylenol") && !body.contains("313782"), "\(url) leaked the medication")
        }
        // The person with the link gets in, and sees the medication (the app loads its data as it starts).
        // (A page asked for before the load ends shows it over its socket instead: ask again for up to 5 s.)
        var (status, body) = try await fetch(server.signInURL)
        for _ in 0..<50 where !body.contains("Tylenol") {
            try await Task.sleep(for: .milliseconds(100))
            (status, body) = try await fetch(server.signInURL)
        }
        #expect(status == 200 && body.contains("Tylenol"), "the signed-in page: \(status) \(body.prefix(300))")

        // On disk: the data folder is the user's alone, so another local user cannot list or read it.
        let mode = (try FileManager.default.attributesOfItem(atPath: data.path)[.posixPermissions] as? NSNumber)?
            .intValue
        #expect(mode == 0o700)
    }
}
