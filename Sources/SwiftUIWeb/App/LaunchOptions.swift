import Foundation

/// How an app was asked to start: its command line and environment, checked.
struct LaunchOptions: Equatable {
    /// The address to listen on (`--hostname` / `--host` / `SWIFTUIWEB_HOST`, default 127.0.0.1).
    var address = "127.0.0.1"
    /// The port (`--port` / `PORT` / `SWIFTUIWEB_PORT`, default 8080; 0 picks a free one).
    var port = 8080
    /// `--no-auth`: let in anyone who reaches the address (loopback only).
    var noAuth = false
    /// `--allow-host NAME` (repeatable) / `SWIFTUIWEB_ALLOWED_HOSTS` (comma-separated): more names for `Host`.
    var allowedHosts: [String] = []
    /// `--tls-cert FILE --tls-key FILE` (`SWIFTUIWEB_TLS_CERT`, `SWIFTUIWEB_TLS_KEY`) or `--tls-self-signed`
    /// (`SWIFTUIWEB_TLS=self-signed`).
    var tls: ServerTLS?
    /// `--password-file FILE` / `SWIFTUIWEB_PASSWORD_FILE`: a file (only the user's) holding a password hash.
    var passwordFile: String?
    /// `--hash-password`: read a password from standard input, print its hash, and stop.
    var hashPassword = false
    /// `--help`: print the options and stop.
    var help = false

    /// What `--help` prints.
    static let usage = """
        Options (each also read from the environment variable in brackets):
          --port N               port to listen on, 0 for any free one [PORT, SWIFTUIWEB_PORT] (default 8080)
          --hostname ADDRESS     address to listen on [SWIFTUIWEB_HOST] (default 127.0.0.1; also --host)
          --allow-host NAME      another host name the app answers to; repeatable [SWIFTUIWEB_ALLOWED_HOSTS, commas]
          --tls-cert FILE        serve over TLS with this PEM certificate chain [SWIFTUIWEB_TLS_CERT]
          --tls-key FILE         and this PEM private key [SWIFTUIWEB_TLS_KEY]
          --tls-self-signed      serve over TLS with a self-signed certificate, printing its fingerprint
                                 [SWIFTUIWEB_TLS=self-signed]
          --no-auth              let in anyone who can reach the address, without the token (loopback only)
          --password-file FILE   the sign-in page also takes the password hashed in FILE (mode 0600)
                                 [SWIFTUIWEB_PASSWORD_FILE]
          --hash-password        read a password from standard input and print its hash for --password-file
          --help                 print this
        Listening beyond loopback needs TLS; the printed link (with its token) signs a browser in.
        """

    /// Reads `arguments` (without the executable) and `environment`; an unknown option, a missing value or a
    /// bad one is an error naming it.
    static func parse(arguments: [String], environment: [String: String]) throws -> LaunchOptions {
        var options = LaunchOptions()
        var address = environment["SWIFTUIWEB_HOST"]
        var portText = environment["PORT"] ?? environment["SWIFTUIWEB_PORT"]
        var certificate = environment["SWIFTUIWEB_TLS_CERT"]
        var key = environment["SWIFTUIWEB_TLS_KEY"]
        var selfSigned = false
        options.passwordFile = environment["SWIFTUIWEB_PASSWORD_FILE"]
        if let tls = environment["SWIFTUIWEB_TLS"] {
            guard tls == "self-signed" else {
                throw AppLaunchError("SWIFTUIWEB_TLS is “\(tls)”; the only value it takes is “self-signed”")
            }
            selfSigned = true
        }
        if let hosts = environment["SWIFTUIWEB_ALLOWED_HOSTS"] {
            options.allowedHosts = hosts.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
        }
        var index = 0
        func value(_ name: String) throws -> String {
            index += 1
            guard index < arguments.count, !arguments[index].hasPrefix("--") else {
                throw AppLaunchError("\(name) needs a value")
            }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--port": portText = try value(argument)
            case "--hostname", "--host": address = try value(argument)
            case "--allow-host": options.allowedHosts.append(try value(argument))
            case "--tls-cert": certificate = try value(argument)
            case "--tls-key": key = try value(argument)
            case "--tls-self-signed": selfSigned = true
            case "--no-auth": options.noAuth = true
            case "--password-file": options.passwordFile = try value(argument)
            case "--hash-password": options.hashPassword = true
            case "--help", "-h": options.help = true
            default: throw AppLaunchError("unknown option “\(argument)”\n\n" + usage)
            }
            index += 1
        }
        if let address { options.address = address }
        if let portText {
            guard let parsed = Int(portText), (0...65535).contains(parsed) else {
                throw AppLaunchError("the port “\(portText)” is not a number from 0 to 65535")
            }
            options.port = parsed
        }
        switch (certificate, key, selfSigned) {
        case (nil, nil, false): options.tls = nil
        case (nil, nil, true): options.tls = .selfSigned
        case (let certificate?, let key?, false):
            options.tls = .certificateFiles(certificate: certificate, privateKey: key)
        case (_, _, true): throw AppLaunchError("--tls-self-signed and --tls-cert/--tls-key exclude each other")
        case (nil, _, false): throw AppLaunchError("--tls-key needs --tls-cert (the certificate chain) too")
        case (_, nil, false): throw AppLaunchError("--tls-cert needs --tls-key (the certificate's private key) too")
        }
        if options.noAuth && options.passwordFile != nil {
            throw AppLaunchError("--no-auth and --password-file exclude each other: with --no-auth nobody signs in")
        }
        return options
    }

    /// The password hash in ``passwordFile``, which must be the user's alone; `nil` without one.
    func loadPassword() throws -> PasswordHash? {
        guard let passwordFile else { return nil }
        let data: Data?
        do { data = try PrivateFile.read(passwordFile) } catch {
            throw AppLaunchError(
                "the password file can't be used: \(error); make it with --hash-password and chmod 600")
        }
        guard let data else { throw AppLaunchError("there is no password file at \(passwordFile)") }
        do { return try PasswordHash(parsing: String(decoding: data, as: UTF8.self)) } catch {
            throw AppLaunchError("\(passwordFile): \(error)")
        }
    }

    /// The access policy these options ask for, writing the token file into `tokenDirectory`.
    func policy(tokenDirectory: String?) throws -> AccessPolicy {
        AccessPolicy(
            authentication: noAuth ? .none : .token, allowedHosts: allowedHosts, tls: tls,
            password: try loadPassword(), tokenDirectory: tokenDirectory)
    }
}
