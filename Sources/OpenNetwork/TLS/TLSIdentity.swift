import Crypto
import Foundation
import NIOSSL
import SwiftASN1
import X509

/// A certificate used as a trust root.
public struct TLSCertificate: Sendable {
    let certificate: NIOSSLCertificate
    /// Loads the first certificate of a PEM string.
    public init(pem: String) throws {
        do {
            guard let cert = try NIOSSLCertificate.fromPEMBytes(Array(pem.utf8)).first else {
                throw NWError.tls("no certificate found in PEM text")
            }
            certificate = cert
        } catch let e as NWError { throw e } catch {
            throw NWError.tls("invalid certificate PEM: \(error)")
        }
    }
    /// Loads the first certificate of a PEM file.
    public init(pemFile path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw NWError.tls("cannot read certificate file \(path)")
        }
        try self.init(pem: String(decoding: data, as: UTF8.self))
    }
}

/// A certificate chain and its private key: a TLS server's identity or a client certificate.
public struct TLSIdentity: Sendable {
    let certificateChain: [NIOSSLCertificate]
    let privateKey: NIOSSLPrivateKey
    /// The PEM text of the certificate chain (useful as a trust root for the peer).
    public let certificatePEM: String
    /// The PEM text of the private key (to save a generated identity to a file).
    public let privateKeyPEM: String

    /// Loads an identity from PEM text: a certificate chain and a private key.
    public init(certificatePEM: String, privateKeyPEM: String) throws {
        do {
            certificateChain = try NIOSSLCertificate.fromPEMBytes(Array(certificatePEM.utf8))
            privateKey = try NIOSSLPrivateKey(bytes: Array(privateKeyPEM.utf8), format: .pem)
        } catch {
            throw NWError.tls("invalid identity PEM: \(error)")
        }
        guard !certificateChain.isEmpty else { throw NWError.tls("identity PEM contains no certificate") }
        self.certificatePEM = certificatePEM
        self.privateKeyPEM = privateKeyPEM
    }

    /// Loads an identity from a certificate chain PEM file and a private key PEM file.
    public init(certificateFile: String, privateKeyFile: String) throws {
        guard let cert = FileManager.default.contents(atPath: certificateFile) else {
            throw NWError.tls("cannot read certificate file \(certificateFile)")
        }
        guard let key = FileManager.default.contents(atPath: privateKeyFile) else {
            throw NWError.tls("cannot read private key file \(privateKeyFile)")
        }
        try self.init(certificatePEM: String(decoding: cert, as: UTF8.self),
                      privateKeyPEM: String(decoding: key, as: UTF8.self))
    }

    /// The certificate as a trust root for peers of this identity.
    public var trustRoot: TLSCertificate { TLSCertificate(certificateChain[0]) }

    /// Creates a self-signed P-256 identity (for tests and local use) valid for the given DNS names
    /// and IP addresses, between `notBefore` and `notAfter`.
    public static func selfSigned(
        commonName: String = "localhost",
        dnsNames: [String] = ["localhost"],
        ipAddresses: [String] = ["127.0.0.1", "::1"],
        notBefore: Date = Date().addingTimeInterval(-3600),
        notAfter: Date = Date().addingTimeInterval(365 * 86400)
    ) throws -> TLSIdentity {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName(commonName) }
        var sans: [GeneralName] = dnsNames.map { .dnsName($0) }
        for ip in ipAddresses {
            guard let bytes = ipBytes(ip) else { throw NWError.tls("not an IP address: \(ip)") }
            sans.append(.ipAddress(ASN1OctetString(contentBytes: ArraySlice(bytes))))
        }
        let extensions = try Certificate.Extensions {
            Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
            Critical(KeyUsage(digitalSignature: true, keyCertSign: true))
            try ExtendedKeyUsage([.serverAuth, .clientAuth])
            SubjectAlternativeNames(sans)
        }
        let certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PublicKey(key.publicKey),
            notValidBefore: notBefore,
            notValidAfter: notAfter,
            issuer: name,
            subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: extensions,
            issuerPrivateKey: Certificate.PrivateKey(key))
        let pem = try certificate.serializeAsPEM().pemString
        return try TLSIdentity(certificatePEM: pem, privateKeyPEM: key.pemRepresentation)
    }

    private static func ipBytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }
}

extension TLSCertificate {
    init(_ certificate: NIOSSLCertificate) { self.certificate = certificate }
}
