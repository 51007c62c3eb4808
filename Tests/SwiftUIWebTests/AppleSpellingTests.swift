import Foundation
import Testing

@testable import SwiftUIWeb

/// Modifiers and views as Apple code spells them, each in a property of its own so that one that stopped compiling
/// names itself. These compile, and the tests below check what they draw.
struct AppleSpellings: View {
    @State private var text = ""
    @State private var on = false
    var body: some View {
        VStack {
            v0
            v1
            v2
            v3
            v4
            v6
            v7
            v8
            v9
            v10
            v11
            v12
            v13
            v16
            v20
            v21
            v22
            v23
            v24
            v26
            v27
            v28
            v29
            v30
            v31
            v32
            v33
            v35
            v36
            v37
            v38
            v39
            v40
            v41
            v42
            v43
            v44
            v46
            v47
            v48
            v49
            v50
            v52
            v54
            v55
            v56
            v59
            v60
            v61
            v62
            v63
            v64
            v65
            v66
            v67
            v70
            v71
            v72
            v73
            v74
            v75
            v76
            v77
            v78
            v79
            v80
        }
    }
    var v0: some View { Text("a").frame(maxWidth: .infinity) }
    var v1: some View { Rectangle().fill(.background) }
    var v2: some View { Text("b").foregroundStyle(.tint) }
    var v3: some View { Text("c").foregroundStyle(.secondary) }
    var v4: some View { ScrollView { Text("d") }.scrollIndicators(.never) }
    var v6: some View { Text("f").ignoresSafeArea() }
    var v7: some View { Text("g").lineLimit(2).truncationMode(.tail) }
    var v8: some View { Text("h").textCase(.uppercase) }
    var v9: some View { Text("i").monospacedDigit() }
    var v10: some View { Text("j").fontDesign(.rounded) }
    var v11: some View { Button("k") {}.controlSize(.small) }
    var v12: some View { Button("l") {}.buttonBorderShape(.capsule) }
    var v13: some View { Label("m", systemImage: "star").labelStyle(.iconOnly) }
    var v16: some View { ScrollView { Text("p") }.scrollClipDisabled() }
    var v20: some View { Text("u").fontWeight(.semibold) }
    var v21: some View { Text("v").kerning(1) }
    var v22: some View { Text("v").tracking(1) }
    var v23: some View { Text("w").underline() }
    var v24: some View { Text("w").strikethrough() }
    var v26: some View { Text("y").privacySensitive() }
    var v27: some View { Text("z").redacted(reason: .placeholder) }
    var v28: some View { Toggle("t", isOn: $on).toggleStyle(.switch) }
    var v29: some View { TextField("x", text: $text).textFieldStyle(.roundedBorder) }
    var v30: some View { TextField("x", text: $text).autocorrectionDisabled() }
    var v31: some View { TextField("x", text: $text).textInputAutocapitalization(.never) }
    var v32: some View { TextField("x", text: $text).keyboardType(.numberPad) }
    var v33: some View { Text("zz").containerRelativeFrame(.horizontal) }
    var v35: some View { Text("zz").allowsHitTesting(false) }
    var v36: some View { Text("zz").zIndex(1) }
    var v37: some View { Text("zz").blur(radius: 2) }
    var v38: some View { Text("zz").grayscale(0.5) }
    var v39: some View { Text("zz").saturation(0.5) }
    var v40: some View { Text("zz").brightness(0.1) }
    var v41: some View { Text("zz").border(.gray) }
    var v42: some View { Text("zz").background(.thinMaterial, in: RoundedRectangle(cornerRadius: 8)) }
    var v43: some View { Text("zz").overlay(alignment: .topTrailing) { Text("o") } }
    var v44: some View { Text("zz").background(alignment: .leading) { Color.red } }
    var v46: some View { Text("zz").opacity(0.5) }
    var v47: some View { Text("zz").cornerRadius(4) }
    var v48: some View { Text("zz").labelsHidden() }
    var v49: some View { Text("zz").onSubmit {} }
    var v50: some View { Text("zz").tint(.red) }
    var v52: some View { Text("zz").lineSpacing(4) }
    var v54: some View { Text("zz").fixedSize() }
    var v55: some View { Text("zz").layoutPriority(1) }
    var v56: some View { Text("zz").clipped() }
    var v59: some View { Text("zz").toolbar { ToolbarItem(placement: .primaryAction) { Button("x") {} } } }
    var v60: some View { Text("zz").navigationBarTitleDisplayMode(.inline) }
    var v61: some View {
        Text("zz").alert("x", isPresented: $on) {
            Button("OK") {}
        } message: {
            Text("m")
        }
    }
    var v62: some View { Text("zz").confirmationDialog("x", isPresented: $on) { Button("OK") {} } }
    var v63: some View { Text("zz").fullScreenCover(isPresented: $on) { Text("f") } }
    var v64: some View { Text("zz").task {} }
    var v65: some View { Text("zz").onChange(of: on) { _, _ in } }
    var v66: some View { Text("zz").disabled(on) }
    var v67: some View { Text("zz").environment(\.colorScheme, .dark) }
    var v70: some View { Text(Date(), style: .time) }
    var v71: some View { Text(Date.now, format: .dateTime.hour()) }
    var v72: some View { Text(3.5, format: .number) }
    var v73: some View { Text("**bold**") }
    var v74: some View { Text(verbatim: "x") + Text("y") }
    var v75: some View { ContentUnavailableView("None", systemImage: "tray") }
    var v76: some View { ControlGroup { Button("a") {} } }
    var v77: some View { GroupBox("Box") { Text("x") } }
    var v78: some View { DisclosureGroup("More") { Text("x") } }
    var v79: some View { LabeledContent("Name", value: "x") }
    var v80: some View { Gauge(value: 0.5) { Text("g") } }
}

/// What the modifiers and views of `AppleSpellings` draw.
@MainActor
@Suite("Apple spellings")
struct AppleSpellingTests {
    @Test func textAndEffectsBecomeCSS() {
        let scene = window {
            VStack {
                Text("Caps").textCase(.uppercase)
                Text("12:30").monospacedDigit()
                Text("Soft").fontDesign(.rounded)
                Text("Wide").kerning(2)
                Text("Blurred").blur(radius: 3)
                Text("Gray").grayscale(1)
                Text("Front").zIndex(2)
                Text("Through").allowsHitTesting(false)
                Text("Secret").redacted(reason: .placeholder)
                Text("Private").privacySensitive().redacted(reason: .privacy)
                Text("Open").privacySensitive()
                Button("Small") {}.controlSize(.small)
                Button("Pill") {}.buttonBorderShape(.capsule)
                ScrollView(showsIndicators: false) { Text("Scrolled") }
                Rectangle().fill(.background)
                Text("Tinted").foregroundStyle(.tint)
            }
        }
        let styles = scene.tree.all { $0.attr("style") != nil }.compactMap { $0.attr("style") }
        for expected in [
            "text-transform:uppercase", "font-variant-numeric:tabular-nums", "font-family:ui-rounded",
            "letter-spacing:2px", "filter:blur(3px)", "filter:grayscale(1)", "z-index:2", "pointer-events:none",
            "font-size:13px", "--sw-button-radius:9999px", "background:var(--sw-surface)", "color:var(--sw-accent)",
        ] {
            #expect(styles.contains { $0.contains(expected) }, "\(expected)")
        }
        // Placeholder redaction hides the text; privacySensitive hides only under redacted(reason: .privacy).
        #expect(styles.filter { $0.contains("color:transparent") }.count == 2)
        #expect(scene.tree.first { $0.attr("class")?.contains("sw-no-indicators") == true } != nil)
    }

    @Test func textFieldTraitsBecomeAttributes() throws {
        let scene = window {
            VStack {
                TextField("Code", text: .constant("")).keyboardType(.numberPad).autocorrectionDisabled()
                    .textInputAutocapitalization(.never)
                TextField("Plain", text: .constant("")).textFieldStyle(.plain)
            }
        }
        let code = try #require(scene.tree.first { $0.attr("placeholder") == "Code" })
        #expect(code.attr("inputmode") == "numeric" && code.attr("autocapitalize") == "none")
        #expect(code.attr("spellcheck") == "false" && code.attr("autocorrect") == "off")
        #expect(scene.tree.first { $0.attr("placeholder") == "Plain" }?.attr("class") == "sw-field sw-field-plain")
    }

    @Test func groupingViews() throws {
        let scene = window {
            VStack {
                GroupBox("Today") { Text("2 doses") }
                LabeledContent("Strength", value: "100 mg")
                ControlGroup {
                    Button("Less") {}
                    Button("More") {}
                }
                DisclosureGroup("Details") { Text("Take with food") }
                ContentUnavailableView("No doses", systemImage: "tray", description: Text("Log one to see it here."))
                Gauge(value: 3.0, in: 0...4) { Text("Taken") }
            }
        }
        #expect(scene.tree.first { $0.attr("class") == "sw-groupbox" }?.textContent == "Today2 doses")
        #expect(scene.tree.first { $0.attr("class") == "sw-labeled-value" }?.textContent == "100 mg")
        #expect(scene.tree.first { $0.attr("class") == "sw-controlgroup" }?.children.count == 2)
        let meter = try #require(scene.tree.first { $0.tag == "meter" })
        #expect(meter.attr("value") == "3" && meter.attr("max") == "4")
        #expect(
            scene.tree.first { $0.attr("role") == "status" }?.textContent.contains("Log one to see it here.") == true)
        // The disclosure group keeps its own expansion: collapsed, then open.
        #expect(!scene.text("Take with food"))
        let title = try #require(scene.tree.first { $0.attr("class") == "sw-disclosure-title" })
        #expect(title.attr("aria-expanded") == "false")
        scene.handle(event: ClientEvent(t: "click", id: title.id))
        #expect(scene.text("Take with food"))
    }

    @Test func everySpellingRenders() {
        let scene = window { AppleSpellings() }
        #expect(scene.text("zz") && scene.text("Box") && scene.text("More"))
    }
}

/// List row traits, symbol variants, safe-area insets, two-level foreground styles and geometry changes.
@MainActor
@Suite("Row traits and geometry changes")
struct RowTraitsTests {
    @Test func listRowsTakeTheirViewsTraits() throws {
        let scene = window {
            List {
                Text("Plain")
                Text("Highlighted").listRowBackground(Color.yellow)
                Text("Seamless").listRowSeparator(.hidden)
                Text("Tight").listRowInsets(EdgeInsets(top: 2, leading: 4, bottom: 2, trailing: 4))
            }
        }
        let rows = scene.tree.all { $0.attr("class")?.hasPrefix("sw-row") == true }
        #expect(rows.count == 4)
        #expect(rows[1].attr("style") == "background:#ffcc00")
        #expect(rows[2].attr("class") == "sw-row sw-row-nosep")
        #expect(rows[3].attr("style") == "padding:2px 4px 2px 4px")
        // The carried attributes are lifted off the row's view.
        #expect(scene.tree.first { $0.attr("data-row-bg") != nil } == nil)
    }

    @Test func symbolVariantsInsetsAndStyles() throws {
        let scene = window {
            VStack {
                Image(systemName: "heart").symbolVariant(.fill)
                Image(systemName: "star.fill").symbolVariant(.fill)
                Text("Body").safeAreaInset(edge: .bottom, spacing: 4) { Text("Footer") }
                Text("Two").foregroundStyle(.red, .blue)
            }
        }
        let symbols = scene.tree.all { $0.attr("role") == "img" }.compactMap { $0.attr("aria-label") }
        #expect(symbols == ["heart.fill", "star.fill"])
        let insetted = try #require(scene.tree.first { $0.attr("class") == "sw-insetted" })
        #expect(insetted.children.last?.attr("class") == "sw-inset sw-inset-bottom")
        #expect(insetted.attr("style") == "gap:4px")
        #expect(scene.tree.first { $0.attr("style") == "color:#ff3b30;--sw-secondary:#007aff" } != nil)
    }

    @Test func geometryChangesCallTheirAction() throws {
        struct Watcher: View {
            @State private var width = 0.0
            @State private var changes: [String] = []
            var body: some View {
                VStack {
                    Text("Watched")
                        .onGeometryChange(for: Double.self) {
                            Double($0.size.width)
                        } action: {
                            width = $0
                        }
                    Text("Old and new")
                        .onGeometryChange(for: Bool.self) {
                            $0.size.width > 300
                        } action: { old, new in
                            changes.append("\(old)→\(new)")
                        }
                    Text("Width \(Int(width)); \(changes.joined(separator: ","))")
                }
            }
        }
        let scene = window { Watcher() }
        let watched = scene.tree.all { $0.attr("data-geometry") != nil }
        #expect(watched.count == 2)
        scene.handle(event: ClientEvent(t: "geometry", id: watched[0].id, v: "420,20,0,0"))
        #expect(scene.text("Width 420"))
        scene.handle(event: ClientEvent(t: "geometry", id: watched[1].id, v: "420,20,0,0"))
        #expect(scene.text("false→true"))
        // The same value again calls nothing.
        scene.handle(event: ClientEvent(t: "geometry", id: watched[1].id, v: "500,20,0,0"))
        #expect(!scene.text("false→true,"))
        scene.handle(event: ClientEvent(t: "geometry", id: watched[1].id, v: "200,20,0,0"))
        #expect(scene.text("false→true,true→false"))
    }
}
