import Foundation
import OpenCoreData
import Testing

struct PlaneRecord { var _tailNumber: String; var info: Info }
struct Info { var seats: Int }

@Suite struct SortDescriptorTests {
    let rows: [[String: Any]] = [
        ["name": "b", "n": 2, "file": "File10"], ["name": "A", "n": 10, "file": "file2"],
        ["name": "a", "n": 1, "file": "File1"], ["n": 5, "file": "x"],
    ]

    @Test func ascendingDescendingAndNil() {
        let byN = rows.sortedArray(using: [NSSortDescriptor(key: "n", ascending: true)])
        #expect(byN.map { $0["n"] as? Int } == [1, 2, 5, 10])
        let desc = rows.sortedArray(using: [NSSortDescriptor(key: "n", ascending: false)])
        #expect(desc.map { $0["n"] as? Int } == [10, 5, 2, 1])
        let byName = rows.sortedArray(using: [NSSortDescriptor(key: "name", ascending: true)])
        #expect(byName.map { $0["name"] as? String } == [nil, "A", "a", "b"])
        let d = NSSortDescriptor(key: "name", ascending: true)
        #expect(d.reversedSortDescriptor.ascending == false)
        #expect(d.reversedSortDescriptor.key == "name")
        #expect(d.compare(rows[0], to: rows[1]) == .orderedDescending)
    }

    @Test func comparisons() {
        let ci = rows.filter { $0["name"] != nil }.sortedArray(using: [NSSortDescriptor(key: "name", ascending: true, selector: "caseInsensitiveCompare:"),
                                                                         NSSortDescriptor(key: "n", ascending: false)])
        #expect(ci.map { $0["n"] as? Int } == [10, 1, 2])
        let std = rows.sortedArray(using: [NSSortDescriptor(key: "file", ascending: true, comparison: .localizedStandardCompare)])
        #expect(std.map { $0["file"] as? String } == ["File1", "file2", "File10", "x"])
        #expect(NSSortDescriptor(key: "f", ascending: true, selector: "localizedStandardCompare:").comparison == .localizedStandardCompare)
        #expect(NSSortDescriptor.Comparison.caseInsensitiveCompare.selectorName == "caseInsensitiveCompare:")
        let block = NSSortDescriptor(key: "n", ascending: true) { a, b in
            let x = a as! Int, y = b as! Int
            return x % 5 == y % 5 ? .orderedSame : (x % 5 < y % 5 ? .orderedAscending : .orderedDescending)
        }
        #expect(block.comparison == .comparator)
        #expect(rows.sortedArray(using: [block]).map { $0["n"] as? Int } == [10, 5, 1, 2])
    }

    @Test func keyPathInitializer() {
        #expect(NSSortDescriptor(keyPath: \PlaneRecord._tailNumber, ascending: true).key == "tailNumber")
        #expect(NSSortDescriptor(keyPath: \PlaneRecord.info.seats, ascending: false).key == "info.seats")
        var planes = [PlaneRecord(_tailNumber: "N2", info: Info(seats: 2)), PlaneRecord(_tailNumber: "N1", info: Info(seats: 9))]
        planes.sort(using: [NSSortDescriptor(keyPath: \PlaneRecord._tailNumber, ascending: true)])
        #expect(planes.map(\._tailNumber) == ["N1", "N2"])
        #expect(NSSortDescriptor(key: "a", ascending: true) == NSSortDescriptor(key: "a", ascending: true))
    }
}
