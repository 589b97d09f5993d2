package dev.omnigraph.cli;

import dev.omnigraph.api.CommitId;
import dev.omnigraph.api.InvalidRequest;

/**
 * A commit-id option ({@code --if-commit}, {@code --to}) is parsed with the arguments, as
 * {@code load --mode} is: an id that can name no commit (empty, an unpaired surrogate) is a usage
 * error (exit 2) before any I/O, locally and with {@code --server} alike. Remote calls send
 * {@link CommitId#value()} unchanged.
 */
final class CommitIdConverter implements picocli.CommandLine.ITypeConverter<CommitId> {
  @Override
  public CommitId convert(String value) {
    try {
      return CommitId.of(value);
    } catch (InvalidRequest e) {
      throw new picocli.CommandLine.TypeConversionException(e.getMessage());
    }
  }
}
