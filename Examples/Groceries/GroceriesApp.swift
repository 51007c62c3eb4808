// Data flow across windows: the grocery list is owned by the App and shared by every window; each
// window keeps its own draft, aisle, filter (@State) and shopper name (@SceneStorage).
// Run `swift run Groceries`, open http://127.0.0.1:8080/ and then "New Window" (or a second tab).
import SwiftUIWeb

@main
struct GroceriesApp: App {
    @State private var store = GroceryStore()

    var body: some Scene {
        WindowGroup {
            GroceryWindow()
                .environment(store)
        }
    }
}

enum Aisle: String, CaseIterable, Identifiable {
    case produce, dairy, bakery, pantry
    var id: Self { self }
    var symbol: String {
        switch self {
        case .produce: "leaf"
        case .dairy: "drop"
        case .bakery: "birthday.cake"
        case .pantry: "cart"
        }
    }
}

struct Grocery: Identifiable, Hashable {
    let id = UUID()
    var name: String
    var aisle: Aisle
    var purchased = false
}

@MainActor @Observable
final class GroceryStore {
    var items = [
        Grocery(name: "Apples", aisle: .produce),
        Grocery(name: "Oat milk", aisle: .dairy),
        Grocery(name: "Sourdough", aisle: .bakery),
    ]

    var remaining: Int { items.filter { !$0.purchased }.count }

    func add(_ name: String, aisle: Aisle) {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return }
        items.append(Grocery(name: trimmed, aisle: aisle))
    }

    func purchased(_ id: Grocery.ID) -> Binding<Bool> {
        Binding(get: { self.items.first { $0.id == id }?.purchased ?? false },
                set: { value in
                    if let i = self.items.firstIndex(where: { $0.id == id }) { self.items[i].purchased = value }
                })
    }

    func clearPurchased() { items.removeAll { $0.purchased } }
}

struct GroceryWindow: View {
    @Environment(GroceryStore.self) private var store
    @Environment(\.openWindow) private var openWindow
    @State private var draft = ""
    @State private var aisle = Aisle.produce
    @State private var hidePurchased = false
    @State private var confirmClear = false
    @SceneStorage("shopper") private var shopper = ""

    var visible: [Grocery] { store.items.filter { !hidePurchased || !$0.purchased } }

    var body: some View {
        NavigationStack {
            Form {
                Section {
                    ForEach(visible) { item in
                        Toggle(isOn: store.purchased(item.id)) {
                            Label(item.name, systemImage: item.aisle.symbol)
                        }
                    }
                    if visible.isEmpty {
                        Text("Nothing to buy").foregroundStyle(.secondary)
                    }
                } header: {
                    Text("Shared list")
                } footer: {
                    Text("Owned by the App: a change here shows in every window at once.")
                }

                Section {
                    TextField("New item", text: $draft)
                        .onSubmit(add)
                    Picker("Aisle", selection: $aisle) {
                        ForEach(Aisle.allCases) { Text($0.rawValue.capitalized) }
                    }
                    Button("Add to list", action: add)
                        .disabled(draft.trimmingCharacters(in: .whitespaces).isEmpty)
                } header: {
                    Text("Add an item")
                } footer: {
                    Text(draft.isEmpty ? "This window's draft is its own @State." : "Draft: \(draft)")
                }

                Section("This window") {
                    TextField("Shopper", text: $shopper)
                    Toggle("Hide purchased", isOn: $hidePurchased)
                    Button("Open another window") { openWindow() }
                }
            }
            .navigationTitle(shopper.isEmpty ? "Groceries (\(store.remaining) left)" : "\(shopper)'s groceries (\(store.remaining) left)")
            .toolbar {
                ToolbarItem(placement: .primaryAction) {
                    Button("Clear purchased", systemImage: "trash") { confirmClear = true }
                        .disabled(!store.items.contains { $0.purchased })
                }
            }
            .alert("Clear purchased items?", isPresented: $confirmClear) {
                Button("Clear", role: .destructive) { store.clearPurchased() }
                Button("Cancel", role: .cancel) {}
            } message: {
                Text("They disappear from every window.")
            }
        }
    }

    private func add() {
        store.add(draft, aisle: aisle)
        draft = ""
    }
}
