package dev.omnigraph.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * Reference {@code ChangeFeedOutput}: one bounded poll of a branch's first-parent history, one block
 * per commit in commit order. A terminal page (the poll reached its captured head) carries the durable
 * {@code cursor} and {@code caught_up}; a page that stopped at the limit carries only
 * {@code next_page_token}.
 *
 * @param caughtUp on a terminal page, whether the captured head is still the branch head
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ChangeFeedOutput(
    @JsonProperty("blocks") List<Block> blocks,
    @JsonProperty("cursor") String cursor,
    @JsonProperty("caught_up") Boolean caughtUp,
    @JsonProperty("next_page_token") String nextPageToken) {

  /** Reference {@code ChangeBlockOutput}: the changes of one commit (all, or a page of them). */
  public record Block(
      @JsonProperty("cause") CommitChangesOutput.Cause cause,
      @JsonProperty("changes") List<CommitChangesOutput.EntityChange> changes) {}
}
