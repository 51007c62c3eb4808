import Crypto
import Foundation
import Logging
import NIOSSL
import SwiftASN1
import X509

/// The certificate chain and key a TLS server presents, and the fingerprint a person checks it by.
struct ServerCertificate: Sendable {
    /// The chain, leaf first.
    let chain: [NIOSSLCertificate]
    /// The leaf's private key.
    let privateKey: NIOSSLPrivateKey
    /// SHA-256 of the leaf certificate's DER encoding, as colon-separated uppercase hex (as browsers show it).
    let fingerprint: String

    /// Files of the self-signed certificate in the state folder.
    static let selfSignedCertificateFile = "tls-certificate.pem"
    static let selfSignedKeyFile = "tls-key.pem"

    /// The server's TLS configuration.
    var configuration: TLSConfiguration {
        TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(privateKey))
    }

    /// Loads the certificate for `tls`: PEM files, or the self-signed one kept in `stateFolder` (made anew when
    /// missing, expiring within a week, or not naming every one of `names`).
    static func load(_ tls: ServerTLS, stateFolder: String, names: [String], logger: Logger) throws -> ServerCertificate
    {
        switch tls {
        case .certificateFiles(let certificatePath, let keyPath):
            let chain: [NIOSSLCertificate]
            do { chain = try NIOSSLCertificate.fromPEMFile(certificatePath) } catch {
                throw AccessPolicyError("could not read the TLS certificate \(certificatePath): \(error)")
            }
            guard let leaf = chain.first else {
                throw AccessPolicyError("the TLS certificate file \(certificatePath) holds no certificate")
            }
            let key: NIOSSLPrivateKey
            do { key = try NIOSSLPrivateKey(file: keyPath, format: .pem) } catch {
                throw AccessPolicyError("could not read the TLS private key \(keyPath): \(error)")
            }
            return try ServerCertificate(chain: chain, privateKey: key, fingerprint: fingerprint(of: leaf))
        case .selfSigned:
            let certificatePath = (stateFolder as NSString).appendingPathComponent(selfSignedCertificateFile)
            let keyPath = (stateFolder as NSString).appendingPathComponent(selfSignedKeyFile)
            do {
                if let kept = try keptSelfSigned(certificatePath, keyPath, names: names) { return kept }
            } catch {
                logger.warning("making a new self-signed certificate: the kept one can't be used: \(error)")
            }
            let (certificatePEM, keyPEM) = try makeSelfSigned(names: names)
            try FileManager.default.createDirectory(atPath: stateFolder, withIntermediateDirectories: true)
            try PrivateFile.write(Data(keyPEM.utf8), to: keyPath)
            try PrivateFile.write(Data(certificatePEM.utf8), to: certificatePath)
            let leaf = try NIOSSLCertificate(bytes: Array(certificatePEM.utf8), format: .pem)
            let key = try NIOSSLPrivateKey(bytes: Array(keyPEM.utf8), format: .pem)
            return try ServerCertificate(chain: [leaf], privateKey: key, fingerprint: fingerprint(of: leaf))
        }
    }

    /// The self-signed certificate kept from an earlier launch, if it is still good for `names`.
    private static func keptSelfSigned(
        _ certificatePath: String, _ keyPath: String, names: [String]
    ) throws
        -> ServerCertificate?
    {
        guard let keyData = try PrivateFile.read(keyPath), let certificateData = try PrivateFile.read(certificatePath)
        else { return nil }
        let leaf = try NIOSSLCertificate(bytes: Array(certificateData), format: .pem)
        let parsed = try Certificate(derEncoded: try leaf.toDERBytes())
        guard parsed.notValidAfter > Date().addingTimeInterval(7 * 86400) else { return nil }
        let present = Set((try parsed.extensions.subjectAlternativeNames).map { $0.map(\.description) } ?? [])
        let wanted = Set(try subjectAlternativeNames(for: names).map(\.description))
        guard wanted.isSubset(of: present) else { return nil }
        let key = try NIOSSLPrivateKey(bytes: Array(keyData), format: .pem)
        return try ServerCertificate(chain: [leaf], privateKey: key, fingerprint: fingerprint(of: leaf))
    }

    /// A new self-signed P-256 certificate for `names` (host names and IP addresses), valid for a year.
    static func makeSelfSigned(names: [String]) throws -> (certificate: String, privateKey: String) {
        let key = P256.Signing.PrivateKey()
        let subject = try DistinguishedName {
            CommonName(names.first ?? "localhost")
            OrganizationName("SwiftUIWeb self-signed")
        }
        let extensions = try Certificate.Extensions {
            Critical(BasicConstraints.notCertificateAuthority)
            Critical(KeyUsage(digitalSignature: true))
            try ExtendedKeyUsage([.serverAuth])
            SubjectAlternativeNames(try subjectAlternativeNames(for: names))
        }
        let now = Date()
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: Certificate.PublicKey(key.publicKey),
            notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(365 * 86400),
            issuer: subject, subject: subject, signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions,
            issuerPrivateKey: Certificate.PrivateKey(key))
        return (try certificate.serializeAsPEM().pemString, key.pemRepresentation)
    }

    /// `names` as subject alternative names: IP addresses as such, everything else as DNS names.
    static func subjectAlternativeNames(for names: [String]) throws -> [GeneralName] {
        var seen = Set<String>()
        var result: [GeneralName] = []
        for name in names {
            let bare = name.hasPrefix("[") && name.hasSuffix("]") ? String(name.dropFirst().dropLast()) : name
            guard seen.insert(bare.lowercased()).inserted else { continue }
            if let bytes = IPAddressBytes.parse(bare) {
                result.append(.ipAddress(ASN1OctetString(contentBytes: ArraySlice(bytes))))
            } else {
                result.append(.dnsName(bare.lowercased()))
            }
        }
        return result
    }

    /// SHA-256 of a certificate's DER encoding, as `AB:CD:…`.
    static func fingerprint(of certificate: NIOSSLCertificate) throws -> String {
        SHA256.hash(data: try certificate.toDERBytes()).map { byte in
            let hex = String(byte, radix: 16, uppercase: true)
            return hex.count == 1 ? "0" + hex : hex
        }.joined(separator: ":")
    }
}

/// The bytes of an IPv4 or IPv6 address's text form (as a certificate names it).
enum IPAddressBytes {
    /// 4 bytes for a dotted IPv4 address, 16 for an IPv6 one; `nil` for anything else.
    static func parse(_ text: String) -> [UInt8]? {
        if text.contains(":") { return parseV6(text) }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var bytes: [UInt8] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy(\.isASCII), let value = UInt8(part) else {
                return nil
            }
            bytes.append(value)
        }
        return bytes
    }

    private static func parseV6(_ text: String) -> [UInt8]? {
        func groups(_ part: Substring) -> [UInt16]? {
            guard !part.isEmpty else { return [] }
            var result: [UInt16] = []
            for group in part.split(separator: ":", omittingEmptySubsequences: false) {
                guard (1...4).contains(group.count), let value = UInt16(group, radix: 16) else { return nil }
                result.append(value)
            }
            return result
        }
        let halves = text.components(separatedBy: "::")
        var values: [UInt16]
        switch halves.count {
        case 1:
            guard let all = groups(Substring(text)), all.count == 8 else { return nil }
            values = all
        case 2:
            guard let head = groups(Substring(halves[0])), let tail = groups(Substring(halves[1])),
                head.count + tail.count < 8
            else { return nil }
            values = head + [UInt16](repeating: 0, count: 8 - head.count - tail.count) + tail
        default:
            return nil
        }
        return values.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xff)] }
    }
}
