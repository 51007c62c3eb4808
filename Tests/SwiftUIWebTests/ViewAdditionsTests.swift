import Foundation
import Testing

@testable import SwiftUIWeb

/// Views and modifiers real apps use: progress, accessibility, tooltips, taps, transforms.
@MainActor
@Suite("View additions")
struct ViewAdditionsTests {
    @Test func progressViewsDeterminateAndNot() {
        let scene = window {
            VStack {
                ProgressView()
                ProgressView(value: 3.0, total: 4.0)
                ProgressView("Uploading", value: 0.25)
                ProgressView(value: 7.0, total: 10.0) {
                    Text("Doses")
                } currentValueLabel: {
                    Text("7 of 10")
                }
                ProgressView(value: 12.0, total: 10.0)
            }
        }
        let bars = scene.tree.all { $0.tag == "progress" }
        #expect(bars.count == 5)
        #expect(bars[0].attr("value") == nil)  // Indeterminate: the browser animates it.
        #expect(bars[1].attr("value") == "0.75" && bars[1].attr("max") == "1")
        #expect(bars[2].attr("aria-labelledby") != nil)
        #expect(scene.text("Uploading"))
        #expect(bars[3].attr("aria-valuetext") == "7 of 10")
        #expect(scene.text("7 of 10"))
        #expect(bars[4].attr("value") == "1")  // Clamped to the total.
    }

    @Test func accessibilityModifiersBecomeARIA() {
        let scene = window {
            VStack {
                Image(systemName: "heart.fill").accessibilityLabel("Favorite")
                Text("72").accessibilityLabel("Heart rate").accessibilityValue("72 beats per minute")
                    .accessibilityHint("Opens the history")
                Text("decoration").accessibilityHidden(true)
                HStack {
                    Text("A")
                    Text("B")
                }
                .help("Two letters")
            }
        }
        #expect(scene.tree.first { $0.attr("aria-label") == "Favorite" } != nil)
        let rate = scene.tree.first { $0.attr("aria-label") == "Heart rate" }
        #expect(rate?.attr("aria-valuetext") == "72 beats per minute")
        #expect(rate?.attr("aria-description") == "Opens the history")
        #expect(rate?.textContent == "72")
        #expect(scene.tree.first { $0.attr("aria-hidden") == "true" }?.textContent == "decoration")
        #expect(scene.tree.first { $0.attr("title") == "Two letters" }?.textContent == "AB")
    }

    @Test func tapGesturesRunTheirActions() {
        struct Tapper: View {
            @State private var taps = 0
            @State private var doubles = 0
            var body: some View {
                VStack {
                    Text("Taps \(taps)").onTapGesture { taps += 1 }
                    Text("Doubles \(doubles)").onTapGesture(count: 2) { doubles += 1 }
                    Text("Off \(taps)").onTapGesture { taps += 100 }.disabled(true)
                }
            }
        }
        let scene = window { Tapper() }
        let single = scene.tree.first { $0.textContent == "Taps 0" && $0.attr("data-click") != nil }
        #expect(single?.attr("data-click") == "1")
        scene.handle(event: ClientEvent(t: "click", id: single!.id))
        #expect(scene.text("Taps 1"))
        let double = scene.tree.first { $0.textContent == "Doubles 0" && $0.attr("data-click") != nil }
        #expect(double?.attr("data-click") == "2")  // The page sends it on a double click only.
        scene.handle(event: ClientEvent(t: "click", id: double!.id))
        #expect(scene.text("Doubles 1"))
        // A disabled view's tap is not registered: a forged click does nothing.
        let off = scene.tree.first { $0.textContent.hasPrefix("Off") }
        #expect(off?.attr("data-click") == nil)
        scene.handle(event: ClientEvent(t: "click", id: off!.id))
        #expect(scene.text("Taps 1"))
    }

    @Test func transformsAreCSS() {
        let scene = window {
            VStack {
                Text("Turned").rotationEffect(.degrees(90), anchor: .topLeading)
                Text("Big").scaleEffect(1.5)
                Text("Wide").scaleEffect(x: 2, y: 1, anchor: .bottom)
            }
        }
        let styles = scene.tree.all { ($0.attr("style") ?? "").contains("transform:") }.compactMap { $0.attr("style") }
        #expect(styles.contains { $0.contains("rotate(90deg)") && $0.contains("transform-origin:0% 0%") })
        #expect(styles.contains { $0.contains("scale(1.5,1.5)") && $0.contains("transform-origin:50% 50%") })
        #expect(styles.contains { $0.contains("scale(2,1)") && $0.contains("transform-origin:50% 100%") })
        #expect(Angle.radians(.pi).degrees == 180)
    }

    @Test func lazyGridsAreCSSGrids() {
        let scene = window {
            VStack {
                LazyVGrid(
                    columns: [
                        GridItem(.flexible()), GridItem(.fixed(100)), GridItem(.flexible(minimum: 40, maximum: 200)),
                    ], spacing: 12
                ) {
                    ForEach(0..<7, id: \.self) { Text("Cell \($0)") }
                }
                LazyVGrid(columns: [GridItem(.adaptive(minimum: 80))]) {
                    ForEach(0..<3, id: \.self) { Text("Tile \($0)") }
                }
                LazyVGrid(columns: [
                    GridItem(.fixed(50), spacing: 4), GridItem(.fixed(50), spacing: 20, alignment: .trailing),
                    GridItem(.fixed(50)),
                ]) {
                    ForEach(0..<4, id: \.self) { Text("Spaced \($0)") }
                }
                LazyHGrid(rows: [GridItem(.fixed(30)), GridItem(.fixed(30))], spacing: 6) {
                    ForEach(0..<5, id: \.self) { Text("Row \($0)") }
                }
            }
        }
        let grids = scene.tree.all { ($0.attr("class") ?? "").contains("sw-lazygrid") }
        #expect(grids.count == 4)
        let first = grids[0].attr("style") ?? ""
        #expect(first.contains("grid-template-columns:minmax(10px,1fr) 100px minmax(40px,200px)"), "\(first)")
        #expect(first.contains("row-gap:12px") && first.contains("column-gap:8px"))
        #expect(grids[0].children.count == 7)
        #expect(grids[1].attr("style")?.contains("repeat(auto-fill,minmax(80px,1fr))") == true)
        // Different spacings after columns: spacer tracks, and cells placed in the columns between them.
        let spaced = grids[2].attr("style") ?? ""
        #expect(spaced.contains("grid-template-columns:50px 4px 50px 20px 50px"), "\(spaced)")
        let columns = grids[2].children.map { $0.attr("style") ?? "" }
        #expect(columns[0].contains("grid-column:1") && columns[1].contains("grid-column:3"))
        #expect(columns[1].contains("justify-self:end") && columns[3].contains("grid-column:1"))
        let rows = grids[3].attr("style") ?? ""
        #expect(rows.contains("grid-template-rows:30px 30px") && rows.contains("grid-auto-flow:column"))
        #expect(rows.contains("column-gap:6px"))
    }

    @Test func shapesFillStrokeAndClip() {
        let scene = window {
            VStack {
                Rectangle().frame(width: 20, height: 10)
                Capsule().fill(Color.green)
                Ellipse().stroke(Color.red, lineWidth: 4)
                Circle().strokeBorder(Color.blue, lineWidth: 2)
                RoundedRectangle(cornerRadius: 6).fill(Color.orange)
                Text("Clipped").clipShape(Capsule())
                Text("Badge").background(Color.yellow, in: Capsule())
            }
        }
        let shapes = scene.tree.all { ($0.attr("class") ?? "").contains("sw-shape") }.map { $0.attr("style") ?? "" }
        #expect(shapes.count == 5)
        #expect(shapes[0].contains("background:currentColor") && shapes[0].contains("border-radius:0"))
        #expect(shapes[1].contains("background:\(Color.green.cssColor)") && shapes[1].contains("border-radius:9999px"))
        #expect(
            shapes[2].contains("outline:4px solid \(Color.red.cssColor)") && shapes[2].contains("outline-offset:-2px"))
        #expect(shapes[3].contains("border:2px solid") && shapes[3].contains("aspect-ratio:1"))
        #expect(shapes[4].contains("border-radius:6px"))
        let clipped = scene.tree.first {
            ($0.attr("style") ?? "").contains("overflow:hidden") && $0.textContent == "Clipped"
        }
        #expect(clipped?.attr("style")?.contains("border-radius:9999px") == true)
        let badge = scene.tree.first { ($0.attr("style") ?? "").contains("background:\(Color.yellow.cssColor)") }
        #expect(badge?.textContent == "Badge")
    }

    final class Appearances {
        var names: [String] = []
    }

    @Test func tabViewsShowOneTabAndRunOnlyIt() {
        let seen = Appearances()
        struct Tabs: View {
            let seen: Appearances
            var body: some View {
                TabView {
                    Text("Today's doses").onAppear { seen.names.append("today") }
                        .tabItem { Label("Today", systemImage: "calendar") }
                    Text("All medications").onAppear { seen.names.append("all") }
                        .tabItem { Text("Medications") }
                }
            }
        }
        let scene = window { Tabs(seen: seen) }
        let tabs = scene.tree.all { $0.attr("role") == "tab" }
        #expect(tabs.map(\.textContent) == ["Today", "Medications"])
        #expect(tabs.map { $0.attr("aria-selected") } == ["true", "false"])
        #expect(scene.text("Today's doses") && !scene.text("All medications"))
        #expect(seen.names == ["today"])  // The hidden tab's view did not appear.
        scene.handle(event: ClientEvent(t: "click", id: tabs[1].id))
        #expect(scene.text("All medications") && !scene.text("Today's doses"))
        #expect(scene.tree.all { $0.attr("role") == "tab" }.map { $0.attr("aria-selected") } == ["false", "true"])
        #expect(seen.names.contains("all"))
        let panel = scene.tree.first { $0.attr("role") == "tabpanel" }
        #expect(panel?.attr("aria-labelledby") == tabs[1].id)
    }

    @Test func aTabViewFollowsItsSelection() {
        struct Tabs: View {
            @State private var tab = "b"
            var body: some View {
                VStack {
                    Text("Selected \(tab)")
                    TabView(selection: $tab) {
                        Text("Alpha").tabItem { Text("A") }.tag("a")
                        Text("Beta").tabItem { Text("B") }.tag("b")
                        Text("Gamma").tag("c").tabItem { Text("C") }
                    }
                }
            }
        }
        let scene = window { Tabs() }
        #expect(scene.text("Beta") && !scene.text("Alpha"))
        let tabs = scene.tree.all { $0.attr("role") == "tab" }
        scene.handle(event: ClientEvent(t: "click", id: tabs[2].id))
        #expect(scene.text("Selected c") && scene.text("Gamma"))
        scene.handle(event: ClientEvent(t: "click", id: tabs[0].id))
        #expect(scene.text("Selected a") && scene.text("Alpha"))
    }

    @Test func hoverOffsetAndShadow() {
        struct Hovering: View {
            @State private var inside = false
            var body: some View {
                VStack {
                    Text(inside ? "Pointer in" : "Pointer out").onHover { inside = $0 }
                    Text("Moved").offset(x: 4, y: -2)
                    Text("Lifted").shadow(radius: 3, y: 1)
                }
            }
        }
        let scene = window { Hovering() }
        let target = scene.tree.first { $0.attr("data-hover") == "1" }
        #expect(target?.textContent == "Pointer out")
        scene.handle(event: ClientEvent(t: "hover", id: target!.id, v: "1"))
        #expect(scene.text("Pointer in"))
        scene.handle(event: ClientEvent(t: "hover", id: target!.id, v: "0"))
        #expect(scene.text("Pointer out"))
        // A hover for an element without a handler does nothing.
        #expect(scene.handle(event: ClientEvent(t: "hover", id: "nothing", v: "1")).isEmpty)
        let styles = scene.tree.all { $0.attr("style") != nil }.compactMap { $0.attr("style") }
        #expect(styles.contains { $0.contains("transform:translate(4px,-2px)") })
        #expect(styles.contains { $0.contains("filter:drop-shadow(0px 1px 3px") })
    }
}

/// iOS 18's `Tab` in a `TabView`: values select tabs, badges sit on their labels.
@MainActor
@Suite("Tabs (iOS 18)")
struct TabTests {
    enum Section: Hashable { case today, history }

    struct Tabs: View {
        @State private var section = Section.today
        var body: some View {
            TabView(selection: $section) {
                Tab("Today", systemImage: "calendar", value: .today) {
                    Text("Doses due")
                }
                .badge(2)
                Tab("History", systemImage: "clock", value: .history) {
                    Text("Past doses")
                }
            }
        }
    }

    @Test func valuesSelectTabsAndBadgesShow() throws {
        let scene = window { Tabs() }
        let tabs = scene.tree.all { $0.attr("role") == "tab" }
        #expect(tabs.map(\.textContent) == ["Today2", "History"])
        #expect(tabs[0].attr("aria-selected") == "true")
        #expect(scene.text("Doses due") && !scene.text("Past doses"))
        scene.handle(event: ClientEvent(t: "click", id: tabs[1].id))
        #expect(scene.text("Past doses") && !scene.text("Doses due"))
    }

    @Test func tabsWithoutValuesGoByPlace() throws {
        let scene = window {
            TabView {
                Tab("One", systemImage: "star") { Text("First") }
                Tab("Two", systemImage: "heart") { Text("Second") }
            }
        }
        #expect(scene.text("First"))
        let second = try #require(scene.tree.all { $0.attr("role") == "tab" }.last)
        scene.handle(event: ClientEvent(t: "click", id: second.id))
        #expect(scene.text("Second") && !scene.text("First"))
    }
}
