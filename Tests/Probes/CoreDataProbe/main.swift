// A second process for OpenCoreData's tests: writes a store or prints its canonical dump, so the tests
// can check that what one process saved is exactly what another reads back.
//
//   CoreDataProbe write <store.sqlite>
//   CoreDataProbe dump <store.sqlite>
//   CoreDataProbe strict-fault <store.sqlite>   (fires a fault whose row another container deleted, with
//                                                shouldDeleteInaccessibleFaults off: must stop the process)
import OpenCoreData

let arguments = CommandLine.arguments
guard arguments.count == 3, ["write", "dump", "strict-fault"].contains(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: CoreDataProbe write|dump|strict-fault <store.sqlite>\n".utf8))
    exit(64)
}
if arguments[1] == "strict-fault" {
    do {
        let url = URL(fileURLWithPath: arguments[2])
        let writer = try ProbeModel.container(at: url).viewContext
        try ProbeData.write(into: writer)
        let reader = try ProbeModel.container(at: url).viewContext
        reader.shouldDeleteInaccessibleFaults = false
        let victim = try writer.fetch(NSFetchRequest<NSManagedObject>(entityName: "Specimen"))[0]
        let fault = reader.object(with: victim.objectID)
        writer.delete(victim)
        try writer.save()
        print("fired: \(fault.value(forKey: "name") ?? "nil")")
    } catch {
        FileHandle.standardError.write(Data("CoreDataProbe: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
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
