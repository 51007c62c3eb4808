import OpenHealthKit
import SwiftUIWeb

/// An authorization handler that asks the person, in the app's window, what an app may read and share: the sheet
/// HealthKit shows on Apple's systems. Create the store with it (`HKHealthStore(storeURL:bundleIdentifier:
/// authorizationHandler: prompt)`); `healthDataAccessRequest` then presents its sheet while a request waits.
///
/// Type switches start off and medication switches as they are now; the person turns on what they allow. "Don’t
/// Allow" allows nothing new: medications keep the access they had, types are not shared. A request that no window
/// is showing waits until one does (or until the task asking is cancelled, which counts as "Don’t Allow").
// Unchecked: its state is main-actor isolated; the handler methods reach it only through `ask`, on the main actor.
public final class HealthAccessPrompt: ObservableObject, HKAuthorizationHandler, @unchecked Sendable {
    /// What the person is being asked.
    public enum Question {
        /// Which of these medications the app may read (those it may read now are listed too).
        case medications(bundleIdentifier: String, offered: [HKUserAnnotatedMedication], current: Set<String>)
        /// Which types the app may share and read.
        case types(bundleIdentifier: String, share: [HKSampleType], read: [HKObjectType])
    }

    /// The question waiting for an answer, if any (read on the main actor).
    @MainActor public private(set) var question: Question?
    /// The switches of the question on screen, by identifier (a medication's concept identifier, or
    /// `share:`/`read:` and a type identifier).
    @MainActor public var choices: [String: Bool] = [:] {
        willSet { objectWillChange.send() }
    }
    private var answer: CheckedContinuation<[String: Bool]?, Never>?

    /// Tells the windows showing the prompt that its question or switches changed.
    public let objectWillChange = ObservableObjectPublisher()

    /// A prompt with no question yet.
    public init() {}

    /// The person's answer, which ends the question: "Allow" with the switches as set, or "Don’t Allow".
    @MainActor public func answer(allow: Bool) {
        let chosen = allow ? choices : nil
        objectWillChange.send()
        question = nil
        choices = [:]
        let waiting = answer
        answer = nil
        waiting?.resume(returning: chosen)
    }

    @MainActor private func ask(_ question: Question, initial: [String: Bool]) async -> [String: Bool]? {
        // One question at a time: a second request waits for the first to be answered.
        while self.question != nil { try? await Task.sleep(for: .milliseconds(50)) }  // polled; cancellation ends below
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<[String: Bool]?, Never>) in
                objectWillChange.send()
                self.question = question
                self.choices = initial
                self.answer = continuation
            }
        } onCancel: {
            Task { @MainActor in self.answer(allow: false) }
        }
    }

    public func perObjectReadAuthorization(
        bundleIdentifier: String, medications: [HKUserAnnotatedMedication], current: Set<String>
    ) async -> Set<HKHealthConceptIdentifier> {
        let initial = Dictionary(
            medications.map {
                ($0.medication.identifier.identifier, current.contains($0.medication.identifier.identifier))
            }
        ) { first, _ in first }
        let chosen =
            await ask(
                .medications(bundleIdentifier: bundleIdentifier, offered: medications, current: current),
                initial: initial)
            ?? initial
        return Set(medications.map(\.medication.identifier).filter { chosen[$0.identifier] == true })
    }

    public func typeAuthorization(
        bundleIdentifier: String, toShare: Set<HKSampleType>, read: Set<HKObjectType>
    ) async
        -> (share: Set<HKSampleType>, read: Set<HKObjectType>)
    {
        let share = toShare.sorted { $0.identifier < $1.identifier }
        let readable = read.sorted { $0.identifier < $1.identifier }
        var initial: [String: Bool] = [:]
        for type in share { initial["share:" + type.identifier] = false }
        for type in readable { initial["read:" + type.identifier] = false }
        let chosen =
            await ask(.types(bundleIdentifier: bundleIdentifier, share: share, read: readable), initial: initial)
            ?? initial
        return (
            Set(share.filter { chosen["share:" + $0.identifier] == true }),
            Set(readable.filter { chosen["read:" + $0.identifier] == true })
        )
    }
}

/// The sheet a ``HealthAccessPrompt`` shows while it has a question.
struct HealthAccessSheet: ViewModifier {
    @ObservedObject var prompt: HealthAccessPrompt
    /// Whether the request this sheet belongs to is the one asking.
    let asking: Bool

    func body(content: Content) -> some View {
        content.sheet(
            isPresented: Binding(
                get: { asking && prompt.question != nil }, set: { if !$0 { prompt.answer(allow: false) } })
        ) {
            VStack(alignment: .leading, spacing: 12) {
                if let question = prompt.question {
                    switch question {
                    case .medications(let app, let offered, _):
                        Text("“\(app)” would like to read your medications").font(.headline)
                        Text("Choose the medications it may read, with their doses.")
                        ForEach(offered, id: \.medication.identifier.identifier) { medication in
                            Toggle(isOn: choice(medication.medication.identifier.identifier)) {
                                Text(medication.displayName)
                            }
                        }
                    case .types(let app, let share, let read):
                        Text("“\(app)” would like to access your health data").font(.headline)
                        ForEach(share, id: \.identifier) { type in
                            Toggle(isOn: choice("share:" + type.identifier)) { Text("Share \(Self.name(of: type))") }
                        }
                        ForEach(read, id: \.identifier) { type in
                            Toggle(isOn: choice("read:" + type.identifier)) { Text("Read \(Self.name(of: type))") }
                        }
                    }
                    HStack {
                        Button("Don’t Allow") { prompt.answer(allow: false) }
                        Button("Allow") { prompt.answer(allow: true) }
                    }
                }
            }
            .padding()
        }
    }

    private func choice(_ key: String) -> Binding<Bool> {
        Binding(get: { prompt.choices[key] ?? false }, set: { prompt.choices[key] = $0 })
    }

    /// A type's name for people: its identifier without HealthKit's prefix, words split ("Generalized Body Ache").
    static func name(of type: HKObjectType) -> String {
        var name = type.identifier
        for prefix in ["HKCategoryTypeIdentifier", "HKMedicationDoseEventTypeIdentifier", "HKObjectType"]
        where name.hasPrefix(prefix) {
            name = String(name.dropFirst(prefix.count))
        }
        var words = ""
        for character in name {
            if character.isUppercase && !words.isEmpty { words.append(" ") }
            words.append(words.isEmpty ? character : Character(character.lowercased()))
        }
        return words
    }
}
