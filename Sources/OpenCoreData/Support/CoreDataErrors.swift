import Foundation

/// Core Data's error codes in `NSCocoaErrorDomain`, with Apple's values.
public let NSManagedObjectValidationError = 1550
/// A to-many relationship has too many destination objects.
public let NSValidationRelationshipExceedsMaximumCountError = 1590
/// A to-many relationship has too few destination objects.
public let NSValidationRelationshipLacksMinimumCountError = 1580
/// A relationship with a deny delete rule is not empty.
public let NSValidationRelationshipDeniedDeleteError = 1600
/// A non-optional property has no value.
public let NSValidationMissingMandatoryPropertyError = 1570
/// A number is above its maximum.
public let NSValidationNumberTooLargeError = 1610
/// A number is below its minimum.
public let NSValidationNumberTooSmallError = 1620
/// A date is too late.
public let NSValidationDateTooLateError = 1630
/// A date is too soon.
public let NSValidationDateTooSoonError = 1640
/// A value is of the wrong type for its attribute.
public let NSValidationInvalidDateError = 1650
/// A string is longer than its maximum length.
public let NSValidationStringTooLongError = 1660
/// A string is shorter than its minimum length.
public let NSValidationStringTooShortError = 1670
/// A string does not match its pattern.
public let NSValidationStringPatternMatchingError = 1680
/// Several validation errors; their list is under `NSDetailedErrorsKey`.
public let NSValidationMultipleErrorsError = 1560
/// An object is not valid because of a uniqueness constraint.
public let NSManagedObjectConstraintValidationError = 1551
/// An object was referenced from another context or store it does not belong to.
public let NSManagedObjectReferentialIntegrityError = 133000
/// An object already exists in the store.
public let NSManagedObjectExternalRelationshipError = 133010
/// Optimistic locking failed: the row changed in the store since the object was read.
public let NSManagedObjectMergeError = 133020
/// A uniqueness constraint was violated when merging.
public let NSManagedObjectConstraintMergeError = 133021
/// The store could not be opened.
public let NSPersistentStoreInvalidTypeError = 134000
/// The store's type does not match the file.
public let NSPersistentStoreTypeMismatchError = 134010
/// The store is incompatible with the model.
public let NSPersistentStoreIncompatibleSchemaError = 134020
/// A save to the store failed.
public let NSPersistentStoreSaveError = 134030
/// The store failed to complete an operation.
public let NSPersistentStoreOperationError = 134070
/// The store's model version hashes differ from the model's.
public let NSPersistentStoreIncompatibleVersionHashError = 134100
/// A migration error.
public let NSMigrationError = 134110
/// Migration failed because a required mapping model was missing.
public let NSMigrationMissingMappingModelError = 134140
/// Staged migration refused to migrate a store backwards.
public let NSStagedMigrationBackwardMigrationError = 134191
/// Staged migration found stages whose checksums do not form a valid sequence.
public let NSStagedMigrationFrameworkVersionMismatchError = 134190
/// A fetch request was invalid.
public let NSCoreDataError = 134060
/// A store file could not be found or read.
public let NSPersistentStoreInvalidFileError = 134080

/// Key in an error's userInfo holding the object that failed validation.
public let NSValidationObjectErrorKey = "NSValidationErrorObject"
/// Key in an error's userInfo holding the name of the property that failed validation.
public let NSValidationKeyErrorKey = "NSValidationErrorKey"
/// Key in an error's userInfo holding the value that failed validation.
public let NSValidationValueErrorKey = "NSValidationErrorValue"
/// Key in an error's userInfo holding several underlying errors.
public let NSDetailedErrorsKey = "NSDetailedErrors"
/// Key in an error's userInfo holding the merge conflicts of a failed save.
public let NSPersistentStoreSaveConflictsErrorKey = "conflictList"
/// Key in an error's userInfo naming the affected store.
public let NSAffectedStoresErrorKey = "NSAffectedStoresErrorKey"
/// Key in an error's userInfo naming the affected objects.
public let NSAffectedObjectsErrorKey = "NSAffectedObjectsErrorKey"

/// Builds an `NSError` in `NSCocoaErrorDomain` with a description.
func coreDataError(_ code: Int, _ message: String, _ userInfo: [String: Any] = [:]) -> NSError {
    var info = userInfo
    info[NSLocalizedDescriptionKey] = message
    return NSError(domain: NSCocoaErrorDomain, code: code, userInfo: info)
}
