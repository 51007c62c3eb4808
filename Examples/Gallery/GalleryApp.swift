// A gallery of the views and modifiers SwiftUIWeb draws: one page per family, picked in the sidebar. The long
// list has 100,000 rows and renders only what the browser shows. Run `swift run Gallery` and open the link it
// prints; the browser test (GalleryBrowserTests) visits every page and saves a screenshot of each.
import Foundation
import SwiftUIWeb

@main
struct GalleryApp: App {
    var body: some Scene {
        WindowGroup("Gallery") { GalleryView() }
    }
}

/// The gallery's pages, in sidebar order.
enum Page: String, CaseIterable, Identifiable, Hashable {
    case longList = "Long list"
    case lazyStack = "Lazy stack"
    case shapes = "Shapes"
    case progress = "Progress"
    case grids = "Grids"
    case tabs = "Tabs"
    case effects = "Effects"
    case animation = "Animation"
    case editing = "Editing"
    case menus = "Menus"
    case gradients = "Gradients"
    case paths = "Paths"
    case focus = "Focus"
    case geometry = "Geometry"
    case accessibility = "Accessibility"
    case canvas = "Canvas"
    case gestures = "Gestures"

    /// A page is its own identity, so the sidebar's `List(selection:)` selects pages.
    var id: Page { self }

    var symbol: String {
        switch self {
        case .longList: "list.bullet"
        case .lazyStack: "rectangle.stack"
        case .shapes: "circle"
        case .progress: "clock"
        case .grids: "square.grid.2x2"
        case .tabs: "folder"
        case .effects: "bolt"
        case .animation: "play"
        case .editing: "pencil"
        case .menus: "ellipsis.circle"
        case .gradients: "sun.max"
        case .paths: "pencil"
        case .focus: "magnifyingglass"
        case .geometry: "square.grid.2x2"
        case .accessibility: "person"
        case .canvas: "paintbrush"
        case .gestures: "hand.tap"
        }
    }
}

struct GalleryView: View {
    @State private var page: Page? = .longList

    var body: some View {
        NavigationSplitView {
            List(Page.allCases, selection: $page) { page in
                Label(page.rawValue, systemImage: page.symbol)
            }
            .navigationTitle("Gallery")
        } detail: {
            switch page ?? .longList {
            case .longList: LongListPage()
            case .lazyStack: LazyStackPage()
            case .shapes: ShapesPage()
            case .progress: ProgressPage()
            case .grids: GridsPage()
            case .tabs: TabsPage()
            case .effects: EffectsPage()
            case .animation: AnimationPage()
            case .editing: EditingPage()
            case .menus: MenusPage()
            case .gradients: GradientsPage()
            case .paths: PathsPage()
            case .focus: FocusPage()
            case .geometry: GeometryPage()
            case .accessibility: AccessibilityPage()
            case .canvas: CanvasPage()
            case .gestures: GesturesPage()
            }
        }
    }
}

/// One of 100,000 rows.
struct Row: Identifiable, Hashable {
    let id: Int
    var title: String { "Row \(id.formatted())" }
}

/// A selectable list of 100,000 rows: the page renders about a screen of them at a time.
struct LongListPage: View {
    static let rows = (0..<100_000).map(Row.init(id:))
    @State private var selection: Row.ID?
    @State private var flagged: Row.ID?

    var body: some View {
        VStack(alignment: .leading) {
            Text(selection.map { "Selected: row \($0.formatted())" } ?? "Nothing selected")
                .font(.headline)
            Text(flagged.map { "Flagged: row \($0.formatted())" } ?? "Nothing flagged")
            List(LongListPage.rows, selection: $selection) { row in
                HStack {
                    Text(row.title)
                    Spacer()
                    Text(row.id.isMultiple(of: 2) ? "even" : "odd").foregroundStyle(.secondary)
                }
                .swipeActions {
                    Button("Flag") { flagged = row.id }
                }
            }
        }
        .navigationTitle("Long list")
    }
}

/// A scroll view of lazy sections whose headers stay in view.
struct LazyStackPage: View {
    static let sections = ["Morning", "Noon", "Evening", "Night"]

    var body: some View {
        ScrollView {
            LazyVStack(alignment: .leading, spacing: 6, pinnedViews: [.sectionHeaders]) {
                ForEach(LazyStackPage.sections, id: \.self) { name in
                    Section(name) {
                        ForEach(0..<5_000) { n in
                            Text("\(name) dose \(n + 1)")
                        }
                    }
                }
            }
        }
        .frame(height: 420)
        .navigationTitle("Lazy stack")
    }
}

struct ShapesPage: View {
    var body: some View {
        HStack(spacing: 16) {
            Rectangle().fill(.blue).frame(width: 60, height: 60)
            RoundedRectangle(cornerRadius: 12).fill(.green).frame(width: 60, height: 60)
            Capsule().stroke(.orange, lineWidth: 3).frame(width: 90, height: 40)
            Ellipse().fill(.purple).frame(width: 80, height: 50)
            Circle().strokeBorder(.red, lineWidth: 4).frame(width: 60, height: 60)
            Text("Clipped").padding().background(.yellow).clipShape(Capsule())
        }
        .navigationTitle("Shapes")
    }
}

struct ProgressPage: View {
    @State private var done = 3.0

    var body: some View {
        VStack(spacing: 16) {
            ProgressView()
            ProgressView("Doses taken", value: done, total: 5)
            Stepper("Taken: \(Int(done))", value: $done, in: 0...5)
        }
        .frame(width: 320)
        .navigationTitle("Progress")
    }
}

struct GridsPage: View {
    var body: some View {
        LazyVGrid(columns: [GridItem(.adaptive(minimum: 80))], spacing: 8) {
            ForEach(1...24, id: \.self) { n in
                Text("\(n)").frame(width: 70, height: 40).background(.blue.opacity(0.15))
            }
        }
        .navigationTitle("Grids")
    }
}

struct TabsPage: View {
    @State private var tab = 0

    var body: some View {
        TabView(selection: $tab) {
            Text("Today's doses").tabItem { Label("Today", systemImage: "calendar") }.tag(0)
            Text("All medications").tabItem { Label("Medications", systemImage: "pills") }.tag(1)
        }
        .navigationTitle("Tabs")
    }
}

struct EffectsPage: View {
    @State private var taps = 0
    @State private var hovering = false
    @State private var position = CGSize.zero
    @GestureState private var drag = CGSize.zero

    var body: some View {
        VStack(spacing: 24) {
            Text("Tapped \(taps) times").padding().background(.blue.opacity(0.1)).onTapGesture { taps += 1 }
            Text(hovering ? "Pointer here" : "Hover me").onHover { hovering = $0 }
            Text("Turned").rotationEffect(.degrees(-8))
            Text("Bigger").scaleEffect(1.4)
            Text("Shadowed").padding().background(.white).shadow(radius: 4)
            Text("Shifted").offset(x: 20, y: 0)
            Text("Drag me")
                .padding()
                .background(.orange.opacity(0.3))
                .offset(x: position.width + drag.width, y: position.height + drag.height)
                .gesture(
                    DragGesture()
                        .updating($drag) { value, state, _ in state = value.translation }
                        .onEnded { value in
                            position.width += value.translation.width
                            position.height += value.translation.height
                        })
            Text("Moved \(Int(position.width)),\(Int(position.height))")
            Text("Aspirin 100 mg, once daily with breakfast, for the next thirty days")
                .font(.title)
                .minimumScaleFactor(0.5)
                .frame(width: 240)
        }
        .navigationTitle("Effects")
    }
}

struct AccessibilityPage: View {
    var body: some View {
        VStack(spacing: 16) {
            Image(systemName: "heart.fill").accessibilityLabel("Favorite")
            Text("72").accessibilityLabel("Heart rate").accessibilityValue("72 beats per minute")
                .accessibilityHint("Opens the history")
            Text("Hover for a tooltip").help("A tooltip from help(_:)")
        }
        .navigationTitle("Accessibility")
    }
}

struct AnimationPage: View {
    @State private var shown = true
    @State private var turned = false

    var body: some View {
        VStack(spacing: 20) {
            Button(shown ? "Hide the card" : "Show the card") {
                withAnimation(.easeInOut(duration: 0.4)) { shown.toggle() }
            }
            if shown {
                Text("A card that slides and fades")
                    .padding()
                    .background(.blue.opacity(0.15))
                    .transition(.move(edge: .leading).combined(with: .opacity))
            }
            Button("Turn") { turned.toggle() }
            Text("Turning")
                .rotationEffect(.degrees(turned ? 180 : 0))
                .animation(.spring(duration: 0.6, bounce: 0.3), value: turned)
        }
        .navigationTitle("Animation")
    }
}

/// A list to search, reorder and delete from, with an Edit button.
struct EditingPage: View {
    @State private var medications = ["Aspirin", "Ibuprofen", "Paracetamol", "Metformin", "Lisinopril"]
    @State private var query = ""

    var body: some View {
        VStack(alignment: .leading) {
            HStack {
                Text("\(medications.count) medications")
                Spacer()
                EditButton()
            }
            .padding(.horizontal)
            List {
                ForEach(medications.filter { query.isEmpty || $0.localizedCaseInsensitiveContains(query) }, id: \.self)
                {
                    Text($0)
                }
                .onDelete { offsets in
                    let shown = medications.filter { query.isEmpty || $0.localizedCaseInsensitiveContains(query) }
                    let names = Set(offsets.map { shown[$0] })
                    medications.removeAll { names.contains($0) }
                }
                .onMove { medications.move(fromOffsets: $0, toOffset: $1) }
            }
            .searchable(text: $query, prompt: "Filter medications")
            .refreshable {
                try? await Task.sleep(for: .milliseconds(300))  // A cancelled wait is just a shorter refresh.
            }
        }
        .navigationTitle("Editing")
    }
}

/// A menu button, a split menu button and a context menu.
struct MenusPage: View {
    @State private var last = "Nothing chosen"
    @State private var reminders = true
    @State private var showsInfo = false

    var body: some View {
        VStack(spacing: 20) {
            Text(last)
            HStack {
                Menu("Actions") {
                    Button("Duplicate") { last = "Duplicated" }
                    Toggle("Reminders", isOn: $reminders)
                    Divider()
                    Menu("Share") {
                        Button("Copy link") { last = "Link copied" }
                    }
                }
                Menu("Log dose") {
                    Button("Log a skipped dose") { last = "Skipped" }
                } primaryAction: {
                    last = "Dose logged"
                }
            }
            Button("About this dose") { showsInfo = true }
                .popover(isPresented: $showsInfo) {
                    Text("Aspirin 100 mg").font(.headline)
                    Text("Take with food, once a day.")
                }
            Text("Right-click me")
                .padding()
                .background(.blue.opacity(0.1))
                .contextMenu {
                    Button("Mark taken") { last = "Marked taken" }
                    Button("Snooze") { last = "Snoozed" }
                }
        }
        .navigationTitle("Menus")
    }
}

struct GradientsPage: View {
    var body: some View {
        VStack(spacing: 16) {
            Text("Gradient text")
                .font(.largeTitle)
                .foregroundStyle(LinearGradient(colors: [.orange, .pink], startPoint: .leading, endPoint: .trailing))
            HStack(spacing: 16) {
                RoundedRectangle(cornerRadius: 12)
                    .fill(LinearGradient(colors: [.blue, .purple], startPoint: .topLeading, endPoint: .bottomTrailing))
                    .frame(width: 90, height: 90)
                Circle()
                    .fill(RadialGradient(colors: [.yellow, .orange], center: .center, startRadius: 5, endRadius: 45))
                    .frame(width: 90, height: 90)
                Circle()
                    .fill(AngularGradient(colors: [.red, .yellow, .green, .blue, .purple, .red], center: .center))
                    .frame(width: 90, height: 90)
                Rectangle().fill(Color.green.gradient).frame(width: 90, height: 90)
            }
        }
        .navigationTitle("Gradients")
    }
}

/// A custom shape: a triangle pointing up.
struct Triangle: Shape {
    func path(in rect: CGRect) -> Path {
        var path = Path()
        path.move(to: CGPoint(x: rect.midX, y: rect.minY))
        path.addLine(to: CGPoint(x: rect.maxX, y: rect.maxY))
        path.addLine(to: CGPoint(x: rect.minX, y: rect.maxY))
        path.closeSubpath()
        return path
    }
}

/// Custom shapes, a path, and a progress ring drawn with `trim`.
struct PathsPage: View {
    @State private var progress = 0.65

    var body: some View {
        VStack(spacing: 20) {
            HStack(spacing: 24) {
                Triangle().fill(.orange).frame(width: 80, height: 70)
                Triangle().stroke(.purple, style: StrokeStyle(lineWidth: 3, lineJoin: .round)).frame(
                    width: 80, height: 70)
                ZStack {
                    Circle().stroke(.gray.opacity(0.2), lineWidth: 10)
                    Circle()
                        .trim(from: 0, to: progress)
                        .stroke(.green, style: StrokeStyle(lineWidth: 10, lineCap: .round))
                        .rotationEffect(.degrees(-90))
                    Text("\(Int(progress * 100))%")
                }
                .frame(width: 80, height: 80)
                Path { path in
                    path.move(to: CGPoint(x: 0, y: 40))
                    path.addCurve(
                        to: CGPoint(x: 90, y: 40), control1: CGPoint(x: 30, y: -20), control2: CGPoint(x: 60, y: 100))
                }
                .stroke(.blue, lineWidth: 3)
            }
            Slider(value: $progress, in: 0...1)
                .frame(width: 240)
        }
        .navigationTitle("Paths")
    }
}

/// A sign-in form whose Return moves focus on, with @FocusState.
struct FocusPage: View {
    enum Field: Hashable { case name, password }
    @State private var name = ""
    @State private var password = ""
    @FocusState private var field: Field?

    var body: some View {
        Form {
            TextField("Name", text: $name)
                .focused($field, equals: .name)
                .onSubmit { field = .password }
            SecureField("Password", text: $password)
                .focused($field, equals: .password)
            Text(field.map { "Editing \($0 == .name ? "name" : "password")" } ?? "Not editing")
            Button("Start over") {
                name = ""
                password = ""
                field = .name
            }
        }
        .navigationTitle("Focus")
    }
}

/// Bars sized from the space the page gives them, with GeometryReader.
struct GeometryPage: View {
    let doses = [3, 5, 2, 6, 4]

    var body: some View {
        GeometryReader { proxy in
            VStack(alignment: .leading, spacing: 8) {
                Text("\(Int(proxy.size.width)) points wide")
                ViewThatFits(in: .horizontal) {
                    Text("Aspirin 100 mg, once a day with breakfast, for as long as the doctor says")
                    Text("Aspirin 100 mg, daily")
                }
                .padding(.bottom, 8)
                ForEach(doses.indices, id: \.self) { i in
                    RoundedRectangle(cornerRadius: 4)
                        .fill(.blue)
                        .frame(width: max(0, proxy.size.width - 40) * Double(doses[i]) / 6, height: 18)
                }
            }
            .padding()
        }
        .navigationTitle("Geometry")
    }
}

/// A day's doses as a clock face drawn on a `Canvas`: a ring, one dot per dose (filled when taken), and the hour.
struct CanvasPage: View {
    let doses: [(hour: Double, taken: Bool)] = [(8, true), (13, true), (20, false)]

    var body: some View {
        Canvas { context, size in
            let side = min(size.width, size.height) - 20
            let face = CGRect(x: (size.width - side) / 2, y: (size.height - side) / 2, width: side, height: side)
            let center = CGPoint(x: face.midX, y: face.midY)
            context.fill(
                Path(ellipseIn: face),
                with: .radialGradient(
                    Gradient(colors: [.white, .mint.opacity(0.4)]), center: center, startRadius: 0,
                    endRadius: side / 2))
            context.stroke(Path(ellipseIn: face), with: .color(.teal), lineWidth: 3)
            for dose in doses {
                var hand = context
                hand.translateBy(x: center.x, y: center.y)
                hand.rotate(by: .degrees(dose.hour / 24 * 360))
                let dot = Path(ellipseIn: CGRect(x: -8, y: -side / 2 + 6, width: 16, height: 16))
                if dose.taken {
                    hand.fill(dot, with: .color(.green))
                } else {
                    hand.stroke(dot, with: .color(.orange), lineWidth: 2)
                }
            }
            context.draw(Text("2 of 3 taken").font(.headline), at: center)
        }
        .frame(height: 320)
        .accessibilityLabel("Today's doses: 2 of 3 taken")
        .navigationTitle("Canvas")
    }
}

/// Taps, a long press, and a pinch with a rotation, each saying what it recognized.
struct GesturesPage: View {
    @State private var taps = 0
    @State private var held = false
    @GestureState private var pressing = false
    @State private var scale: CGFloat = 1
    @State private var turned = Angle.zero

    var body: some View {
        VStack(spacing: 20) {
            Text("Double-tap: \(taps)")
                .padding().background(.yellow.opacity(0.3))
                .gesture(TapGesture(count: 2).onEnded { taps += 1 })
            Text(held ? "Held" : pressing ? "Keep holding…" : "Hold for a second")
                .padding().background(.orange.opacity(0.3))
                .gesture(
                    LongPressGesture(minimumDuration: 1)
                        .updating($pressing) { value, state, _ in state = value }
                        .onEnded { _ in held = true })
            Image(systemName: "pills")
                .font(.largeTitle)
                .scaleEffect(scale)
                .rotationEffect(turned)
                .frame(width: 160, height: 160)
                .background(.mint.opacity(0.2))
                .gesture(
                    MagnifyGesture().onChanged { scale = $0.magnification }
                        .simultaneously(with: RotateGesture().onChanged { turned = $0.rotation }))
            Text("Scale \(scale, format: .number.precision(.fractionLength(1))), turned \(Int(turned.degrees))°")
        }
        .navigationTitle("Gestures")
    }
}
