import Foundation

/// Tells whether two calendars are copies of one value: the one unsafe read in Charts, fenced here.
///
/// `Calendar.==` compares identifiers, time zones, locales and week rules (100–300 ns), and a year's chart looks
/// a calendar up thousands of times per render. A `Calendar` is a reference to its storage, so two copies of one
/// calendar have the same bits; calendars with other bits may still be equal, and callers then ask `==`.
enum CalendarIdentity {
    /// Whether `a` and `b` have the same bits (and so are equal). `false` says nothing: ask `==`.
    static func same(_ a: Calendar, _ b: Calendar) -> Bool {
        // Safe because `withUnsafeBytes(of:)` reads a copy of each value, only for the closure's duration.
        withUnsafeBytes(of: a) { left in withUnsafeBytes(of: b) { right in left.elementsEqual(right) } }
    }
}
