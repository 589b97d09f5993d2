package dev.omnigraph.write;

import dev.omnigraph.api.ReadSetChanged;
import java.util.Optional;

/**
 * Internal signal: the prepared authority moved before any effect. Repreparable writers start
 * over; the others surface it as {@link ReadSetChanged}. Never escapes the write package.
 */
final class Reprepare extends RuntimeException {

  final String member;
  final Optional<String> expected;
  final Optional<String> actual;

  Reprepare(String member, Optional<String> expected, Optional<String> actual) {
    super(member + " moved before effects", null, false, false);
    this.member = member;
    this.expected = expected;
    this.actual = actual;
  }

  ReadSetChanged asReadSetChanged() {
    return new ReadSetChanged(member, expected, actual);
  }
}
