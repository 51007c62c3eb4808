/// How text fields look (`textFieldStyle`).
public struct TextFieldStyleKind: Hashable, Sendable {
    let cssClass: String
}

/// A text field style.
public protocol TextFieldStyle: Sendable {
    /// The field's look.
    var _kind: TextFieldStyleKind { get }
}
/// The platform's usual look (a rounded box).
public struct DefaultTextFieldStyle: TextFieldStyle {
    public var _kind: TextFieldStyleKind { TextFieldStyleKind(cssClass: "") }
    public init() {}
}
/// A rounded, bordered box.
public struct RoundedBorderTextFieldStyle: TextFieldStyle {
    public var _kind: TextFieldStyleKind { TextFieldStyleKind(cssClass: "") }
    public init() {}
}
/// No border or background: text on the view's own background.
public struct PlainTextFieldStyle: TextFieldStyle {
    public var _kind: TextFieldStyleKind { TextFieldStyleKind(cssClass: "sw-field-plain") }
    public init() {}
}
extension TextFieldStyle where Self == DefaultTextFieldStyle {
    /// The platform's usual look.
    public static var automatic: DefaultTextFieldStyle { .init() }
}
extension TextFieldStyle where Self == RoundedBorderTextFieldStyle {
    /// A rounded, bordered box.
    public static var roundedBorder: RoundedBorderTextFieldStyle { .init() }
}
extension TextFieldStyle where Self == PlainTextFieldStyle {
    /// No border or background.
    public static var plain: PlainTextFieldStyle { .init() }
}

/// How the on-screen keyboard capitalizes (`textInputAutocapitalization`, the `autocapitalize` attribute).
public struct TextInputAutocapitalization: Hashable, Sendable {
    let value: String
    /// No capitals.
    public static let never = TextInputAutocapitalization(value: "none")
    /// The first letter of each word.
    public static let words = TextInputAutocapitalization(value: "words")
    /// The first letter of each sentence.
    public static let sentences = TextInputAutocapitalization(value: "sentences")
    /// Every letter.
    public static let characters = TextInputAutocapitalization(value: "characters")
}

/// The kind of on-screen keyboard a field asks for (`keyboardType`, the `inputmode` attribute).
public enum UIKeyboardType: Hashable, Sendable {
    case `default`, asciiCapable, numbersAndPunctuation, URL, numberPad, phonePad, namePhonePad, emailAddress,
        decimalPad, twitter, webSearch, asciiCapableNumberPad
    var inputMode: String {
        switch self {
        case .default, .asciiCapable, .namePhonePad, .twitter: "text"
        case .numbersAndPunctuation: "text"
        case .URL: "url"
        case .numberPad, .asciiCapableNumberPad: "numeric"
        case .phonePad: "tel"
        case .emailAddress: "email"
        case .decimalPad: "decimal"
        case .webSearch: "search"
        }
    }
}

/// What text fields in a view ask of the browser: their look, spell checking, capitalization, keyboard.
struct TextInputTraits: Sendable {
    var styleClass = ""
    var autocorrectionDisabled = false
    var autocapitalization: TextInputAutocapitalization?
    var keyboard: UIKeyboardType?

    /// The field's attributes for these traits.
    var attributes: [(String, String)] {
        var out: [(String, String)] = []
        if autocorrectionDisabled { out += [("autocorrect", "off"), ("spellcheck", "false")] }
        if let autocapitalization { out.append(("autocapitalize", autocapitalization.value)) }
        if let keyboard { out.append(("inputmode", keyboard.inputMode)) }
        return out
    }
}

private struct TextInputTraitsKey: EnvironmentKey { static var defaultValue: TextInputTraits { TextInputTraits() } }

extension EnvironmentValues {
    var textInputTraits: TextInputTraits {
        get { self[TextInputTraitsKey.self] }
        set { self[TextInputTraitsKey.self] = newValue }
    }
}

extension View {
    /// Sets the look of text fields in this view.
    public func textFieldStyle<S: TextFieldStyle>(_ style: S) -> some View {
        EnvironmentWriter(content: self) { $0.textInputTraits.styleClass = style._kind.cssClass }
    }
    /// Turns the browser's autocorrection and spell checking off (or on) for text fields in this view.
    public func autocorrectionDisabled(_ disable: Bool = true) -> some View {
        EnvironmentWriter(content: self) { $0.textInputTraits.autocorrectionDisabled = disable }
    }
    /// How the on-screen keyboard capitalizes in text fields in this view.
    public func textInputAutocapitalization(_ autocapitalization: TextInputAutocapitalization?) -> some View {
        EnvironmentWriter(content: self) { $0.textInputTraits.autocapitalization = autocapitalization }
    }
    /// The on-screen keyboard text fields in this view ask for.
    public func keyboardType(_ type: UIKeyboardType) -> some View {
        EnvironmentWriter(content: self) { $0.textInputTraits.keyboard = type }
    }
}
