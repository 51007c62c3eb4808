/// The primary keys of a fetch result, in result order, stored compactly: runs of consecutive keys take
/// one entry each (a fetch in table order of a million rows is one run); keys in any other order are
/// stored one by one, in 32 bits while they fit (row numbers rarely pass four billion), else 64.
struct PrimaryKeyList: RandomAccessCollection {
    /// First key of each run.
    private var starts: [Int64] = []
    /// Result index at which each run begins (increasing).
    private var offsets: [Int] = []
    /// All keys, once runs stop paying off (more than one run per eight keys).
    private var plain: [Int64]?
    /// The same, while every key fits in 32 bits.
    private var narrow: [UInt32]?
    private(set) var count = 0

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    mutating func append(_ key: Int64) {
        defer { count += 1 }
        if narrow != nil {
            if key >= 0, key <= Int64(UInt32.max) {
                narrow!.append(UInt32(key))
            } else {
                plain = narrow!.map { Int64($0) } + [key]
                narrow = nil
            }
            return
        }
        if plain != nil {
            plain!.append(key)
            return
        }
        if let last = starts.last, last &+ Int64(count - offsets[offsets.count - 1]) == key { return }
        starts.append(key)
        offsets.append(count)
        if starts.count > 64, starts.count > count / 8 {
            let keys = Array(self) + [key] // `self` ends before the new key (count grows on return)
            if keys.allSatisfy({ $0 >= 0 && $0 <= Int64(UInt32.max) }) {
                narrow = keys.map { UInt32($0) }
            } else {
                plain = keys
            }
            starts = []
            offsets = []
        }
    }

    subscript(position: Int) -> Int64 {
        precondition(position >= 0 && position < count, "primary key index \(position) out of range 0..<\(count)")
        if let narrow { return Int64(narrow[position]) }
        if let plain { return plain[position] }
        // The last run starting at or before `position`.
        var low = 0, high = offsets.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if offsets[mid] <= position { low = mid } else { high = mid - 1 }
        }
        return starts[low] + Int64(position - offsets[low])
    }
}
