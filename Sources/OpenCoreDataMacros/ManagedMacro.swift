import SwiftCompilerPlugin
import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@Managed var name: Type` on an `NSManagedObject` subclass (or an extension of one): the property's
/// getter and setter go through the object's values, found by a `ManagedProperty` constant the macro
/// declares beside it (`_managed_name`), so that an access needs no key path and no string lookup.
public struct ManagedMacro: AccessorMacro, PeerMacro {
    /// The getter and setter.
    public static func expansion(
        of node: AttributeSyntax,
        providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        guard let name = try managedName(of: declaration, attribute: node, in: context) else { return [] }
        return [
            "get { _managedValue(Self._managed_\(raw: name)) }",
            "set { _setManagedValue(newValue, Self._managed_\(raw: name)) }",
        ]
    }

    /// The property's `ManagedProperty` constant.
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let name = try managedName(of: declaration, attribute: node, in: context, diagnose: false) else { return [] }
        return ["private static let _managed_\(raw: name) = ManagedProperty(\(literal: name))"]
    }

    /// The name of the property the attribute is on; nil (with a diagnostic) when it is not a single
    /// `var` with a type annotation, no initial value and no accessors of its own.
    private static func managedName(
        of declaration: some DeclSyntaxProtocol, attribute: AttributeSyntax,
        in context: some MacroExpansionContext, diagnose: Bool = true
    ) throws -> String? {
        func fail(_ message: String) -> String? {
            if diagnose { context.diagnose(Diagnostic(node: Syntax(attribute), message: ManagedDiagnostic(message: message))) }
            return nil
        }
        guard let variable = declaration.as(VariableDeclSyntax.self), variable.bindingSpecifier.tokenKind == .keyword(.var) else {
            return fail("@Managed applies to a 'var' property, like '@Managed var name: String?'")
        }
        guard variable.bindings.count == 1, let binding = variable.bindings.first,
              let identifier = binding.pattern.as(IdentifierPatternSyntax.self) else {
            return fail("@Managed applies to one property at a time, like '@Managed var name: String?'")
        }
        let name = identifier.identifier.trimmedDescription
        guard binding.typeAnnotation != nil else {
            return fail("@Managed property '\(name)' needs a type annotation, like '@Managed var \(name): String?'")
        }
        guard binding.initializer == nil else {
            return fail("@Managed property '\(name)' cannot have an initial value: set defaults in the entity's model or in awakeFromInsert()")
        }
        guard binding.accessorBlock == nil else {
            return fail("@Managed property '\(name)' cannot have accessors of its own")
        }
        if variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }) {
            return fail("@Managed property '\(name)' must be an instance property")
        }
        return name.filter { $0 != "`" }
    }
}

/// An error message about a misplaced `@Managed`.
struct ManagedDiagnostic: DiagnosticMessage {
    let message: String
    var diagnosticID: MessageID { MessageID(domain: "OpenCoreData", id: "Managed") }
    var severity: DiagnosticSeverity { .error }
}

@main
struct OpenCoreDataMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [ManagedMacro.self]
}
