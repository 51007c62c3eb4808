import SwiftCompilerPlugin
import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `#Preview("Name", traits: …) { body }`: a record in the binary's `swift5_tests` section that the app's
/// preview gallery finds at run time (SwiftUIWeb's `PreviewCatalog`), as Xcode's previews find theirs.
///
/// The expansion is a `@section` constant whose accessor builds a `_PreviewEntry` from the macro's own
/// arguments. When the body declares `@Previewable` variables (`@Previewable @State var on = false`), they
/// become the stored properties of a generated view and the rest of the body its `body`, as Apple's macro
/// does.
public struct PreviewMacro: DeclarationMacro {
    /// The record (and the generated view for `@Previewable` state).
    public static func expansion(
        of node: some FreestandingMacroExpansionSyntax,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        var name: ExprSyntax = "nil"
        var traits: [ExprSyntax] = []
        var body: ClosureExprSyntax? = node.trailingClosure
        for argument in node.arguments {
            switch argument.label?.text {
            case nil where argument.expression.is(ClosureExprSyntax.self) && body == nil:
                body = argument.expression.as(ClosureExprSyntax.self)
            case nil:
                if traits.isEmpty && name.description == "nil" && !sawTraits(node, before: argument) {
                    name = argument.expression.trimmed
                } else {
                    traits.append(argument.expression.trimmed)  // the variadic `additionalTraits`
                }
            case "traits": traits.append(argument.expression.trimmed)
            case "body": body = argument.expression.as(ClosureExprSyntax.self)
            default:
                throw PreviewMacroError("#Preview has no argument named '\(argument.label!.text)'")
            }
        }
        guard let body else {
            throw PreviewMacroError("#Preview needs a body: a closure that returns the view to preview")
        }
        let unique = context.makeUniqueName("preview")
        let location = context.location(of: node, at: .afterLeadingTrivia, filePathMode: .fileID)
        let file: ExprSyntax = location.map { $0.file } ?? "#fileID"
        let line: ExprSyntax = location.map { $0.line } ?? "#line"
        var declarations: [DeclSyntax] = []
        let closure: ExprSyntax
        let (previewables, rest) = split(body.statements)
        if previewables.isEmpty {
            closure = ExprSyntax(body.trimmed)
        } else {
            let viewName = context.makeUniqueName("PreviewableView")
            let properties = previewables.map { $0.trimmedDescription }.joined(separator: "\n")
            // `return Toggle(…)` (as Apple's documentation writes it) is the body's last view, in a view builder.
            let statements = rest.map { item in
                item.item.as(ReturnStmtSyntax.self)?.expression?.trimmedDescription ?? item.trimmedDescription
            }.joined(separator: "\n")
            declarations.append(
                """
                @MainActor private struct \(viewName): SwiftUIWeb.View {
                \(raw: properties)
                @SwiftUIWeb.ViewBuilder var body: some SwiftUIWeb.View {
                \(raw: statements)
                }
                }
                """)
            closure = "{ \(viewName)() }"
        }
        let traitList: ExprSyntax = "[\(raw: traits.map(\.description).joined(separator: ", "))]"
        declarations.append(
            """
            @section("swift5_tests") @used @available(*, deprecated, message: "the preview gallery's record; not for use")
            private nonisolated let \(unique): SwiftUIWeb._PreviewRecord = (
                0x7072_6576, 0,
                { entry, type, _, _ in
                    SwiftUIWeb._PreviewEntry.make(
                        at: entry, type: type, name: \(name), traits: { \(traitList) }, fileID: \(file), line: \(line),
                        body: \(closure))
                },
                0, 0
            )
            """)
        return declarations
    }

    /// Whether a `traits:` argument comes before `argument` (unlabelled arguments after it are more traits).
    private static func sawTraits(
        _ node: some FreestandingMacroExpansionSyntax, before argument: LabeledExprSyntax
    )
        -> Bool
    {
        for other in node.arguments {
            if other.id == argument.id { return false }
            if other.label?.text == "traits" { return true }
        }
        return false
    }

    /// The body's `@Previewable` declarations (their attribute removed) and the statements after them.
    private static func split(_ statements: CodeBlockItemListSyntax) -> ([DeclSyntax], [CodeBlockItemSyntax]) {
        var previewables: [DeclSyntax] = []
        var rest: [CodeBlockItemSyntax] = []
        for item in statements {
            if let variable = item.item.as(VariableDeclSyntax.self),
                variable.attributes.contains(where: { isPreviewable($0) })
            {
                var stripped = variable
                stripped.attributes = variable.attributes.filter { !isPreviewable($0) }
                previewables.append(DeclSyntax(stripped.trimmed))
            } else {
                rest.append(item)
            }
        }
        return (previewables, rest)
    }

    private static func isPreviewable(_ element: AttributeListSyntax.Element) -> Bool {
        guard case .attribute(let attribute) = element else { return false }
        let name = attribute.attributeName.trimmedDescription
        return name == "Previewable" || name == "SwiftUIWeb.Previewable"
    }
}

/// `@Previewable` on a variable in a `#Preview` body: `#Preview` turns it into a property of a generated view,
/// so the macro itself adds nothing (it exists so that the attribute is known to the compiler).
public struct PreviewableMacro: PeerMacro {
    /// Nothing inside a `#Preview` body (the compiler type-checks the body before `#Preview` rewrites it, so
    /// this expands there too); an error anywhere else, where the attribute would mean nothing.
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        let inPreview = context.lexicalContext.contains { syntax in
            guard let expansion = syntax.asProtocol(FreestandingMacroExpansionSyntax.self) else { return false }
            return expansion.macroName.text == "Preview"
        }
        guard inPreview else {
            throw PreviewMacroError("@Previewable is for variables declared in a #Preview body")
        }
        return []
    }
}

/// A misuse of `#Preview` or `@Previewable`, shown by the compiler at the macro.
struct PreviewMacroError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

@main
struct SwiftUIWebMacrosPlugin: CompilerPlugin {
    let providingMacros: [Macro.Type] = [PreviewMacro.self, PreviewableMacro.self]
}
