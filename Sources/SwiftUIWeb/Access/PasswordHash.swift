import Crypto
import Foundation
import _CryptoExtras

/// A password for a long-running server, kept only as its scrypt hash:
/// `scrypt$<log2 N>$<r>$<p>$<salt, base64>$<key, base64>`.
///
/// The token changes at every start, which suits a server a person starts when they use it. One that runs for
/// months can also take a fixed password on its sign-in page: make the hash with `<App> --hash-password`
/// (it reads the password from standard input), put it in a file only you can read, and start the app with
/// `--password-file FILE`. scrypt with N = 2¹⁷, r = 8 takes 128 MiB and a noticeable fraction of a second per
/// try, which is what makes guessing slow; the server checks one try at a time.
public struct PasswordHash: Sendable, Equatable, CustomStringConvertible {
    /// log₂ of scrypt's cost N.
    public let logN: Int
    /// scrypt's block size r.
    public let blockSize: Int
    /// scrypt's parallelism p.
    public let parallelism: Int
    let salt: [UInt8]
    let key: [UInt8]

    /// Hashes `password` with a new random 16-byte salt (N = 2^`logN`; the defaults are OWASP's minimum).
    public init(hashing password: String, logN: Int = 17, blockSize: Int = 8, parallelism: Int = 1) throws {
        guard !password.isEmpty else { throw AccessPolicyError("the password is empty") }
        var generator = SystemRandomNumberGenerator()
        let salt = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let key = try PasswordHash.derive(
            password, salt: salt, logN: logN, blockSize: blockSize, parallelism: parallelism)
        self.init(logN: logN, blockSize: blockSize, parallelism: parallelism, salt: salt, key: key)
    }

    /// Reads a hash in the form ``description`` writes; an error names what is wrong with it.
    public init(parsing text: String) throws {
        let fields = text.trimmingCharacters(in: .whitespacesAndNewlines).split(
            separator: "$", omittingEmptySubsequences: false)
        guard fields.count == 6, fields[0] == "scrypt" else {
            throw AccessPolicyError("a password hash reads scrypt$<log2 N>$<r>$<p>$<salt>$<key>; this one does not")
        }
        guard let logN = Int(fields[1]), (10...22).contains(logN) else {
            throw AccessPolicyError("the password hash's log2 N “\(fields[1])” is not a number from 10 to 22")
        }
        guard let r = Int(fields[2]), (1...32).contains(r), let p = Int(fields[3]), (1...16).contains(p) else {
            throw AccessPolicyError("the password hash's r or p is not a small positive number")
        }
        guard let salt = Data(base64Encoded: String(fields[4])), salt.count >= 8,
            let key = Data(base64Encoded: String(fields[5])), key.count == 32
        else {
            throw AccessPolicyError("the password hash's salt or key is not base64 of the right length")
        }
        self.init(logN: logN, blockSize: r, parallelism: p, salt: Array(salt), key: Array(key))
    }

    private init(logN: Int, blockSize: Int, parallelism: Int, salt: [UInt8], key: [UInt8]) {
        self.logN = logN
        self.blockSize = blockSize
        self.parallelism = parallelism
        self.salt = salt
        self.key = key
    }

    /// The stored form.
    public var description: String {
        "scrypt$\(logN)$\(blockSize)$\(parallelism)$\(Data(salt).base64EncodedString())$\(Data(key).base64EncodedString())"
    }

    /// Whether `password` hashes to this key (compared in constant time). Slow on purpose. Throws when scrypt
    /// cannot run (its parameters were checked when the hash was read, so that is a failure such as memory), which
    /// must not pass for a wrong password.
    public func matches(_ password: String) throws -> Bool {
        guard !password.isEmpty else { return false }  // an empty entry is never the password
        let derived = try PasswordHash.derive(
            password, salt: salt, logN: logN, blockSize: blockSize, parallelism: parallelism)
        var difference: UInt8 = 0
        for (a, b) in zip(derived, key) { difference |= a ^ b }
        return difference == 0 && derived.count == key.count
    }

    private static func derive(
        _ password: String, salt: [UInt8], logN: Int, blockSize: Int, parallelism: Int
    ) throws
        -> [UInt8]
    {
        let key = try KDF.Scrypt.deriveKey(
            from: Array(password.utf8), salt: salt, outputByteCount: 32, rounds: 1 << logN, blockSize: blockSize,
            parallelism: parallelism)
        // Safe because the bytes are copied into the array before the closure returns.
        return key.withUnsafeBytes { Array($0) }
    }
}
