import Foundation
import MedsKit
import SwiftUIWeb
import UniformTypeIdentifiers

/// A medication plan as a document (`.medsplan`, JSON): made from a profile's list, saved, downloaded, uploaded on
/// another machine and imported into a profile there.
public struct PlanDocument: FileDocument {
    /// The plan's file type, which Meds owns.
    public static let planType = UTType(exportedAs: "org.orchard.meds.medsplan", conformingTo: .json)
    /// Plans.
    public static var readableContentTypes: [UTType] { [planType] }

    /// The plan.
    public var plan: MedicationPlan

    /// An empty plan.
    public init() { plan = MedicationPlan(title: "Medication plan", medications: []) }

    /// Reads a plan file, checked (see ``MedicationPlan/init(data:catalog:)``).
    public init(configuration: ReadConfiguration) throws {
        guard let data = configuration.file.regularFileContents else {
            throw MedsError("A medication plan is a single file, not a folder.")
        }
        plan = try MedicationPlan(data: data)
    }

    /// The plan as a file.
    public func fileWrapper(configuration: WriteConfiguration) throws -> FileWrapper {
        FileWrapper(regularFileWithContents: try plan.data())
    }
}

/// A plan's window: its title and medications; fill it from the profile shown, or add its medications to it.
public struct PlanView: View {
    @Environment(MedsModel.self) private var model
    @Binding var document: PlanDocument
    @State private var result = ""

    /// The window of a plan document.
    public init(document: Binding<PlanDocument>) { _document = document }

    /// The window's content.
    public var body: some View {
        VStack(alignment: .leading, spacing: 10) {
            TextField("Title", text: $document.plan.title)
            if document.plan.medications.isEmpty {
                Text("This plan has no medications yet.").foregroundStyle(.secondary)
            }
            ForEach(document.plan.medications, id: \.rxcui) { entry in
                HStack(spacing: 8) {
                    VStack(alignment: .leading) {
                        Text(entry.nickname ?? entry.name).font(.headline)
                        Text("\(entry.name) (RxNorm \(entry.rxcui))").foregroundStyle(.secondary)
                        Text(
                            ScheduleText.summary(
                                // A plan's codes are checked against the catalog when it is read: the entry is there.
                                entry.schedule,
                                form: model.catalog.entry(rxcui: entry.rxcui)?.generalForm.rawValue ?? "",
                                volumeUnit: model.preferences.volumeUnit)
                        )
                        .foregroundStyle(.secondary)
                    }
                    Spacer()
                    Button("Remove") { document.plan.medications.removeAll { $0.rxcui == entry.rxcui } }
                        .accessibilityLabel("Remove \(entry.nickname ?? entry.name) from the plan")
                }
            }
            HStack(spacing: 8) {
                Button("Fill from \(model.profile.name)") {
                    let title = document.plan.title
                    document.plan = model.currentPlan()
                    if title != "Medication plan" { document.plan.title = title }
                }
                Button("Add to \(model.profile.name)") {
                    let plan = document.plan
                    Task {
                        if let added = await model.importPlan(plan) {
                            result = "Added \(added) medication\(added == 1 ? "" : "s") to \(model.profile.name)."
                        }
                    }
                }
            }
            if !result.isEmpty { Text(result) }
            if let message = model.message { AlertText(message) }
        }
        .padding()
    }
}
