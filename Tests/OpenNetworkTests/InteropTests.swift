import Foundation
import OpenNetwork
import TestSupport
import Testing

/// Talks to peers nobody here wrote: openssl s_server / s_client for TLS, socat and python3 sockets for
/// the TLV bytes on the wire. scripts/install-test-deps installs openssl and socat.
@Suite("Interoperability", .timeLimit(.minutes(2)), .serialized)
struct InteropTests {
    /// A child process with captured output. Foundation's Process blocks threads (it polls), so every
    /// call into it runs on a thread of its own, never on the concurrency pool.
    final class Tool: @unchecked Sendable {
        let process = Process()
        let stdout = Pipe()
        let stderr = Pipe()
        let stdin = Pipe()

        init(_ arguments: [String]) async throws {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = arguments
            process.standardOutput = stdout
            process.standardError = stderr
            process.standardInput = stdin
            let p = process
            try await onOwnThread { try p.run() }
        }

        /// Writes to the process's input. A process that already exited (a client that refused the server at once)
        /// cannot take it: that is no error here, its exit status says what happened. (The non-throwing
        /// `write(_:)` would trap on the broken pipe.)
        func write(_ text: String) async throws {
            let h = stdin.fileHandleForWriting
            try await onOwnThread {
                // A write to a closed pipe must come back as EPIPE, not end the test process with SIGPIPE.
                signal(SIGPIPE, SIG_IGN)
                do {
                    try h.write(contentsOf: Data(text.utf8))
                } catch let error as NSError
                    where (error.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == Int(EPIPE)
                    || error.code == Int(EPIPE)
                {
                    return
                }
            }
        }

        /// Reads one line the process printed (without its newline).
        func readLine() async throws -> String {
            let h = stdout.fileHandleForReading
            return try await onOwnThread {
                var line = Data()
                while true {
                    let byte = h.readData(ofLength: 1)
                    if byte.isEmpty || byte == Data("\n".utf8) { break }
                    line.append(byte)
                }
                return String(decoding: line, as: UTF8.self)
            }
        }

        func closeInput() async throws {
            let h = stdin.fileHandleForWriting
            try await onOwnThread { try? h.close() }
        }

        /// Waits (bounded) for the process to exit; returns its status, stdout and stderr.
        func finish(timeout: Duration = .seconds(30)) async throws -> (status: Int32, out: String, err: String) {
            let deadline = ContinuousClock.now + timeout
            while process.isRunning {
                if ContinuousClock.now > deadline {
                    kill(process.processIdentifier, SIGKILL)
                    break
                }
                try await Task.sleep(for: .milliseconds(10))
            }
            let p = process
            let out = stdout.fileHandleForReading
            let err = stderr.fileHandleForReading
            return try await onOwnThread {
                p.waitUntilExit()
                return (
                    p.terminationStatus,
                    String(decoding: out.readDataToEndOfFile(), as: UTF8.self),
                    String(decoding: err.readDataToEndOfFile(), as: UTF8.self)
                )
            }
        }

        /// Kills the process and reaps it.
        func stop() async {
            let p = process
            if p.isRunning { kill(p.processIdentifier, SIGKILL) }
            _ = try? await onOwnThread { p.waitUntilExit() }
        }
    }

    /// Writes an identity's certificate and key to PEM files in a fresh directory.
    func pemFiles(_ identity: TLSIdentity) throws -> (cert: String, key: String, dir: URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("orchard-interop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let cert = dir.appendingPathComponent("cert.pem")
        let key = dir.appendingPathComponent("key.pem")
        try identity.certificatePEM.write(to: cert, atomically: true, encoding: .utf8)
        try identity.privateKeyPEM.write(to: key, atomically: true, encoding: .utf8)
        return (cert.path, key.path, dir)
    }

    static let identity = try! TLSIdentity.selfSigned()
    static let expired = try! TLSIdentity.selfSigned(
        notBefore: Date().addingTimeInterval(-7200),
        notAfter: Date().addingTimeInterval(-3600))

    // MARK: our client, openssl s_server

    /// Runs `openssl s_server -rev` (echoes each line reversed) with `identity` on a fresh port.
    func withSServer(_ identity: TLSIdentity, _ body: (NWEndpoint.Port) async throws -> Void) async throws {
        let files = try pemFiles(identity)
        defer { try? FileManager.default.removeItem(at: files.dir) }
        let port = try await unusedPort()
        let server = try await Tool([
            "openssl", "s_server", "-accept", "127.0.0.1:\(port)", "-cert", files.cert,
            "-key", files.key, "-rev", "-naccept", "4",
        ])
        do {
            try await body(port)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// A stream TLS connection to s_server, retrying while s_server starts (the connection waits).
    func client(_ port: NWEndpoint.Port, _ tls: TLS) -> NetworkConnection<TLS> {
        NetworkConnection(to: local(port)) { tls }
    }

    @Test func clientValidatesOpenSSLServerCertificate() async throws {
        try await withSServer(Self.identity) { port async throws in
            let c = client(port, TLS().serverName("localhost").trustRoots([Self.identity.trustRoot]))
            try await c.send(Data("orchard\n".utf8))
            var reply = Data()
            while !reply.contains(UInt8(ascii: "\n")) { reply += try await c.receive(atLeast: 1, atMost: 100).content }
            #expect(String(decoding: reply, as: UTF8.self) == "drahcro\n")
        }
    }

    @Test func clientRejectsOpenSSLServerWithWrongName() async throws {
        try await withSServer(Self.identity) { port async throws in
            let c = client(port, TLS().serverName("wrong.example").trustRoots([Self.identity.trustRoot]))
            await #expect(throws: NWError.self) { try await c.send(Data("x\n".utf8)) }
            guard case .failed(.tls) = await c.state else {
                Issue.record("state: \(await c.state)")
                return
            }
        }
    }

    @Test func clientRejectsOpenSSLServerWithExpiredCertificate() async throws {
        try await withSServer(Self.expired) { port async throws in
            let c = client(port, TLS().serverName("localhost").trustRoots([Self.expired.trustRoot]))
            await #expect(throws: NWError.self) { try await c.send(Data("x\n".utf8)) }
            guard case .failed(.tls) = await c.state else {
                Issue.record("state: \(await c.state)")
                return
            }
        }
    }

    @Test func clientRejectsUntrustedOpenSSLServer() async throws {
        try await withSServer(Self.identity) { port async throws in
            let c = client(port, TLS().serverName("localhost"))
            await #expect(throws: NWError.self) { try await c.send(Data("x\n".utf8)) }
        }
    }

    // MARK: openssl s_client, our listener

    /// Runs a TLS listener that answers one line with its upper-case form, then closes.
    func withUppercaseListener(_ identity: TLSIdentity, _ body: (NWEndpoint.Port) async throws -> Void) async throws {
        let listener = NetworkListener(for: local(.any), using: { TLS().localIdentity(identity) })
        try await withListener(
            listener,
            handler: { c in
                var line = Data()
                while !line.contains(UInt8(ascii: "\n")) {
                    line += try await c.receive(atLeast: 1, atMost: 256).content
                }
                try await c.send(Data(String(decoding: line, as: UTF8.self).uppercased().utf8))
            }, body: body)
    }

    func sClient(
        _ port: NWEndpoint.Port, ca: String, host: String
    ) async throws -> (status: Int32, out: String, err: String) {
        let tool = try await Tool([
            "openssl", "s_client", "-connect", "127.0.0.1:\(port)", "-CAfile", ca,
            "-verify_return_error", "-verify_hostname", host, "-servername", host, "-ign_eof",
        ])
        try await tool.write("hello from openssl\n")
        try await tool.closeInput()
        return try await tool.finish()
    }

    @Test func writingToAToolThatAlreadyExitedIsNoCrash() async throws {
        let tool = try await Tool(["true"])
        let exited = try await tool.finish()
        #expect(exited.status == 0)
        try await tool.write("nobody reads this\n")
    }

    @Test func openSSLClientValidatesOurListener() async throws {
        let files = try pemFiles(Self.identity)
        defer { try? FileManager.default.removeItem(at: files.dir) }
        try await withUppercaseListener(Self.identity) { port async throws in
            let r = try await sClient(port, ca: files.cert, host: "localhost")
            #expect(r.out.contains("Verify return code: 0 (ok)"), "\(r.out)\n\(r.err)")
            #expect(r.out.contains("HELLO FROM OPENSSL"), "\(r.out)")
        }
    }

    @Test func openSSLClientRejectsWrongHostName() async throws {
        let files = try pemFiles(Self.identity)
        defer { try? FileManager.default.removeItem(at: files.dir) }
        try await withUppercaseListener(Self.identity) { port async throws in
            let r = try await sClient(port, ca: files.cert, host: "wrong.example")
            #expect(r.status != 0)
            #expect((r.out + r.err).contains("hostname mismatch"), "\(r.out)\n\(r.err)")
            #expect(!r.out.contains("HELLO FROM OPENSSL"))
        }
    }

    @Test func openSSLClientRejectsOurExpiredCertificate() async throws {
        let files = try pemFiles(Self.expired)
        defer { try? FileManager.default.removeItem(at: files.dir) }
        try await withUppercaseListener(Self.expired) { port async throws in
            let r = try await sClient(port, ca: files.cert, host: "localhost")
            #expect(r.status != 0)
            #expect((r.out + r.err).contains("certificate has expired"), "\(r.out)\n\(r.err)")
        }
    }

    // MARK: TLV bytes on the wire

    @Test func tlvBytesCapturedBySocat() async throws {
        let port = try await unusedPort()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("orchard-tlv-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: file) }
        let socat = try await Tool([
            "socat", "-u", "TCP-LISTEN:\(port),bind=127.0.0.1,reuseaddr", "CREATE:\(file.path)",
        ])
        let c = NetworkConnection(to: local(port)) { TLV { TCP() } }
        do {
            try await c.send(Data("hello".utf8), type: 1)
            try await c.send(Data(), type: 0x0102_0304)
            try await c.send(Data([0xFF]), type: 7)
        } catch {
            await socat.stop()
            throw error
        }
        await c.cancel()
        let status = try await socat.finish().status
        #expect(status == 0)
        let bytes = Array(try Data(contentsOf: file))
        #expect(
            bytes == [0, 0, 0, 1, 0, 0, 0, 5] + Array("hello".utf8)
                + [1, 2, 3, 4, 0, 0, 0, 0]
                + [0, 0, 0, 7, 0, 0, 0, 1, 0xFF])
    }

    @Test func tlvFramesWrittenBySocatAreParsed() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("orchard-tlv-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(tlvFrame(type: 42, Array("from socat".utf8)) + tlvFrame(type: 0, [])).write(to: file)
        let got = Recorder<String>()
        let listener = NetworkListener(for: local(.any), using: { TLV { TCP() } })
        try await withListener(
            listener,
            handler: { c in
                for try await (content, metadata) in c.messages {
                    got.append("\(metadata.type):\(String(decoding: content, as: UTF8.self))")
                }
                got.append("end")
            }
        ) { port async throws in
            let socat = try await Tool(["socat", "-u", "OPEN:\(file.path)", "TCP:127.0.0.1:\(port)"])
            #expect(try await socat.finish().status == 0)
            try await got.waitFor("end") { $0 == "end" }
            #expect(got.all == ["42:from socat", "0:", "end"])
        }
    }

    @Test func tlvAgainstAPythonSocketPeer() async throws {
        let script = """
            import socket, struct, sys
            s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
            def recv_exactly(n):
                b = b""
                while len(b) < n:
                    chunk = s.recv(n - len(b))
                    if not chunk: raise SystemExit("closed early")
                    b += chunk
                return b
            t, n = struct.unpack(">II", recv_exactly(8))
            v = recv_exactly(n)
            assert (t, v) == (9, "héllo".encode()), (t, v)
            reply = v.upper()
            s.sendall(struct.pack(">II", t + 1, len(reply)) + reply)
            s.close()
            print("python ok")
            """
        let listener = NetworkListener(for: local(.any), using: { TLV { TCP() } })
        let reply = Recorder<String>()
        try await withListener(
            listener,
            handler: { c in
                try await c.send(Data("héllo".utf8), type: 9)
                let m = try await c.receive()
                reply.append("\(m.metadata.type):\(String(decoding: m.content, as: UTF8.self))")
            }
        ) { port async throws in
            let python = try await Tool(["python3", "-c", script, "\(port)"])
            let r = try await python.finish()
            #expect(r.status == 0, "\(r.err)")
            #expect(r.out.contains("python ok"))
            try await reply.waitFor("reply") { _ in true }
            #expect(reply.all == ["10:HéLLO"])
        }
    }

    @Test func peerResetIsReportedAsConnectionReset() async throws {
        // A python3 peer waits until our side has accepted it (a byte from us), sends two bytes, then aborts
        // with SO_LINGER 0 (an RST instead of a FIN). Without the wait, a reset that reaches the accept
        // queue first can remove the connection before the listener ever sees it.
        let script = """
            import socket, struct, sys, time
            s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
            s.recv(1)
            s.sendall(b"\\x00\\x01")
            time.sleep(0.2)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            s.close()
            print("reset sent")
            """
        let outcome = Recorder<String>()
        let listener = NetworkListener(for: local(.any), using: { TCP() })
        try await withListener(
            listener,
            handler: { c in
                do {
                    try await c.send(Data([1]))
                    _ = try await c.receive(exactly: 8)
                    outcome.append("received")
                } catch {
                    outcome.append(String(describing: error))
                    #expect(isError(error, .connectionReset), "\(error)")
                    if case .failed(let why) = await c.state { #expect(why == .connectionReset) }
                }
            }
        ) { port async throws in
            let python = try await Tool(["python3", "-c", script, "\(port)"])
            let r = try await python.finish()
            #expect(r.status == 0, "\(r.err)")
            try await outcome.waitFor("the reset") { _ in true }
            #expect(outcome.all.first?.contains("connection reset by peer") == true, "\(outcome.all)")
        }
    }
}
