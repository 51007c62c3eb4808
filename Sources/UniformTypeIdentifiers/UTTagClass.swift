/// A kind of tag a type is known by: a filename extension or a MIME type.
public struct UTTagClass: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The tag class's identifier (`public.filename-extension`, `public.mime-type`).
    public let rawValue: String
    /// Creates a tag class from its identifier.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Filename extensions, without the leading dot.
    public static let filenameExtension = UTTagClass(rawValue: "public.filename-extension")
    /// MIME types.
    public static let mimeType = UTTagClass(rawValue: "public.mime-type")
    /// The identifier.
    public var description: String { rawValue }
}
