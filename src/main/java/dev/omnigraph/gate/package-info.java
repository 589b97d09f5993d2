/**
 * The in-process gates that serialise the writers of one table branch and one graph branch, taken
 * in a fixed order so writers never deadlock. It knows nothing of storage. It may use: none of our
 * other packages.
 */
@PackageContract(
    owns = "the in-process gates that serialise writers of one table branch",
    mayUse = {"api"})
package dev.omnigraph.gate;

import dev.omnigraph.PackageContract;
