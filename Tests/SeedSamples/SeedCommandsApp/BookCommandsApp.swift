import SwiftUIWeb

// Our own code around the seed's BookCommands (14:07), which the SeedSamples plugin extracts at build
// time: the seed shows only the commands, so the book type, its focused-value key and an app that installs
// the commands are written here.

/// A book being read.
struct Book: Identifiable {
    let id = UUID()
    var title: String
    var progress = 0
    var isCompleted = false

    mutating func updateProgress() { progress = min(100, progress + 10) }
    mutating func markCompleted() {
        isCompleted = true
        progress = 100
    }
}

struct SelectedBookKey: FocusedValueKey {
    typealias Value = Binding<Book>
}

extension FocusedValues {
    var selectedBook: Binding<Book>? {
        get { self[SelectedBookKey.self] }
        set { self[SelectedBookKey.self] = newValue }
    }
}

@main
struct BookCommandsApp: App {
    var body: some Scene {
        WindowGroup { ReadingList() }
            .commands { BookCommands() }
    }
}

struct ReadingList: View {
    @State private var books = [Book(title: "Book #1"), Book(title: "Book #2")]
    @State private var selection: Book.ID?

    var body: some View {
        List(books, selection: $selection) { book in
            Text("\(book.title): \(book.isCompleted ? "completed" : "\(book.progress)%")")
        }
        .focusedSceneValue(\.selectedBook, selectedBinding)
        .navigationTitle("Reading List")
    }

    private var selectedBinding: Binding<Book>? {
        guard let selection, let index = books.firstIndex(where: { $0.id == selection }) else { return nil }
        return Binding(get: { books[index] }, set: { books[index] = $0 })
    }
}
