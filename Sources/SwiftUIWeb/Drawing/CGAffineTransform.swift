import Foundation

/// A 2-D affine transform (Core Graphics' type, which Linux lacks): a point (x, y) maps to
/// (a·x + c·y + tx, b·x + d·y + ty).
public struct CGAffineTransform: Equatable, Sendable {
    /// The matrix's entries.
    public var a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat

    /// A transform from its matrix's entries.
    public init(a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat) {
        (self.a, self.b, self.c, self.d, self.tx, self.ty) = (a, b, c, d, tx, ty)
    }
    /// A transform from its matrix's entries.
    public init(_ a: CGFloat, _ b: CGFloat, _ c: CGFloat, _ d: CGFloat, _ tx: CGFloat, _ ty: CGFloat) {
        self.init(a: a, b: b, c: c, d: d, tx: tx, ty: ty)
    }
    /// The identity.
    public init() { self.init(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0) }
    /// A translation.
    public init(translationX tx: CGFloat, y ty: CGFloat) { self.init(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty) }
    /// A scale.
    public init(scaleX sx: CGFloat, y sy: CGFloat) { self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0) }
    /// A rotation by `angle` radians (clockwise on screen, where y grows downwards).
    public init(rotationAngle angle: CGFloat) {
        let (sine, cosine) = (sin(angle), cos(angle))
        self.init(a: cosine, b: sine, c: -sine, d: cosine, tx: 0, ty: 0)
    }

    /// The identity.
    public static let identity = CGAffineTransform()
    /// Whether this is the identity.
    public var isIdentity: Bool { self == .identity }

    /// This transform followed by `other`.
    public func concatenating(_ other: CGAffineTransform) -> CGAffineTransform {
        CGAffineTransform(
            a: a * other.a + b * other.c, b: a * other.b + b * other.d,
            c: c * other.a + d * other.c, d: c * other.b + d * other.d,
            tx: tx * other.a + ty * other.c + other.tx, ty: tx * other.b + ty * other.d + other.ty)
    }
    /// A translation followed by this transform.
    public func translatedBy(x: CGFloat, y: CGFloat) -> CGAffineTransform {
        CGAffineTransform(translationX: x, y: y).concatenating(self)
    }
    /// A scale followed by this transform.
    public func scaledBy(x: CGFloat, y: CGFloat) -> CGAffineTransform {
        CGAffineTransform(scaleX: x, y: y).concatenating(self)
    }
    /// A rotation followed by this transform.
    public func rotated(by angle: CGFloat) -> CGAffineTransform {
        CGAffineTransform(rotationAngle: angle).concatenating(self)
    }
    /// The transform that undoes this one (this one itself when it can't be undone, as Core Graphics).
    public func inverted() -> CGAffineTransform {
        let determinant = a * d - b * c
        guard determinant != 0 else { return self }
        return CGAffineTransform(
            a: d / determinant, b: -b / determinant, c: -c / determinant, d: a / determinant,
            tx: (c * ty - d * tx) / determinant, ty: (b * tx - a * ty) / determinant)
    }

    /// SVG's `matrix(a b c d e f)`.
    var svg: String {
        // Rounded to 1/10,000 (a rotation's cosine of 90° is 6e-17, not 0), without a negative zero.
        "matrix("
            + [a, b, c, d, tx, ty].map { Font.num((Double($0) * 10_000).rounded() / 10_000 + 0) }
            .joined(separator: " ") + ")"
    }
}

extension CGPoint {
    /// The point mapped by a transform.
    public func applying(_ t: CGAffineTransform) -> CGPoint {
        CGPoint(x: t.a * x + t.c * y + t.tx, y: t.b * x + t.d * y + t.ty)
    }
}

extension Path {
    /// The path with every point mapped by a transform. Exact for lines and curves, and for circular arcs under
    /// translations, rotations and uniform scales; under a non-uniform scale or a skew an arc keeps its mapped end
    /// points and takes radii scaled by the transform's mean factor, an approximation.
    public func applying(_ t: CGAffineTransform) -> Path {
        var mapped = Path()
        let scale = sqrt(abs(t.a * t.d - t.b * t.c))
        for element in elements {
            switch element {
            case .move(let p): mapped.move(to: p.applying(t))
            case .line(let p): mapped.addLine(to: p.applying(t))
            case .quadCurve(let p, let control): mapped.addQuadCurve(to: p.applying(t), control: control.applying(t))
            case .curve(let p, let c1, let c2):
                mapped.addCurve(to: p.applying(t), control1: c1.applying(t), control2: c2.applying(t))
            case .arc(let p, let rx, let ry, let large, let sweep):
                let flips = t.a * t.d - t.b * t.c < 0
                mapped.elements.append(
                    .arc(to: p.applying(t), rx: rx * scale, ry: ry * scale, large: large, sweep: flips ? !sweep : sweep)
                )
            case .close: mapped.closeSubpath()
            }
        }
        return mapped
    }
}
