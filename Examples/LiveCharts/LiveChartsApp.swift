// Swift Charts in the browser: a heart-rate line that gains a point every second (patches, not a reload), doses
// per day stacked by medication with a legend and a chosen color scale, side-by-side bars, a donut of the week's
// doses, and a threshold rule. Run `swift run LiveCharts` and open the link it prints.
import Charts
import Foundation
import SwiftUIWeb

@main
struct LiveChartsApp: App {
    var body: some Scene {
        WindowGroup("Live Charts") { ChartsView() }
    }
}

struct Reading: Identifiable {
    let id: Int
    let time: Date
    let beatsPerMinute: Double
}

struct DoseCount: Identifiable {
    var id: String { day + medication }
    let day: String
    let medication: String
    let count: Int
}

struct ChartsView: View {
    @State private var readings: [Reading] = (0..<10).map { ChartsView.reading($0) }
    @State private var running = true
    @State private var hovering = false

    static let start = Date(timeIntervalSinceReferenceDate: 815_000_000)

    /// A deterministic, heart-rate-like value for the n-th second.
    static func reading(_ n: Int) -> Reading {
        let wave = sin(Double(n) / 3) * 6 + cos(Double(n) / 7) * 4
        return Reading(id: n, time: start.addingTimeInterval(Double(n)), beatsPerMinute: (72 + wave).rounded())
    }

    static let doses: [DoseCount] = [
        ("Mon", "Ibuprofen", 2), ("Mon", "Vitamin D", 1), ("Tue", "Ibuprofen", 3), ("Tue", "Vitamin D", 1),
        ("Wed", "Ibuprofen", 1), ("Wed", "Vitamin D", 1), ("Thu", "Ibuprofen", 2), ("Thu", "Vitamin D", 0),
        ("Fri", "Ibuprofen", 0), ("Fri", "Vitamin D", 1),
    ].map { DoseCount(day: $0.0, medication: $0.1, count: $0.2) }

    var body: some View {
        VStack(alignment: .leading, spacing: 16) {
            HStack {
                Text(hovering ? "Heart rate: \(Int(readings.last?.beatsPerMinute ?? 0)) BPM" : "Heart rate")
                    .font(.headline)
                    .onHover { hovering = $0 }
                    .help("The latest reading shows while the pointer is here")
                Spacer()
                Text("\(readings.count) readings")
                Button(running ? "Pause" : "Resume") { running.toggle() }
            }
            Chart {
                ForEach(readings) { reading in
                    LineMark(x: .value("Time", reading.time), y: .value("BPM", reading.beatsPerMinute))
                        .interpolationMethod(.monotone)
                    PointMark(x: .value("Time", reading.time), y: .value("BPM", reading.beatsPerMinute))
                        .symbolSize(20)
                }
                RuleMark(y: .value("Resting", 70))
                    .foregroundStyle(.gray)
                    .lineStyle(StrokeStyle(lineWidth: 1, dash: [4, 3]))
            }
            .chartYScale(domain: 50...90)
            .chartYAxisLabel("BPM")
            .frame(height: 220)

            Text("Doses per day").font(.headline)
            Chart(Self.doses) { dose in
                BarMark(x: .value("Day", dose.day), y: .value("Doses", dose.count))
                    .foregroundStyle(by: .value("Medication", dose.medication))
            }
            .chartForegroundStyleScale(["Ibuprofen": Color.orange, "Vitamin D": Color.teal])
            .frame(height: 200)

            Text("Side by side").font(.headline)
            Chart(Self.doses) { dose in
                BarMark(x: .value("Day", dose.day), y: .value("Doses", dose.count))
                    .foregroundStyle(by: .value("Medication", dose.medication))
                    .position(by: .value("Medication", dose.medication))
            }
            .chartYAxis { AxisMarks(values: [0, 1, 2, 3]) }
            .frame(height: 200)

            Text("This week").font(.headline)
            Chart(Self.totals, id: \.name) { total in
                SectorMark(angle: .value("Doses", total.count), innerRadius: .ratio(0.6), angularInset: 2)
                    .foregroundStyle(by: .value("Medication", total.name))
            }
            .frame(height: 200)
        }
        .padding()
        .task {
            while !Task.isCancelled {
                do {
                    try await Task.sleep(for: .seconds(1))
                } catch {
                    return  // Cancelled: the window closed.
                }
                if running { readings.append(Self.reading(readings.count)) }
            }
        }
    }

    static var totals: [(name: String, count: Int)] {
        Dictionary(grouping: doses, by: \.medication).map { ($0.key, $0.value.reduce(0) { $0 + $1.count }) }
            .sorted { $0.name < $1.name }
    }
}
