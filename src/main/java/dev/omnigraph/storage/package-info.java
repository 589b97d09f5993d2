/**
 * The object-store contract (StorageAdapter: conditional put, versioned get, list) and its local-
 * directory and S3 adapters, with request counting. Only this package calls the AWS SDK. It uses
 * none of our other packages.
 */
@PackageContract(
    owns = "the object-store contract and its local and S3 adapters",
    mayUse = {})
package dev.omnigraph.storage;

import dev.omnigraph.PackageContract;
