import OpenCoreData

extension HealthRecordExport {
    /// The medication list as CSV (RFC 4180, CRLF line ends, a header line): name, nickname, RxNorm code, the
    /// concept's name, form, archived, scheduled, concept identifier.
    ///
    /// A field a spreadsheet would run as a formula (one starting with `=`, `+`, `-`, `@`, a tab or a carriage
    /// return) is written with a leading `'`, so a nickname cannot run code in the doctor's spreadsheet.
    public func medicationsCSV() -> String {
        var rows = [
            ["name", "nickname", "rxnorm", "medication", "form", "archived", "scheduled", "concept_identifier"]
        ]
        for entry in medications {
            rows.append([
                entry.displayName, entry.nickname ?? "", Self.rxNormCode(entry) ?? "", entry.medication.displayText,
                entry.medication.generalForm.rawValue, entry.isArchived ? "yes" : "no",
                entry.hasSchedule ? "yes" : "no",
                entry.medication.identifier.identifier,
            ])
        }
        return CSVWriter.document(rows)
    }

    /// The dose history as CSV, oldest first: the time (ISO 8601 with the offset of `timeZone`), medication name,
    /// RxNorm code, status, dose and unit, the scheduled time and dose (empty for as-needed doses), the event's
    /// UUID. Every log status is a row (missed, snoozed and undone ones too).
    public func doseEventsCSV(timeZone: TimeZone = .current) -> String {
        let time = ISO8601DateFormatter()
        time.timeZone = timeZone
        time.formatOptions = [.withInternetDateTime]
        var rows = [
            [
                "time", "medication", "rxnorm", "status", "dose", "unit", "scheduled_time", "scheduled_dose", "uuid",
            ]
        ]
        for event in doseEvents {
            let medication = medication(of: event)
            rows.append([
                time.string(from: event.startDate), medication.displayName, Self.rxNormCode(medication) ?? "",
                Self.statusName(event.logStatus), event.doseQuantity.map(Self.number) ?? "", event.unit.unitString,
                event.scheduledDate.map(time.string(from:)) ?? "", event.scheduledDoseQuantity.map(Self.number) ?? "",
                event.uuid.uuidString.lowercased(),
            ])
        }
        return CSVWriter.document(rows)
    }

    /// A quantity without a needless fraction (`1`, `0.5`).
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}

/// RFC 4180 writing, with spreadsheet formulas neutralised.
enum CSVWriter {
    static func document(_ rows: [[String]]) -> String {
        rows.map { $0.map(field).joined(separator: ",") }.joined(separator: "\r\n") + "\r\n"
    }

    static func field(_ value: String) -> String {
        var text = value
        if let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) { text = "'" + text }
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
