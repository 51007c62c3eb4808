// Window kinds: a window group whose windows each present a recipe (openWindow(value:), the value kept with
// the window across reloads and restarts), a single "Timers" window (Window), dismissWindow, and scenePhase.
// Run `swift run Recipes`, open http://127.0.0.1:8080/ and open a recipe in its own window. Links from other
// programs: /_swiftuiweb/open?url=recipes://bread goes to the Recipes window (handlesExternalEvents, onOpenURL),
// which opens that recipe's window.
import SwiftUIWeb

@main
struct RecipesApp: App {
    var body: some Scene {
        WindowGroup("Recipes") { RecipeList() }.handlesExternalEvents(matching: ["recipes://"])
        WindowGroup("Recipe", id: "recipe", for: Recipe.ID.self) { id in RecipeWindow(recipeID: id.wrappedValue) }
        Window("Timers", id: "timers") { TimersView() }
    }
}

struct Recipe: Identifiable, Hashable {
    let id: String
    let name: String
    let minutes: Int

    static let all = [
        Recipe(id: "soup", name: "Tomato Soup", minutes: 30),
        Recipe(id: "bread", name: "Soda Bread", minutes: 45),
        Recipe(id: "salad", name: "Green Salad", minutes: 10),
    ]
}

struct RecipeList: View {
    @Environment(\.openWindow) private var openWindow

    var body: some View {
        List(Recipe.all) { recipe in
            HStack {
                Text(recipe.name)
                Spacer()
                Button("Open in Window") { openWindow(id: "recipe", value: recipe.id) }
            }
        }
        .toolbar {
            Button("Timers") { openWindow(id: "timers") }
        }
        .navigationTitle("Recipes")
        // recipes://<id> opens that recipe in its own window; a Recipes window already open takes the link.
        .onOpenURL { url in
            if let id = url.host, Recipe.all.contains(where: { $0.id == id }) { openWindow(id: "recipe", value: id) }
        }
        .handlesExternalEvents(preferring: ["recipes://"], allowing: ["recipes://"])
    }
}

struct RecipeWindow: View {
    let recipeID: Recipe.ID?
    @Environment(\.dismissWindow) private var dismissWindow
    @Environment(\.scenePhase) private var scenePhase

    var body: some View {
        let recipe = Recipe.all.first { $0.id == recipeID }
        VStack(spacing: 12) {
            Text(recipe?.name ?? "No recipe").font(.title)
            Text(recipe.map { "\($0.minutes) minutes" } ?? "")
            Text("This window is \(String(describing: scenePhase))").foregroundStyle(.secondary)
            Button("Close") { dismissWindow() }
        }
        .navigationTitle(recipe?.name ?? "Recipe")
    }
}

struct TimersView: View {
    @State private var running = 0
    var body: some View {
        VStack {
            Text("\(running) timers running")
            Button("Start a Timer") { running += 1 }
        }
        .padding()
    }
}
