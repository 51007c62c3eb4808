import OpenCoreData

/// The Health app's side of reminders: answers are logged against the scheduled dose they belong to,
/// and reminders nobody answered become `notInteracted` dose events, both from the medication's
/// stored schedule, so scheduled dates stay right across daylight-saving changes, time-zone moves
/// and midnight.
extension HKHealthAppEditor {
    /// Logs the person's answer to a reminder of a scheduled medication at `date`: the event gets the
    /// scheduled date and quantity of the dose it answers (a 22:00 dose answered at 00:30 belongs to
    /// the day before; see `MedicationSchedule.scheduledDose(forLogAt:)`). `currentTimeZone` is where
    /// the person is, for schedules whose times follow them. Throws `errorInvalidArgument` when the
    /// medication has no schedule or no dose is due within `window` of `date`.
    @discardableResult
    public func logScheduledDose(_ medication: HKHealthConceptIdentifier, status: HKMedicationDoseEvent.LogStatus, at date: Date,
                                 doseQuantity: Double? = nil, unit: HKUnit = .count(), window: TimeInterval = 12 * 3600,
                                 currentTimeZone: TimeZone = .current) throws -> HKMedicationDoseEvent {
        guard let schedule = try schedule(of: medication), schedule.hasSchedule else {
            throw HKError(.errorInvalidArgument, "medication \(medication.identifier) has no schedule; log it as needed")
        }
        guard let due = schedule.scheduledDose(forLogAt: date, window: window, currentTimeZone: currentTimeZone) else {
            throw HKError(.errorInvalidArgument, "no dose of \(medication.identifier) is scheduled within \(Int(window / 3600)) h of \(date)")
        }
        return try logDose(DoseLog(medication: medication, status: status, date: date, scheduledDate: due.date,
                                   scheduledQuantity: due.quantity, doseQuantity: doseQuantity, unit: unit))
    }

    /// Records the reminders of a scheduled medication that went unanswered in [start, end): every
    /// scheduled dose without a dose event for its scheduled date becomes a `notInteracted` event
    /// (`notificationNotSent` with `delivered: false`) dated at its scheduled time. Running it again
    /// over the same interval adds nothing. Returns the new events in order.
    @discardableResult
    public func recordUnansweredReminders(for medication: HKHealthConceptIdentifier, from start: Date, to end: Date,
                                          delivered: Bool = true, unit: HKUnit = .count(),
                                          currentTimeZone: TimeZone = .current) throws -> [HKMedicationDoseEvent] {
        guard start < end else { throw HKError(.errorInvalidArgument, "recordUnansweredReminders: start \(start) is not before end \(end)") }
        guard let schedule = try schedule(of: medication), schedule.hasSchedule else {
            throw HKError(.errorInvalidArgument, "medication \(medication.identifier) has no schedule, so it has no reminders")
        }
        let due = schedule.scheduledDoses(from: start, to: end, currentTimeZone: currentTimeZone)
        guard !due.isEmpty else { return [] }
        let status: HKMedicationDoseEvent.LogStatus = delivered ? .notInteracted : .notificationNotSent
        // One transaction: what is answered and what gets recorded cannot race another writer.
        return try database.write { context, sequence in
            let p = HKQuery.and([HKQuery.compare("medicationConceptIdentifier", .equal, medication.identifier),
                                 HKQuery.compare("scheduledDate", .atLeast, due[0].date),
                                 HKQuery.compare("scheduledDate", .atMost, due[due.count - 1].date)])
            let answered = Set(try database.fetch(HealthStoreModel.doseEvent, p, in: context).compactMap { $0.value(forKey: "scheduledDate") as? Date })
            let missing = due.filter { !answered.contains($0.date) }
            return try insertDoses(missing.map {
                DoseLog(medication: medication, status: status, date: $0.date, scheduledDate: $0.date, scheduledQuantity: $0.quantity, unit: unit)
            }, in: context, sequence: sequence)
        }
    }
}
