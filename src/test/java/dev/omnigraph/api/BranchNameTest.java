package dev.omnigraph.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The branch-name and commit-id rules, checked where a name or id enters. */
class BranchNameTest {

  @Test
  void mainIsANameButNotANewOne() {
    assertThat(BranchName.of("main").isMain()).isTrue();
    assertThat(BranchName.orMain(null)).isEqualTo(BranchName.MAIN);
    assertThat(BranchName.orMain(" ")).isEqualTo(BranchName.MAIN);
    assertThatThrownBy(() -> BranchName.created("main")).isInstanceOf(InvalidRequest.class)
        .hasMessage("branch name 'main' is reserved: the main branch always exists");
    assertThatThrownBy(() -> BranchName.of("Main")).isInstanceOf(InvalidRequest.class)
        .hasMessage("branch name 'Main' is reserved: the main branch always exists");
  }

  @Test
  void aNewNameFollowsTheSegmentRules() {
    assertThat(BranchName.created("agent/one-2.x_y").value()).isEqualTo("agent/one-2.x_y");
    for (String bad : new String[] {"a//b", "/a", "a/", "-a", "a/.b", "a..b", "x.lock", "a b", "a/b.lock"}) {
      assertThatThrownBy(() -> BranchName.created(bad)).as(bad).isInstanceOf(InvalidRequest.class)
          .hasMessageStartingWith("invalid branch name '" + bad + "'");
    }
    assertThatThrownBy(() -> BranchName.created("")).isInstanceOf(InvalidRequest.class)
        .hasMessage("branch name is empty");
    assertThatThrownBy(() -> BranchName.created(null)).isInstanceOf(InvalidRequest.class)
        .hasMessage("branch name is empty");
  }

  @Test
  void aNameMustFitLancesRefFileName() {
    assertThatThrownBy(() -> BranchName.created("a".repeat(201))).isInstanceOf(InvalidRequest.class)
        .hasMessage("branch name is longer than 200 characters");
    // 84 slashes spell 252 characters more: 84 + 85 = 169 characters, 337 encoded.
    String slashed = "a/".repeat(84) + "a";
    assertThat(BranchName.encodedLength(slashed)).isEqualTo(337);
    assertThatThrownBy(() -> BranchName.created(slashed)).isInstanceOf(InvalidRequest.class)
        .hasMessageContaining("which makes it 337 of at most 250 characters");
    String fits = "a/".repeat(41) + "a".repeat(melt(41));
    assertThat(BranchName.encodedLength(fits)).isEqualTo(BranchName.MAX_ENCODED_LENGTH);
    assertThat(BranchName.created(fits).value()).isEqualTo(fits);
  }

  /** The tail that brings {@code slashes} segments to exactly the encoded bound. */
  private static int melt(int slashes) {
    return BranchName.MAX_ENCODED_LENGTH - 4 * slashes;
  }

  @Test
  void aCommitIdIsNonEmptyAndSpellableInUtf8() {
    assertThat(CommitId.of("01J0000000000000000000000A").value()).isEqualTo("01J0000000000000000000000A");
    // Any other spelling is the lookup's to refuse (not found), as before the type existed.
    assertThat(CommitId.of("no-such-commit").toString()).isEqualTo("no-such-commit");
    assertThatThrownBy(() -> CommitId.of("")).isInstanceOf(InvalidRequest.class);
    assertThatThrownBy(() -> CommitId.of(null)).isInstanceOf(InvalidRequest.class);
    assertThatThrownBy(() -> CommitId.of("ab\uD800c")).isInstanceOf(InvalidRequest.class)
        .hasMessage("'commit' is not a commit id: unpaired surrogate U+D800 at character 2");
    assertThat(CommitId.of("a\uD83D\uDE00").value()).hasSize(3);
  }

  /**
   * A lookup's name is held as given, whatever it is: no branch has a malformed one, so the lookup
   * answers it (404) after the caller is authorized, instead of the parse answering first.
   */
  @Test
  void aLookedUpNameIsHeldAsGivenAndNeverRefusedByTheParse() {
    for (String any : new String[] {"a b", "../x", "Main", "a/", "x.lock", "", " ", "\uD800", "a".repeat(300)}) {
      assertThat(BranchName.existing(any).value()).as(any).isEqualTo(any);
      assertThat(BranchName.existing(any).isMain()).as(any).isFalse();
    }
    assertThat(BranchName.existing("main")).isSameAs(BranchName.MAIN);
    assertThat(BranchName.existing("agent/one")).isEqualTo(BranchName.of("agent/one"))
        .hasSameHashCodeAs(BranchName.of("agent/one")).hasToString("agent/one");
    assertThat(BranchName.existing("a")).isNotEqualTo(BranchName.existing("A"));
    // A route's default: absent or blank is main, anything else is looked up as given.
    assertThat(BranchName.existingOrMain(null)).isSameAs(BranchName.MAIN);
    assertThat(BranchName.existingOrMain(" ")).isSameAs(BranchName.MAIN);
    assertThat(BranchName.existingOrMain("a b").value()).isEqualTo("a b");
    assertThatThrownBy(() -> BranchName.existing(null)).isInstanceOf(NullPointerException.class);
    // orMain keeps refusing what a branch cannot be called.
    assertThatThrownBy(() -> BranchName.orMain("a b")).isInstanceOf(InvalidRequest.class);
  }

  /** A read's commit is held as given too, an empty one included: the lookup answers 404 for it. */
  @Test
  void aLookedUpCommitIdIsHeldAsGiven() {
    for (String any : new String[] {"", "bad id", "\uD800", "01J0000000000000000000000A"}) {
      assertThat(CommitId.existing(any).value()).as(any).isEqualTo(any);
    }
    assertThat(CommitId.existing("01J0000000000000000000000A")).isEqualTo(CommitId.of("01J0000000000000000000000A"))
        .hasSameHashCodeAs(CommitId.of("01J0000000000000000000000A"));
    assertThatThrownBy(() -> CommitId.existing(null)).isInstanceOf(NullPointerException.class);
  }
}
