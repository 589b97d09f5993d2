/**
 * The object-store contract (StorageAdapter: conditional put, versioned get, list) and its local-
 * directory and S3 adapters, with request counting. Only this package calls the AWS SDK. Its
 * configuration and failure types are values in {@code api.storage}. It may use: api.
 */
@PackageContract(
    owns = "the object-store contract and its local and S3 adapters",
    mayUse = {"api"})
package dev.omnigraph.storage;

import dev.omnigraph.PackageContract;
