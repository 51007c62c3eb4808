// OpenHealthKit re-exports OpenCoreData (and through it Foundation), so `import OpenHealthKit` gives
// apps the NSPredicate / NSCompoundPredicate / NSSortDescriptor that HealthKit's predicates are made of.
@_exported import OpenCoreData
