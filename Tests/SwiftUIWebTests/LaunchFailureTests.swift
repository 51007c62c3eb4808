import Foundation
import SwiftUIWebDriver
import Testing

/// A launch that cannot work says why and exits, instead of trapping with a stack trace.
@Suite struct LaunchFailureTests {
    @Test func aPortAnotherProgramHoldsIsNamedAndTheAppExitsWithStatusOne() async throws {
        // Another program holds a loopback port (bound and listening) while the app is told to use it.
        let holder = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(holder) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(holder, $0, length) == 0 }
        }
        #expect(bound && listen(holder, 1) == 0)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(holder, $0, &length) }
        }
        let port = Int(UInt16(bigEndian: address.sin_port))
        let folder = NSTemporaryDirectory() + "swiftuiweb-launch-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }  // a test folder: gone is gone
        let child = try ChildProcess(
            try ExampleServer.executable("BookClub"), [],
            environment: [
                "SWIFTUIWEB_PORT": String(port), "SWIFTUIWEB_STATE_DIR": folder, "XDG_RUNTIME_DIR": folder + "/run",
            ],
            output: folder + "/output.txt")
        child.process.waitUntilExit()
        let output = try String(contentsOfFile: folder + "/output.txt", encoding: .utf8)
        #expect(child.process.terminationStatus == 1)
        #expect(output.contains("cannot listen on 127.0.0.1:\(port): the address is already in use"))
        #expect(!output.contains("Fatal error"))
        // No token file is left behind for a launch that never listened.
        let tokens = (try? FileManager.default.contentsOfDirectory(atPath: folder + "/run/swiftuiweb")) ?? []  // none: none
        #expect(tokens.isEmpty)
    }
}
