package dev.omnigraph.table;

import java.util.Optional;

/**
 * A Lance branch as the graph sees it.
 *
 * @param name branch name
 * @param parent the branch it was created from (empty: main)
 * @param parentVersion the parent's version at creation
 * @param identifier Lance's native branch identity (its version/uuid chain), spelled
 *     {@code v:uuid,v:uuid…}; a delete and re-create of the same name yields a different one
 */
public record NativeBranch(String name, Optional<String> parent, long parentVersion, String identifier) {}
