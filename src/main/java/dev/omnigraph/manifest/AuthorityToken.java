package dev.omnigraph.manifest;

import java.util.Optional;

/**
 * What a write is prepared against (docs/write-path.md, "The commit template"): the target branch's
 * native Lance identity, its exact effective graph head (absent on a branch with no commits of its
 * own and no inherited head), and the accepted schema identity. Any difference at revalidation
 * invalidates the prepared attempt.
 */
public record AuthorityToken(
    String branch, Optional<String> branchIdentity, Optional<String> graphHead, String schemaIdentity) {}
