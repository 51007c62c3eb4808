/// A key of a keyboard shortcut: a character, or a named key (`.return`, `.escape`, arrows…).
public struct KeyEquivalent: Hashable, Sendable, ExpressibleByExtendedGraphemeClusterLiteral {
    /// The key's character.
    public let character: Character
    /// Creates a key from a character.
    public init(_ character: Character) { self.character = character }
    /// Creates a key from a character literal.
    public init(extendedGraphemeClusterLiteral value: Character) { character = value }

    /// Up arrow.
    public static let upArrow = KeyEquivalent("\u{F700}")
    /// Down arrow.
    public static let downArrow = KeyEquivalent("\u{F701}")
    /// Left arrow.
    public static let leftArrow = KeyEquivalent("\u{F702}")
    /// Right arrow.
    public static let rightArrow = KeyEquivalent("\u{F703}")
    /// Escape.
    public static let escape = KeyEquivalent("\u{1B}")
    /// Delete (backspace).
    public static let delete = KeyEquivalent("\u{8}")
    /// Forward delete.
    public static let deleteForward = KeyEquivalent("\u{7F}")
    /// Home.
    public static let home = KeyEquivalent("\u{F729}")
    /// End.
    public static let end = KeyEquivalent("\u{F72B}")
    /// Page up.
    public static let pageUp = KeyEquivalent("\u{F72C}")
    /// Page down.
    public static let pageDown = KeyEquivalent("\u{F72D}")
    /// Clear.
    public static let clear = KeyEquivalent("\u{F739}")
    /// Tab.
    public static let tab = KeyEquivalent("\t")
    /// Space.
    public static let space = KeyEquivalent(" ")
    /// Return.
    public static let `return` = KeyEquivalent("\r")

    /// The browser's `KeyboardEvent.key` name for the key.
    var browserKey: String {
        switch self {
        case .upArrow: return "arrowup"
        case .downArrow: return "arrowdown"
        case .leftArrow: return "arrowleft"
        case .rightArrow: return "arrowright"
        case .escape: return "escape"
        case .delete: return "backspace"
        case .deleteForward: return "delete"
        case .home: return "home"
        case .end: return "end"
        case .pageUp: return "pageup"
        case .pageDown: return "pagedown"
        case .clear: return "clear"
        case .tab: return "tab"
        case .space: return " "
        case .return: return "enter"
        default: return String(character).lowercased()
        }
    }

    var glyph: String {
        switch self {
        case .upArrow: return "↑"
        case .downArrow: return "↓"
        case .leftArrow: return "←"
        case .rightArrow: return "→"
        case .escape: return "Esc"
        case .delete: return "Backspace"
        case .deleteForward: return "Delete"
        case .home: return "Home"
        case .end: return "End"
        case .pageUp: return "PageUp"
        case .pageDown: return "PageDown"
        case .clear: return "Clear"
        case .tab: return "Tab"
        case .space: return "Space"
        case .return: return "Enter"
        default: return String(character).uppercased()
        }
    }
}

/// Modifier keys of a shortcut.
public struct EventModifiers: OptionSet, Hashable, Sendable {
    /// The raw bits.
    public let rawValue: Int
    /// Creates modifiers from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// Caps Lock.
    public static let capsLock = EventModifiers(rawValue: 1 << 0)
    /// Shift.
    public static let shift = EventModifiers(rawValue: 1 << 1)
    /// Control.
    public static let control = EventModifiers(rawValue: 1 << 2)
    /// Option (Alt).
    public static let option = EventModifiers(rawValue: 1 << 3)
    /// Command (Ctrl in a browser on Linux and Windows, ⌘ in a browser on a Mac).
    public static let command = EventModifiers(rawValue: 1 << 4)
    /// A key of the numeric keypad.
    public static let numericPad = EventModifiers(rawValue: 1 << 5)
    /// Function.
    public static let function = EventModifiers(rawValue: 1 << 6)
    /// Every modifier.
    public static let all: EventModifiers = [.capsLock, .shift, .control, .option, .command, .numericPad, .function]
}

/// A key with modifiers that triggers a button or menu item.
///
/// In the browser, ⌘ is the Ctrl key (the ⌘ key on a Mac). Browsers keep some shortcuts for themselves and
/// never give them to a page: ⌘N (new window), ⌘T (new tab), ⌘W (close tab), ⌘Q, and their Shift forms.
/// Those shortcuts get Alt (Option) added: ⌘N becomes Ctrl+Alt+N, and the menu shows it so. An uppercase
/// letter means Shift, as in a Mac menu ("C" is ⇧⌘C).
public struct KeyboardShortcut: Hashable, Sendable {
    /// The key.
    public let key: KeyEquivalent
    /// The modifiers.
    public let modifiers: EventModifiers
    /// Creates a shortcut (⌘ by default).
    public init(_ key: KeyEquivalent, modifiers: EventModifiers = .command) {
        self.key = key
        self.modifiers = modifiers
    }
    /// Return, for a window's default button.
    public static let defaultAction = KeyboardShortcut(.return, modifiers: [])
    /// Escape, for a window's cancel button.
    public static let cancelAction = KeyboardShortcut(.escape, modifiers: [])

    /// The keys a browser keeps for itself with the command modifier (Ctrl).
    static let browserReserved: Set<String> = ["n", "t", "w", "q", "tab"]

    /// What the page's key handler matches: `mod+alt+shift+<key>` in that order (⌃ is folded into Ctrl or Ctrl+Alt), with browser-reserved
    /// shortcuts moved to Alt.
    var browserKeys: (modifiers: EventModifiers, key: String) {
        var mods = modifiers
        let character = key.character
        if character.isLetter && character.isUppercase { mods.insert(.shift) }
        let k = key.browserKey
        // ⌃⌘ has no browser equivalent distinct from ⌘ on Linux (both are Ctrl): it becomes Ctrl+Alt.
        if mods.contains(.control) {
            mods.remove(.control)
            if mods.contains(.command) { mods.insert(.option) } else { mods.insert(.command) }
        }
        if mods.contains(.command) && !mods.contains(.option) && KeyboardShortcut.browserReserved.contains(k) {
            mods.insert(.option)
        }
        return (mods, k)
    }

    /// The page's key code for the shortcut (matched by the client script).
    var code: String {
        let (mods, k) = browserKeys
        var parts: [String] = []
        if mods.contains(.command) { parts.append("mod") }
        if mods.contains(.option) { parts.append("alt") }
        if mods.contains(.shift) { parts.append("shift") }
        parts.append(k)
        return parts.joined(separator: "+")
    }

    /// The shortcut as the menu shows it (the keys to press in the browser).
    var label: String {
        let (mods, _) = browserKeys
        var parts: [String] = []
        if mods.contains(.command) { parts.append("Ctrl") }
        if mods.contains(.option) { parts.append("Alt") }
        if mods.contains(.shift) { parts.append("Shift") }
        parts.append(key.glyph)
        return parts.joined(separator: "+")
    }
}

private struct KeyboardShortcutKey: EnvironmentKey { static var defaultValue: KeyboardShortcut? { nil } }
extension EnvironmentValues {
    var keyboardShortcut: KeyboardShortcut? {
        get { self[KeyboardShortcutKey.self] }
        set { self[KeyboardShortcutKey.self] = newValue }
    }
}

extension View {
    /// Gives the button (or menu item) in this view a keyboard shortcut.
    public func keyboardShortcut(_ key: KeyEquivalent, modifiers: EventModifiers = .command) -> some View {
        environment(\.keyboardShortcut, KeyboardShortcut(key, modifiers: modifiers))
    }
    /// Gives the button (or menu item) in this view a keyboard shortcut.
    public func keyboardShortcut(_ shortcut: KeyboardShortcut) -> some View {
        environment(\.keyboardShortcut, shortcut)
    }
    /// Gives the button in this view a keyboard shortcut, or none.
    public func keyboardShortcut(_ shortcut: KeyboardShortcut?) -> some View {
        environment(\.keyboardShortcut, shortcut)
    }
}
