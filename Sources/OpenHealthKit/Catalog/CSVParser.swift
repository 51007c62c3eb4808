import OpenCoreData

/// An RFC 4180 parser: quoted fields may hold commas, line breaks and doubled quotes.
enum CSVParser {
    struct ParseError: Error, CustomStringConvertible {
        let description: String
    }

    /// Parses the text into rows of fields. Accepts LF or CRLF line ends; throws on a stray quote.
    static func parse(_ text: String) throws -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var inQuotes = false
        var afterQuote = false
        var line = 1
        var iterator = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        func next() -> Unicode.Scalar? {
            if let p = pending { pending = nil; return p }
            return iterator.next()
        }
        while let c = next() {
            if inQuotes {
                if c == "\"" {
                    if let n = next() {
                        if n == "\"" { field.unicodeScalars.append("\"") } else { inQuotes = false; afterQuote = true; pending = n }
                    } else { inQuotes = false; afterQuote = true }
                } else {
                    if c == "\n" { line += 1 }
                    field.unicodeScalars.append(c)
                }
                continue
            }
            switch c {
            case ",":
                row.append(field); field = ""; afterQuote = false
            case "\r":
                continue
            case "\n":
                row.append(field); field = ""; afterQuote = false
                rows.append(row); row = []
                line += 1
            case "\"":
                guard field.isEmpty, !afterQuote else { throw ParseError(description: "line \(line): stray quote in an unquoted field") }
                inQuotes = true
            default:
                guard !afterQuote else { throw ParseError(description: "line \(line): text after a closing quote") }
                field.unicodeScalars.append(c)
            }
        }
        if inQuotes { throw ParseError(description: "line \(line): unterminated quoted field") }
        if !field.isEmpty || !row.isEmpty || afterQuote { row.append(field); rows.append(row) }
        return rows
    }
}
