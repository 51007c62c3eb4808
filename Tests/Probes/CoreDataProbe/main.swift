// A second process for OpenCoreData's tests: writes a store or prints its canonical dump, so the tests
// can check that what one process saved is exactly what another reads back.
//
//   CoreDataProbe write <store.sqlite>
//   CoreDataProbe dump <store.sqlite>
import OpenCoreData

let arguments = CommandLine.arguments
guard arguments.count == 3, ["write", "dump"].contains(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: CoreDataProbe write|dump <store.sqlite>\n".utf8))
    exit(64)
}
do {
    let container = try ProbeModel.container(at: URL(fileURLWithPath: arguments[2]))
    let context = container.viewContext
    if arguments[1] == "write" {
        try ProbeData.write(into: context)
    } else {
        for line in try ProbeData.dump(context) { print(line) }
    }
} catch {
    FileHandle.standardError.write(Data("CoreDataProbe: \(error)\n".utf8))
    exit(1)
}
