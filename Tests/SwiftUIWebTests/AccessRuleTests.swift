import Foundation
import Testing

@testable import SwiftUIWeb

/// The access rules as values, without a server: Host names, listen addresses, secrets, verdicts, the policy's
/// refusals and the launch options.
@Suite struct AccessRuleTests {
    @Test func hostNamesAreReadFromTheHostHeaderAsABrowserSendsIt() {
        #expect(HostAllowlist.hostName(ofAuthority: "127.0.0.1:8080") == "127.0.0.1")
        #expect(HostAllowlist.hostName(ofAuthority: "[::1]:8080") == "::1")
        #expect(HostAllowlist.hostName(ofAuthority: "[::1]") == "::1")
        #expect(HostAllowlist.hostName(ofAuthority: "LocalHost.:80") == "localhost")
        #expect(HostAllowlist.hostName(ofAuthority: "evil.example:8080") == "evil.example")
        for malformed in [
            "", ":8080", "localhost:", "localhost:80x", "localhost:123456", "a b", "evil.example:80:1",
            "[::1", "[evil]:80", "ex\u{0}ample", "exämple.com",
        ] {
            #expect(HostAllowlist.hostName(ofAuthority: malformed) == nil, "\(malformed) should be malformed")
        }
        let allowlist = HostAllowlist(extra: ["Meds.Home.Arpa", "[fe80::1]"])
        for allowed in ["localhost:8080", "127.0.0.1:1", "[::1]:8080", "meds.home.arpa:443", "[fe80::1]:8443"] {
            #expect(allowlist.allows(authority: allowed), "\(allowed) should be allowed")
        }
        for refused in [nil, "evil.example:8080", "127.0.0.2:8080", "localhost.evil.example", "0.0.0.0:8080", ""] {
            #expect(!allowlist.allows(authority: refused), "\(refused ?? "nil") should be refused")
        }
    }

    @Test func loopbackAndWildcardAddresses() {
        for loopback in ["127.0.0.1", "127.4.5.6", "::1", "[::1]", "0:0:0:0:0:0:0:1", "localhost", "LOCALHOST"] {
            #expect(ListenAddress.isLoopback(loopback), "\(loopback)")
        }
        for beyond in ["0.0.0.0", "::", "192.168.1.20", "10.0.0.1", "fe80::1", "example.com", "128.0.0.1"] {
            #expect(!ListenAddress.isLoopback(beyond), "\(beyond)")
        }
        #expect(
            ListenAddress.isWildcard("0.0.0.0") && ListenAddress.isWildcard("::") && ListenAddress.isWildcard("[::]"))
        #expect(!ListenAddress.isWildcard("127.0.0.1") && !ListenAddress.isWildcard("example.com"))
        #expect(ListenAddress.urlHost("::1") == "[::1]" && ListenAddress.urlHost("127.0.0.1") == "127.0.0.1")
    }

    @Test func secretsAreLongRandomAndComparedWhole() {
        let tokens = (0..<500).map { _ in AccessSecret.make() }
        #expect(Set(tokens).count == 500)
        #expect(tokens.allSatisfy { $0.count == 64 && $0.allSatisfy(\.isHexDigit) })
        // 256 bits: not even the first 12 hex digits repeat among 500.
        #expect(Set(tokens.map { $0.prefix(12) }).count == 500)
        let token = tokens[0]
        #expect(AccessSecret.matches(token, token))
        #expect(!AccessSecret.matches(String(token.dropLast()), token))
        #expect(!AccessSecret.matches(token + "0", token))
        #expect(!AccessSecret.matches("", token))
        #expect(!AccessSecret.matches(String(token.dropLast()) + (token.last == "0" ? "1" : "0"), token))
        #expect(!AccessSecret.matches(token.uppercased() == token ? "x" : token.uppercased(), token))
    }

    func gate(_ authentication: AccessPolicy.Authentication = .token, secure: Bool = false) -> AccessGate {
        AccessGate(
            allowlist: HostAllowlist(), authentication: authentication, token: String(repeating: "ab", count: 32),
            session: SessionKey(name: "swiftuiweb-Notepad-12345678", value: String(repeating: "cd", count: 32)),
            secure: secure)
    }

    @Test func theGateLetsInOnlyTheSignedInBrowserOrTheLaunchsToken() {
        let gate = gate()
        let host = "127.0.0.1:8080"
        let cookie = "other=1; swiftuiweb-Notepad-12345678=\(String(repeating: "cd", count: 32))"
        let token = String(repeating: "ab", count: 32)
        #expect(
            gate.verdict(authority: "evil.example:8080", path: "/", query: nil, cookies: [cookie])
                == .refuseHost("evil.example:8080"))
        #expect(gate.verdict(authority: nil, path: "/", query: nil, cookies: [cookie]) == .refuseHost(nil))
        #expect(gate.verdict(authority: host, path: "/", query: nil, cookies: []) == .askToSignIn)
        #expect(gate.verdict(authority: host, path: "/_swiftuiweb/ws", query: "w=x", cookies: []) == .askToSignIn)
        #expect(gate.verdict(authority: host, path: "/_swiftuiweb/sign-in", query: nil, cookies: []) == .serve)
        #expect(gate.verdict(authority: host, path: "/", query: "w=abc", cookies: [cookie]) == .serve)
        // The token signs in and is taken out of the URL; the other parameters stay.
        #expect(
            gate.verdict(authority: host, path: "/", query: "token=\(token)", cookies: []) == .signIn(location: "/"))
        #expect(
            gate.verdict(authority: host, path: "/", query: "g=_settings&token=\(token)&x=1", cookies: [])
                == .signIn(location: "/?g=_settings&x=1"))
        #expect(
            gate.verdict(authority: host, path: "/", query: "token=\(token.dropLast())0", cookies: []) == .wrongToken)
        #expect(gate.verdict(authority: host, path: "/", query: "token=", cookies: []) == .wrongToken)
        // A browser signed in already, on an old link: the stale token is dropped from the URL, nothing refused.
        #expect(
            gate.verdict(authority: host, path: "/", query: "token=0000", cookies: [cookie]) == .signIn(location: "/"))
        // A cookie of the right name with another value, or the value under another name, is no cookie.
        let wrongValue = "swiftuiweb-Notepad-12345678=\(String(repeating: "cd", count: 31))ce"
        #expect(gate.verdict(authority: host, path: "/", query: nil, cookies: [wrongValue]) == .askToSignIn)
        let wrongName = "swiftuiweb-Notepad-87654321=\(String(repeating: "cd", count: 32))"
        #expect(gate.verdict(authority: host, path: "/", query: nil, cookies: [wrongName]) == .askToSignIn)
        // Without authentication only the Host rule holds.
        #expect(self.gate(.none).verdict(authority: host, path: "/", query: nil, cookies: []) == .serve)
        #expect(
            self.gate(.none).verdict(authority: "evil.example", path: "/", query: nil, cookies: [])
                == .refuseHost("evil.example"))
    }

    @Test func theCookieIsHttpOnlyStrictAndSecureUnderTLS() {
        let plain = gate().setCookie
        #expect(plain.hasPrefix("swiftuiweb-Notepad-12345678=\(String(repeating: "cd", count: 32));"))
        for attribute in ["Path=/", "HttpOnly", "SameSite=Strict"] { #expect(plain.contains("; \(attribute)")) }
        #expect(!plain.contains("Secure"))
        #expect(gate(secure: true).setCookie.hasSuffix("; Secure"))
    }

    @Test func theSignInFormTakesTheTokenOrTheWholeLink() {
        let gate = gate()
        let token = String(repeating: "ab", count: 32)
        #expect(gate.acceptsTyped(token))
        #expect(gate.acceptsTyped("  \(token)\n"))
        #expect(gate.acceptsTyped("http://127.0.0.1:8080/?token=\(token)"))
        #expect(!gate.acceptsTyped("http://127.0.0.1:8080/?token=\(token.dropFirst())"))
        #expect(!gate.acceptsTyped(""))
        #expect(AppServer.formField("token", in: "a=1&token=ab%2Bc+d") == "ab+c d")
    }

    @Test func beyondLoopbackNeedsTLSAndTheToken() throws {
        try AccessPolicy().check(listeningOn: "127.0.0.1")
        try AccessPolicy(authentication: .none).check(listeningOn: "::1")
        let plain = #expect(throws: AccessPolicyError.self) { try AccessPolicy().check(listeningOn: "0.0.0.0") }
        #expect(plain?.description.contains("--tls-cert FILE --tls-key FILE") == true)
        #expect(plain?.description.contains("0.0.0.0") == true)
        let open = #expect(throws: AccessPolicyError.self) {
            try AccessPolicy(authentication: .none, tls: .selfSigned).check(listeningOn: "192.168.1.20")
        }
        #expect(open?.description.contains("--no-auth") == true)
        try AccessPolicy(tls: .selfSigned).check(listeningOn: "0.0.0.0")
        try AccessPolicy(tls: .certificateFiles(certificate: "c.pem", privateKey: "k.pem")).check(listeningOn: "::")
    }

    @Test func eachPolicyHasItsOwnToken() {
        let a = AccessPolicy()
        let b = AccessPolicy()
        #expect(a.token != b.token && a.token.count == 64)
    }

    @Test func launchOptionsAreCheckedAndNamed() throws {
        let defaults = try LaunchOptions.parse(arguments: [], environment: [:])
        #expect(defaults == LaunchOptions())
        #expect(defaults.address == "127.0.0.1" && defaults.port == 8080 && !defaults.noAuth && defaults.tls == nil)
        let parsed = try LaunchOptions.parse(
            arguments: ["--port", "9000", "--host", "0.0.0.0", "--allow-host", "meds.lan", "--tls-self-signed"],
            environment: ["PORT": "1", "SWIFTUIWEB_ALLOWED_HOSTS": "a.lan, b.lan"])
        #expect(parsed.port == 9000 && parsed.address == "0.0.0.0" && parsed.tls == .selfSigned)
        #expect(parsed.allowedHosts == ["a.lan", "b.lan", "meds.lan"])
        let files = try LaunchOptions.parse(
            arguments: ["--no-auth"], environment: ["SWIFTUIWEB_TLS_CERT": "c.pem", "SWIFTUIWEB_TLS_KEY": "k.pem"])
        #expect(files.noAuth && files.tls == .certificateFiles(certificate: "c.pem", privateKey: "k.pem"))
        #expect(try files.policy(tokenDirectory: nil).authentication == .none)
        let errors: [([String], [String: String], String)] = [
            (["--bogus"], [:], "unknown option “--bogus”"),
            (["--port"], [:], "--port needs a value"),
            (["--port", "http"], [:], "the port “http”"),
            ([], ["PORT": "70000"], "the port “70000”"),
            (["--tls-cert", "c.pem"], [:], "--tls-cert needs --tls-key"),
            (["--tls-key", "k.pem"], [:], "--tls-key needs --tls-cert"),
            (["--tls-self-signed", "--tls-cert", "c", "--tls-key", "k"], [:], "exclude each other"),
            ([], ["SWIFTUIWEB_TLS": "yes"], "SWIFTUIWEB_TLS is “yes”"),
        ]
        for (arguments, environment, message) in errors {
            let error = #expect(throws: AppLaunchError.self) {
                try LaunchOptions.parse(arguments: arguments, environment: environment)
            }
            #expect(
                error?.description.contains(message) == true,
                "\(arguments) \(environment): \(String(describing: error))")
        }
    }

    @Test func selfSignedCertificatesNameTheirAddresses() throws {
        let names = try ServerCertificate.subjectAlternativeNames(for: [
            "localhost", "127.0.0.1", "::1", "[fe80::1]", "Meds.lan",
        ])
        #expect(names.count == 5)
        #expect(IPAddressBytes.parse("127.0.0.1") == [127, 0, 0, 1])
        #expect(IPAddressBytes.parse("::1") == [UInt8](repeating: 0, count: 15) + [1])
        #expect(IPAddressBytes.parse("fe80::1:2") == [0xfe, 0x80] + [UInt8](repeating: 0, count: 10) + [0, 1, 0, 2])
        for bad in ["1.2.3", "256.1.1.1", "1::2::3", "12345::", "example.com", "1.2.3.4.5"] {
            #expect(IPAddressBytes.parse(bad) == nil, "\(bad)")
        }
    }

    @Test func passwordsAreKeptAsScryptHashes() throws {
        // N = 2^10 keeps the test quick; the default is 2^17.
        let hash = try PasswordHash(hashing: "correct horse battery staple", logN: 10)
        let stored = hash.description
        #expect(stored.hasPrefix("scrypt$10$8$1$") && !stored.contains("horse"))
        let read = try PasswordHash(parsing: stored + "\n")
        #expect(read == hash)
        #expect(try read.matches("correct horse battery staple"))
        #expect(try !read.matches("correct horse battery stapl") && !read.matches(""))
        // Two hashes of one password differ (each has its own salt) and both match.
        let again = try PasswordHash(hashing: "correct horse battery staple", logN: 10)
        #expect(try again != hash && again.matches("correct horse battery staple"))
        #expect(try PasswordHash(hashing: "x").logN == 17)
        #expect(throws: AccessPolicyError.self) { try PasswordHash(hashing: "") }
        let bad: [(String, String)] = [
            ("hunter2", "scrypt$<log2 N>"), ("bcrypt$10$8$1$c2FsdHNhbHQ=$a2V5", "scrypt$<log2 N>"),
            ("scrypt$40$8$1$c2FsdHNhbHQ=$\(String(repeating: "A", count: 43))=", "log2 N “40”"),
            ("scrypt$10$0$1$c2FsdHNhbHQ=$\(String(repeating: "A", count: 43))=", "r or p"),
            ("scrypt$10$8$1$!!$\(String(repeating: "A", count: 43))=", "salt or key"),
            ("scrypt$10$8$1$c2FsdHNhbHQ=$c2hvcnQ=", "salt or key"),
        ]
        for (text, message) in bad {
            let error = #expect(throws: AccessPolicyError.self) { try PasswordHash(parsing: text) }
            #expect(error?.description.contains(message) == true, "\(text): \(String(describing: error))")
        }
    }

    @Test func thePasswordFileMustBeTheUsersAlone() throws {
        let folder = tempDir()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let file = folder + "/password"
        let hash = try PasswordHash(hashing: "pw", logN: 10)
        try Data(hash.description.utf8).write(to: URL(fileURLWithPath: file))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        let options = try LaunchOptions.parse(arguments: ["--password-file", file], environment: [:])
        let exposed = #expect(throws: AppLaunchError.self) { try options.policy(tokenDirectory: nil) }
        #expect(exposed?.description.contains("can be read or written by other users") == true)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
        #expect(try options.policy(tokenDirectory: nil).password == hash)
        let missing = try LaunchOptions.parse(arguments: [], environment: ["SWIFTUIWEB_PASSWORD_FILE": folder + "/none"])
        #expect(throws: AppLaunchError.self) { try missing.policy(tokenDirectory: nil) }
        #expect(throws: AppLaunchError.self) {
            try LaunchOptions.parse(arguments: ["--no-auth", "--password-file", file], environment: [:])
        }
    }
}
