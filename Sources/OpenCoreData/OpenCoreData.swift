// OpenCoreData re-exports Foundation, as Apple's CoreData module does, so that `import OpenCoreData`
// is all a file needs. Declarations here with Foundation's names (NSPredicate, NSSortDescriptor, ...)
// shadow corelibs Foundation's unimplemented ones.
@_exported import Foundation
