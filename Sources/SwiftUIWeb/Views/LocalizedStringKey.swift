import Foundation
import Synchronization

/// The key of a localized string, as `Text("Hello \(name)")` makes one: literal text, and interpolations formatted
/// as SwiftUI formats them (`format:`, `specifier:`, `style:`, a `Text`'s styled runs, an inline symbol `Image`).
///
/// The key is Apple's (`"Hello %@"`, `"%lld items"`): `Text` looks it up in the bundle's `Localizable.strings`
/// (or the table named), and without a translation shows the interpolated text.
public struct LocalizedStringKey: Equatable, Sendable, ExpressibleByStringInterpolation {
    /// The key, with a format specifier where each interpolation is.
    let key: String
    /// Each interpolation's text, as runs (a `Text` keeps its styles; an `Image` is a symbol run).
    let arguments: [[Text.Run]]

    /// A key from a string (no interpolations).
    public init(_ value: String) {
        key = Self.escapingPercents(value)
        arguments = []
    }

    /// The text with each `%` doubled, as a key's literal text is written. Most text has none: one scan of its bytes
    /// finds that and returns it as it is (Foundation's `replacingOccurrences` costs far more, and every `Text` and
    /// `Button` of every render makes a key).
    static func escapingPercents(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count + 4)
        for character in text.unicodeScalars {
            escaped.unicodeScalars.append(character)
            if character == "%" { escaped.unicodeScalars.append("%") }
        }
        return escaped
    }
    /// A key from a literal.
    public init(stringLiteral value: String) { self.init(value) }
    /// A key from an interpolated literal.
    public init(stringInterpolation: StringInterpolation) {
        key = stringInterpolation.key
        arguments = stringInterpolation.arguments
    }

    /// Builds a key and its arguments from an interpolated literal.
    public struct StringInterpolation: StringInterpolationProtocol {
        var key = ""
        var arguments: [[Text.Run]] = []

        /// Room for the literal's parts.
        public init(literalCapacity: Int, interpolationCount: Int) {
            key.reserveCapacity(literalCapacity + 4 * interpolationCount)
        }
        /// Literal text.
        public mutating func appendLiteral(_ literal: String) {
            key += LocalizedStringKey.escapingPercents(literal)
        }
        private mutating func append(_ text: String, specifier: String) {
            key += specifier
            arguments.append([Text.Run(string: text, style: "")])
        }
        /// A string.
        public mutating func appendInterpolation(_ string: String) { append(string, specifier: "%@") }
        /// A value shown as `String(describing:)` does.
        public mutating func appendInterpolation<T>(_ value: T) {
            append(String(describing: value), specifier: "%@")
        }
        /// An integer (`%lld` in the key, as Apple's).
        public mutating func appendInterpolation<T: BinaryInteger>(_ value: T) {
            append(String(value), specifier: T.isSigned ? "%lld" : "%llu")
        }
        /// A double, with six decimals as SwiftUI shows it (`%lf` in the key; `specifier:` or `format:` choose
        /// others).
        public mutating func appendInterpolation(_ value: Double) {
            append(String(format: "%lf", value), specifier: "%lf")
        }
        /// A float, with six decimals as SwiftUI shows it (`%f` in the key).
        public mutating func appendInterpolation(_ value: Float) {
            append(String(format: "%f", Double(value)), specifier: "%f")
        }
        /// A number formatted with a `printf` specifier (`"%.1f"`, `"%.1f mg"`): the key keeps the whole specifier,
        /// as Apple's does. A specifier that is not exactly one number's conversion (`"%@"`, two conversions, none)
        /// would make `String(format:)` read what is not there: the value is then written as `String(describing:)`
        /// writes it.
        public mutating func appendInterpolation<T: CVarArg & Numeric>(_ value: T, specifier: String) {
            if let conversion = LocalizedStringKey.numberConversion(in: specifier) {
                append(String(format: String(specifier[conversion]), value), specifier: specifier)
            } else {
                append(String(describing: value), specifier: "%@")
            }
        }
        /// A value in a format style (`\(price, format: .currency(code: "EUR"))`).
        public mutating func appendInterpolation<F: FormatStyle>(_ input: F.FormatInput, format: F)
        where F.FormatOutput == String {
            append(format.format(input), specifier: "%@")
        }
        /// A date in a style (`\(date, style: .time)`).
        public mutating func appendInterpolation(_ date: Date, style: Text.DateStyle) {
            append(Text.string(from: date, style: style), specifier: "%@")
        }
        /// A value through a Foundation formatter (`nil`: `String(describing:)`).
        public mutating func appendInterpolation<Subject: ReferenceConvertible>(
            _ subject: Subject, formatter: Formatter?
        ) {
            append(formatter?.string(for: subject) ?? String(describing: subject), specifier: "%@")
        }
        /// A styled text, kept with its styles.
        public mutating func appendInterpolation(_ text: Text) {
            key += "%@"
            arguments.append(text.runs)
        }
        /// A symbol image, drawn inline with the text.
        public mutating func appendInterpolation(_ image: Image) {
            key += "%@"
            switch image.source {
            case .system(let name): arguments.append([Text.Run(string: "", style: "", symbol: name)])
            default: arguments.append([Text.Run(string: image.label ?? "", style: "")])
            }
        }
    }

    /// Where `specifier`'s one numeric `printf` conversion is (flags, width, precision, a length, then one of
    /// `d i o u x X f F e E g G a A`); nil unless there is exactly one and no other conversion (`%%` is allowed).
    static func numberConversion(in specifier: String) -> Range<String.Index>? {
        var found: Range<String.Index>?
        var index = specifier.startIndex
        while index < specifier.endIndex {
            guard specifier[index] == "%" else {
                index = specifier.index(after: index)
                continue
            }
            var end = specifier.index(after: index)
            if end < specifier.endIndex, specifier[end] == "%" {
                index = specifier.index(after: end)
                continue
            }
            while end < specifier.endIndex, "-+ #0123456789.".contains(specifier[end]) {
                end = specifier.index(after: end)
            }
            while end < specifier.endIndex, "hlqLzjt".contains(specifier[end]) { end = specifier.index(after: end) }
            guard end < specifier.endIndex, "dioxXufFeEgGaA".contains(specifier[end]), found == nil else { return nil }
            found = index..<specifier.index(after: end)
            index = specifier.index(after: end)
        }
        return found
    }

    /// The runs to show: the translation of the key in `table` of `bundle` when there is one, else the literal,
    /// with the arguments where their specifiers are.
    func resolve(table: String?, bundle: Bundle?) -> [Text.Run] {
        // The common case (the app's bundle, its default table) asks once whether there is a table at all: every
        // `Text` literal of every render comes here.
        if bundle == nil, table == nil, !LocalizedStringKey.mainHasStrings {
            return LocalizedStringKey.substitute(key, arguments)
        }
        let format = LocalizedStringKey.translation(of: key, table: table, bundle: bundle ?? .main) ?? key
        return LocalizedStringKey.substitute(format, arguments)
    }

    /// Whether the app's bundle has a `Localizable.strings`.
    private static let mainHasStrings = Bundle.main.path(forResource: "Localizable", ofType: "strings") != nil

    /// Bundles (by path and table) known to have no strings table: most apps have none, and a lookup per text
    /// would cost a file search each render.
    private static let tables = Mutex<[String: Bool]>([:])

    private static func translation(of key: String, table: String?, bundle: Bundle) -> String? {
        let name = table ?? "Localizable"
        let cacheKey = bundle.bundlePath + "/" + name
        let has: Bool
        if let known = tables.withLock({ $0[cacheKey] }) {
            has = known
        } else {
            has = bundle.path(forResource: name, ofType: "strings") != nil
            tables.withLock { $0[cacheKey] = has }
        }
        guard has else { return nil }
        let translated = bundle.localizedString(forKey: key, value: nil, table: table)
        return translated == key ? nil : translated
    }

    /// Replaces each specifier of `format` (`%@`, `%lld`, `%.1f`, positional `%2$@`) by its argument's runs, and
    /// `%%` by `%`. A specifier without an argument is shown as written, never read from memory.
    static func substitute(_ format: String, _ arguments: [[Text.Run]]) -> [Text.Run] {
        var runs: [Text.Run] = []
        var literal = ""
        var next = 0
        var index = format.startIndex
        func flush() {
            if !literal.isEmpty { runs.append(Text.Run(string: literal, style: "")) }
            literal = ""
        }
        while index < format.endIndex {
            let character = format[index]
            guard character == "%" else {
                literal.append(character)
                index = format.index(after: index)
                continue
            }
            var end = format.index(after: index)
            guard end < format.endIndex else {
                literal.append("%")
                break
            }
            if format[end] == "%" {
                literal.append("%")
                index = format.index(after: end)
                continue
            }
            // Flags, width, precision, length, then the conversion letter.
            var position: Int?
            var digits = ""
            while end < format.endIndex, format[end].isNumber {
                digits.append(format[end])
                end = format.index(after: end)
            }
            if end < format.endIndex, format[end] == "$", let n = Int(digits) {
                position = n - 1
                end = format.index(after: end)
            }
            while end < format.endIndex, "-+ #0123456789.lhqzjt".contains(format[end]) {
                end = format.index(after: end)
            }
            guard end < format.endIndex else {
                literal += String(format[index...])
                break
            }
            let argument = position ?? next
            if position == nil { next += 1 }
            if arguments.indices.contains(argument) {
                flush()
                runs += arguments[argument]
            } else {
                literal += String(format[index...end])
            }
            index = format.index(after: end)
        }
        flush()
        // Neighbouring plain runs are one (a text with plain interpolations is one run, patched as one).
        var merged: [Text.Run] = []
        for run in runs {
            if let last = merged.last, last.style.isEmpty, last.symbol == nil, run.style.isEmpty, run.symbol == nil {
                merged[merged.count - 1].string += run.string
            } else {
                merged.append(run)
            }
        }
        return merged.isEmpty ? [Text.Run(string: "", style: "")] : merged
    }
}
