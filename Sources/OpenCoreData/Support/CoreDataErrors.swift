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
/// A date is not valid.
public let NSValidationInvalidDateError = 1650
/// A string is longer than its maximum length.
public let NSValidationStringTooLongError = 1660
/// A string is shorter than its minimum length.
public let NSValidationStringTooShortError = 1670
/// A string does not match its pattern.
public let NSValidationStringPatternMatchingError = 1680
/// A URI is not valid.
public let NSValidationInvalidURIError = 1690
/// Several validation errors; their list is under `NSDetailedErrorsKey`.
public let NSValidationMultipleErrorsError = 1560
/// An object is not valid because of a uniqueness constraint.
public let NSManagedObjectConstraintValidationError = 1551
/// An object was referenced from another context or store it does not belong to.
public let NSManagedObjectReferentialIntegrityError = 133000
/// An object has a relationship to an object in another store.
public let NSManagedObjectExternalRelationshipError = 133010
/// Optimistic locking failed: the row changed in the store since the object was read.
public let NSManagedObjectMergeError = 133020
/// A uniqueness constraint was violated when merging.
public let NSManagedObjectConstraintMergeError = 133021
/// A context could not be locked.
public let NSManagedObjectContextLockingError = 132000
/// A coordinator could not be locked.
public let NSPersistentStoreCoordinatorLockingError = 132010
/// The store's type is unknown, or a store could not be added for its type.
public let NSPersistentStoreInvalidTypeError = 134000
/// The store's type does not match the file.
public let NSPersistentStoreTypeMismatchError = 134010
/// The store is incompatible with the model.
public let NSPersistentStoreIncompatibleSchemaError = 134020
/// A save to the store failed.
public let NSPersistentStoreSaveError = 134030
/// One or more stores failed to save.
public let NSPersistentStoreIncompleteSaveError = 134040
/// Optimistic locking conflicts were found during a save.
public let NSPersistentStoreSaveConflictsError = 134050
/// A general Core Data error.
public let NSCoreDataError = 134060
/// The store failed to complete an operation.
public let NSPersistentStoreOperationError = 134070
/// The store file could not be opened.
public let NSPersistentStoreOpenError = 134080
/// The store timed out waiting for its file's lock.
public let NSPersistentStoreTimeoutError = 134090
/// The store does not support the kind of request.
public let NSPersistentStoreUnsupportedRequestTypeError = 134091
/// The store's model version hashes differ from the model's.
public let NSPersistentStoreIncompatibleVersionHashError = 134100
/// A migration error.
public let NSMigrationError = 134110
/// Migration failed because of a uniqueness constraint violation.
public let NSMigrationConstraintViolationError = 134111
/// Migration was cancelled.
public let NSMigrationCancelledError = 134120
/// Migration failed because the source model could not be found.
public let NSMigrationMissingSourceModelError = 134130
/// Migration failed because a required mapping model was missing.
public let NSMigrationMissingMappingModelError = 134140
/// Migration failed because of a problem with the source store.
public let NSMigrationManagerSourceStoreError = 134150
/// Migration failed because of a problem with the destination store.
public let NSMigrationManagerDestinationStoreError = 134160
/// A custom entity migration policy failed.
public let NSEntityMigrationPolicyError = 134170
/// An error from SQLite itself (the underlying error is under `NSUnderlyingErrorKey`).
public let NSSQLiteError = 134180
/// A mapping model could not be inferred.
public let NSInferredMappingModelError = 134190
/// An external record could not be imported.
public let NSExternalRecordImportError = 134200
/// A persistent-history token has expired.
public let NSPersistentHistoryTokenExpiredError = 134301
/// Staged migration: the store was written by a newer framework version than this one.
public let NSStagedMigrationFrameworkVersionMismatchError = 134504
/// Staged migration refused to migrate a store backwards.
public let NSStagedMigrationBackwardMigrationError = 134505

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
