package dev.omnigraph.storage;

import dev.omnigraph.api.storage.StorageException;
import dev.omnigraph.api.storage.StorageConfig;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.omnigraph.api.storage.StorageException.Kind;
import dev.omnigraph.testing.Races;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@link StorageAdapter} contract, once for every backend. A backend's test is a subclass that
 * only says how to get a fresh, empty root; anything that must reach under the adapter (planting
 * crash residue, checking what is really stored) goes through {@link RawBackend}.
 */
abstract class AbstractStorageAdapterContractTest {

  /** A fresh, empty root no other test uses. */
  protected abstract StorageConfig newRoot() throws Exception;

  protected StorageConfig root;
  protected StorageAdapter store;

  @BeforeEach
  void open() throws Exception {
    root = newRoot();
    store = StorageAdapters.open(root);
  }

  @AfterEach
  void close() {
    if (store != null) {
      store.close();
    }
  }

  // ---------------------------------------------------------------- put / read

  @Test
  void rootUriIsTheConfiguredRoot() {
    assertThat(store.rootUri()).isEqualTo(root.rootUri());
  }

  @Test
  void putOverwritesAndReadsBackTheNewContent() {
    store.putText("a/b.json", "first");
    store.putText("a/b.json", "second, and longer");

    assertThat(store.readText("a/b.json")).isEqualTo("second, and longer");
    assertThat(store.readTextIfExists("a/b.json")).contains("second, and longer");
  }

  @Test
  void bytesRoundTripExactly() {
    byte[] all = new byte[256];
    for (int i = 0; i < all.length; i++) {
      all[i] = (byte) i;
    }
    store.put("bin/all", all);
    store.put("bin/empty", new byte[0]);

    assertThat(store.read("bin/all")).isEqualTo(all);
    assertThat(store.read("bin/empty")).isEmpty();
    assertThat(store.readTextIfExists("bin/empty")).contains("");
  }

  @Test
  void keysWithSpacesPlusAndNonAsciiRoundTrip() {
    String key = "dir with space/ü+ñ=x.json";
    store.putText(key, "odd");

    assertThat(store.readText(key)).isEqualTo("odd");
    assertThat(store.list("dir with space")).containsExactly(key);
    assertThat(store.exists(key)).isTrue();
    store.delete(key);
    assertThat(store.exists("dir with space")).isFalse();
  }

  @Test
  void readOfAnAbsentKeyIsNotFound() {
    store.putText("present/x", "x");

    assertThat(kindOf(() -> store.read("absent"))).isEqualTo(Kind.NOT_FOUND);
    assertThat(kindOf(() -> store.readText("absent/deeper"))).isEqualTo(Kind.NOT_FOUND);
    // A directory is a prefix, not an object.
    assertThat(kindOf(() -> store.read("present"))).isEqualTo(Kind.NOT_FOUND);
    StorageException e = catchThrowableOfType(StorageException.class, () -> store.read("absent"));
    assertThat(e.isNotFound()).isTrue();
    assertThat(e.operation()).isEqualTo("read");
    assertThat(e.key()).isEqualTo("absent");
  }

  @Test
  void readTextIfExistsIsEmptyWhenAbsentAndTheContentWhenPresent() {
    assertThat(store.readTextIfExists("s/absent.json")).isEmpty();

    store.putText("s/present.json", "{\"v\":1}");
    assertThat(store.readTextIfExists("s/present.json")).contains("{\"v\":1}");
    // A prefix is not an object.
    assertThat(store.readTextIfExists("s")).isEmpty();
  }

  // ---------------------------------------------------------------- putIfAbsent

  @Test
  void putIfAbsentCreatesANewKey() {
    store.putTextIfAbsent("locks/one", "mine");

    assertThat(store.readText("locks/one")).isEqualTo("mine");
  }

  @Test
  void putIfAbsentOnAnExistingKeyIsPreconditionAndLeavesTheContent() {
    store.putText("locks/one", "first");

    StorageException e = catchThrowableOfType(
        StorageException.class, () -> store.putTextIfAbsent("locks/one", "second"));

    assertThat(e).isNotNull();
    assertThat(e.kind()).isEqualTo(Kind.PRECONDITION);
    assertThat(e.operation()).isEqualTo("putIfAbsent");
    assertThat(store.readText("locks/one")).isEqualTo("first");
  }

  @Test
  void putIfAbsentAfterDeleteCreatesAgain() {
    store.putTextIfAbsent("locks/one", "first");
    store.delete("locks/one");
    store.putTextIfAbsent("locks/one", "again");

    assertThat(store.readText("locks/one")).isEqualTo("again");
  }

  @Test
  void racingPutIfAbsentHasExactlyOneWinner() throws Exception {
    int threads = 16;
    ConcurrentLinkedQueue<String> winners = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<Kind> losers = new ConcurrentLinkedQueue<>();
    Races.atOnce(threads, i -> {
      String payload = "writer-" + i;
      try {
        store.putTextIfAbsent("race/key", payload);
        winners.add(payload);
      } catch (StorageException e) {
        losers.add(e.kind());
      }
    });

    String stored = store.readText("race/key");
    // What the adapter controls: one attempt each, so every loser is a clean PRECONDITION (a
    // retried conditional put could turn a win into a loss, or a loss into TRANSIENT), and the
    // stored object is one winner's complete payload.
    assertThat(winners.size() + losers.size()).isEqualTo(threads);
    assertThat(losers).containsOnly(Kind.PRECONDITION);
    assertThat(winners).isNotEmpty().contains(stored);
    assertThat(winners).hasSize(1);
    assertThat(losers).hasSize(threads - 1);
    assertThat(stored).isEqualTo(winners.peek());
  }

  // ---------------------------------------------------------------- readVersioned / putIfMatch / deleteIfMatch

  @Test
  void readVersionedReturnsTheContentAndATokenThatFollowsIt() {
    store.putText("v/doc", "one");
    Versioned first = store.readVersioned("v/doc");
    assertThat(first.text()).isEqualTo("one");
    assertThat(store.readVersioned("v/doc").versionToken()).isEqualTo(first.versionToken());

    store.putText("v/doc", "two");
    Versioned second = store.readVersioned("v/doc");
    assertThat(second.text()).isEqualTo("two");
    assertThat(second.versionToken()).isNotEqualTo(first.versionToken());

    assertThat(kindOf(() -> store.readVersioned("v/absent"))).isEqualTo(Kind.NOT_FOUND);
    assertThat(store.readVersionedIfExists("v/absent")).isEmpty();
    assertThat(store.readVersionedIfExists("v")).as("a prefix is not an object").isEmpty();
    assertThat(store.readVersionedIfExists("v/doc")).get().extracting(Versioned::text).isEqualTo("two");
  }

  @Test
  void putIfMatchWithTheCurrentTokenReplaces() {
    String created = store.putIfAbsent("cas/lease", "v1".getBytes(UTF_8));
    Versioned v1 = store.readVersioned("cas/lease");
    assertThat(created).as("putIfAbsent returns the token a read sees").isEqualTo(v1.versionToken());

    String replaced = store.putIfMatch("cas/lease", "v2".getBytes(UTF_8), v1.versionToken());

    Versioned v2 = store.readVersioned("cas/lease");
    assertThat(v2.text()).isEqualTo("v2");
    assertThat(v2.versionToken()).isNotEqualTo(v1.versionToken()).isEqualTo(replaced);
    // The returned token is good for the next swap: a holder renews with no read in between.
    store.putIfMatch("cas/lease", "v3".getBytes(UTF_8), replaced);
    assertThat(store.readText("cas/lease")).isEqualTo("v3");
    assertThat(store.list("cas")).as("no lock file or temp residue is visible").containsExactly("cas/lease");
    assertThat(store.list("")).containsExactly("cas/lease");
  }

  @Test
  void putIfMatchWithAStaleTokenIsPreconditionAndLeavesTheObject() {
    store.putText("cas/lease", "v1");
    String stale = store.readVersioned("cas/lease").versionToken();
    store.putText("cas/lease", "v2 by someone else");

    StorageException e = catchThrowableOfType(StorageException.class,
        () -> store.putIfMatch("cas/lease", "mine".getBytes(UTF_8), stale));

    assertThat(e).isNotNull();
    assertThat(e.kind()).isEqualTo(Kind.PRECONDITION);
    assertThat(e.operation()).isEqualTo("putIfMatch");
    assertThat(store.readText("cas/lease")).isEqualTo("v2 by someone else");
  }

  @Test
  void putIfMatchOfAnAbsentObjectIsPreconditionAndCreatesNothing() {
    store.putText("cas/lease", "v1");
    String token = store.readVersioned("cas/lease").versionToken();
    store.delete("cas/lease");

    assertThat(kindOf(() -> store.putIfMatch("cas/lease", "back".getBytes(UTF_8), token)))
        .isEqualTo(Kind.PRECONDITION);
    assertThat(kindOf(() -> store.putIfMatch("never/was", "x".getBytes(UTF_8), token)))
        .isEqualTo(Kind.PRECONDITION);

    assertThat(store.readTextIfExists("cas/lease")).isEmpty();
    assertThat(store.exists("never")).isFalse();
    assertThat(store.list("")).isEmpty();
  }

  @Test
  void deleteIfMatchDeletesOnlyTheVersionItNames() {
    store.putText("cas/lease", "v1");
    String stale = store.readVersioned("cas/lease").versionToken();
    store.putText("cas/lease", "v2");

    assertThat(kindOf(() -> store.deleteIfMatch("cas/lease", stale))).isEqualTo(Kind.PRECONDITION);
    assertThat(store.readText("cas/lease")).isEqualTo("v2");

    store.deleteIfMatch("cas/lease", store.readVersioned("cas/lease").versionToken());
    assertThat(store.readTextIfExists("cas/lease")).isEmpty();
    assertThat(store.exists("cas")).isFalse();
    // The token of a deleted object names nothing.
    assertThat(kindOf(() -> store.deleteIfMatch("cas/lease", stale))).isEqualTo(Kind.PRECONDITION);
    // And the key can be created again.
    store.putTextIfAbsent("cas/lease", "v3");
    assertThat(store.readText("cas/lease")).isEqualTo("v3");
  }

  @Test
  void racingPutIfMatchFromOneTokenHasExactlyOneWinner() throws Exception {
    store.putText("race/lease", "start");
    String token = store.readVersioned("race/lease").versionToken();
    ConcurrentLinkedQueue<String> winners = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<Kind> losers = new ConcurrentLinkedQueue<>();
    int threads = 16;
    Races.atOnce(threads, i -> {
      String payload = "replacer-" + i;
      try {
        store.putIfMatch("race/lease", payload.getBytes(UTF_8), token);
        winners.add(payload);
      } catch (StorageException e) {
        losers.add(e.kind());
      }
    });

    assertThat(winners).hasSize(1);
    assertThat(losers).hasSize(threads - 1).containsOnly(Kind.PRECONDITION);
    assertThat(store.readText("race/lease")).isEqualTo(winners.peek());
  }

  @Test
  void racingReplaceAndDeleteFromOneTokenHaveExactlyOneWinner() throws Exception {
    store.putText("race/lease", "start");
    String token = store.readVersioned("race/lease").versionToken();
    ConcurrentLinkedQueue<String> winners = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<Kind> losers = new ConcurrentLinkedQueue<>();
    int threads = 12;
    Races.atOnce(threads, i -> {
      try {
        if (i % 2 == 0) {
          store.deleteIfMatch("race/lease", token);
          winners.add("delete");
        } else {
          store.putIfMatch("race/lease", ("replacer-" + i).getBytes(UTF_8), token);
          winners.add("replacer-" + i);
        }
      } catch (StorageException e) {
        losers.add(e.kind());
      }
    });

    assertThat(winners).hasSize(1);
    assertThat(losers).hasSize(threads - 1).containsOnly(Kind.PRECONDITION);
    if (winners.peek().equals("delete")) {
      assertThat(store.readTextIfExists("race/lease")).isEmpty();
    } else {
      assertThat(store.readText("race/lease")).isEqualTo(winners.peek());
    }
  }

  // ---------------------------------------------------------------- list

  @Test
  void listReturnsEveryNestedKeySorted() {
    for (String k : List.of("g/t/2", "g/a", "g/t/1/deep", "g/b/x", "other/y", "top")) {
      store.putText(k, k);
    }

    assertThat(store.list("g")).containsExactly("g/a", "g/b/x", "g/t/1/deep", "g/t/2");
    assertThat(store.list("g/")).containsExactly("g/a", "g/b/x", "g/t/1/deep", "g/t/2");
    assertThat(store.list("g/t")).containsExactly("g/t/1/deep", "g/t/2");
    assertThat(store.list("")).containsExactly(
        "g/a", "g/b/x", "g/t/1/deep", "g/t/2", "other/y", "top");
  }

  @Test
  void listOfAnAbsentPrefixIsEmpty() {
    assertThat(store.list("")).isEmpty();
    assertThat(store.list("nothing")).isEmpty();
    store.putText("some/x", "x");
    assertThat(store.list("nothing/here")).isEmpty();
  }

  @Test
  void listIsByDirectoryNotByStringPrefix() {
    store.putText("ab/x", "x");
    store.putText("a", "object named like the prefix");

    assertThat(store.list("a")).isEmpty();
    assertThat(store.list("ab")).containsExactly("ab/x");
  }

  @Test
  void childrenAreOneLevelWithObjectTimesAndListDetailedIsListWithTimes() {
    java.time.Instant before = java.time.Instant.now().minusSeconds(5);
    for (String k : List.of("g/t/2", "g/a", "g/t/1/deep", "g/b/x", "other/y", "top")) {
      store.putText(k, k);
    }
    java.time.Instant after = java.time.Instant.now().plusSeconds(5);

    assertThat(store.children("g")).extracting(StorageAdapter.Child::name, StorageAdapter.Child::directory)
        .containsExactly(org.assertj.core.api.Assertions.tuple("a", false),
            org.assertj.core.api.Assertions.tuple("b", true), org.assertj.core.api.Assertions.tuple("t", true));
    assertThat(store.children("")).extracting(StorageAdapter.Child::name).containsExactly("g", "other", "top");
    assertThat(store.children("g/t/")).extracting(StorageAdapter.Child::name).containsExactly("1", "2");
    assertThat(store.children("nothing")).isEmpty();
    assertThat(store.children("g")).allSatisfy(c -> assertThat(c.lastModified().isPresent()).isEqualTo(!c.directory()));
    assertThat(store.children("g").get(0).lastModified().orElseThrow()).isBetween(before, after);

    assertThat(store.listDetailed("g")).extracting(StorageAdapter.Listed::key).isEqualTo(store.list("g"));
    assertThat(store.listDetailed("g")).allSatisfy(o -> assertThat(o.lastModified()).isBetween(before, after));
    assertThat(store.listDetailed("nothing")).isEmpty();
  }

  // ---------------------------------------------------------------- delete

  @Test
  void deleteThenReadIsNotFound() {
    store.putText("d/x", "x");
    store.delete("d/x");

    assertThat(kindOf(() -> store.read("d/x"))).isEqualTo(Kind.NOT_FOUND);
    assertThat(store.readTextIfExists("d/x")).isEmpty();
  }

  @Test
  void deleteOfAnAbsentKeySucceeds() {
    assertThatCode(() -> store.delete("never/was")).doesNotThrowAnyException();
    store.putText("d/x", "x");
    assertThatCode(() -> store.delete("d/y")).doesNotThrowAnyException();
    assertThat(store.list("d")).containsExactly("d/x");
  }

  @Test
  void deleteOfADirectoryNameDeletesNoObject() {
    store.putText("d/x", "x");

    assertThatCode(() -> store.delete("d")).doesNotThrowAnyException();
    assertThat(store.readText("d/x")).isEqualTo("x");
  }

  @Test
  void deletePrefixRemovesEverythingUnderItAndLeavesSiblings() {
    for (String k : List.of("p/a", "p/b/c", "p/b/d/e", "pq/x", "q/p/a", "z")) {
      store.putText(k, k);
    }

    store.deletePrefix("p");

    assertThat(store.list("p")).isEmpty();
    assertThat(store.exists("p")).isFalse();
    assertThat(store.list("")).containsExactly("pq/x", "q/p/a", "z");
  }

  @Test
  void deletePrefixWithTrailingSlashOfAnAbsentPrefixAndOfTheRoot() {
    store.putText("p/a", "a");
    store.putText("r/a", "a");

    store.deletePrefix("p/");
    assertThat(store.list("")).containsExactly("r/a");

    assertThatCode(() -> store.deletePrefix("absent")).doesNotThrowAnyException();

    store.deletePrefix("");
    assertThat(store.list("")).isEmpty();
  }

  @Test
  void deletePrefixLeavesAnObjectNamedLikeThePrefix() {
    store.putText("obj", "stays");
    store.putText("objx/y", "stays too");

    store.deletePrefix("obj");

    assertThat(store.readText("obj")).isEqualTo("stays");
    assertThat(store.list("")).containsExactly("obj", "objx/y");
  }

  @Test
  void deletePrefixRemovesManyObjects() throws Exception {
    // Page and batch boundaries are crossed with a small page in S3StorageAdapterPagingTest; this
    // only checks that a prefix holding many objects at several depths empties completely.
    ExecutorService pool = Executors.newFixedThreadPool(4);
    List<String> keys = new ArrayList<>();
    try {
      List<Future<?>> puts = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        String key = String.format("many/%02d/%s", i % 7, i);
        keys.add(key);
        puts.add(pool.submit(() -> store.put(key, new byte[] {1})));
      }
      for (Future<?> f : puts) {
        f.get(120, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(store.list("many")).containsExactlyInAnyOrderElementsOf(keys);

    store.deletePrefix("many");

    assertThat(store.list("many")).isEmpty();
    assertThat(store.exists("many")).isFalse();
  }

  // ---------------------------------------------------------------- exists

  @Test
  void existsForObjectsAndNonEmptyPrefixes() {
    store.putText("e/f/g", "x");

    assertThat(store.exists("e/f/g")).isTrue();
    assertThat(store.exists("e/f")).isTrue();
    assertThat(store.exists("e")).isTrue();
    assertThat(store.exists("e/f/g/h")).isFalse();
    assertThat(store.exists("absent")).isFalse();
  }

  @Test
  void aPathThroughAnObjectNamesNothing() {
    store.putText("o/file", "x");

    assertThat(store.exists("o/file/below")).isFalse();
    assertThat(kindOf(() -> store.read("o/file/below"))).isEqualTo(Kind.NOT_FOUND);
    assertThat(store.readTextIfExists("o/file/below")).isEmpty();
    assertThat(store.list("o/file/below")).isEmpty();
    assertThat(store.list("o/file")).isEmpty();
    assertThatCode(() -> store.delete("o/file/below")).doesNotThrowAnyException();
    assertThatCode(() -> store.deletePrefix("o/file/below")).doesNotThrowAnyException();
    assertThat(store.readText("o/file")).isEqualTo("x");
  }

  @Test
  void existsIsFalseForAPrefixWhoseObjectsWereDeleted() {
    store.putText("gone/a/b", "x");
    store.putText("gone/c", "y");
    store.delete("gone/a/b");
    store.delete("gone/c");

    assertThat(store.exists("gone")).isFalse();
    assertThat(store.exists("gone/a")).isFalse();

    store.putText("gone2/a", "x");
    store.deletePrefix("gone2");
    assertThat(store.exists("gone2")).isFalse();
  }

  @Test
  void existsIsNotAStringPrefixMatch() {
    store.putText("ab/x", "x");

    assertThat(store.exists("a")).isFalse();
  }

  // ---------------------------------------------------------------- races

  @Test
  void anObjectDeletedBetweenListAndReadIsAbsent() {
    store.putText("__recovery/op-1.json", "{}");
    List<String> listed = store.list("__recovery");
    assertThat(listed).containsExactly("__recovery/op-1.json");

    store.delete("__recovery/op-1.json");

    assertThat(store.readTextIfExists(listed.get(0))).isEqualTo(Optional.empty());
  }

  // ---------------------------------------------------------------- temp residue

  @Test
  void tempResidueIsInvisibleToListAndExistsAndReclaimedByDeletePrefix() {
    RawBackend.write(root, "dir/obj#12345", "half-written".getBytes(UTF_8));

    assertThat(store.list("dir")).isEmpty();
    assertThat(store.list("")).isEmpty();
    assertThat(store.exists("dir")).isFalse();

    store.putText("dir/real", "real");
    assertThat(store.list("dir")).containsExactly("dir/real");
    assertThat(store.exists("dir")).isTrue();

    store.deletePrefix("dir");

    assertThat(RawBackend.exists(root, "dir/obj#12345")).isFalse();
    assertThat(RawBackend.exists(root, "dir/real")).isFalse();
  }

  @Test
  void tempResidueIsNotRemovedByDeletingItsNeighbour() {
    RawBackend.write(root, "dir/obj#12345", "x".getBytes(UTF_8));
    store.putText("dir/obj", "real");

    store.delete("dir/obj");

    assertThat(store.exists("dir")).isFalse();
    assertThat(RawBackend.exists(root, "dir/obj#12345")).isTrue();
  }

  // ---------------------------------------------------------------- refused keys

  /** Keys no operation may address; the empty string is refused as a key but is the root prefix. */
  @ParameterizedTest
  @ValueSource(strings = {"x#123", "a/b#9/c", "../x", "a/../x", "./x", "/abs", "a//b", "a\\b", "a/"})
  void refusedKeysArePermanentForEveryOperation(String bad) {
    assertRefused(bad, k -> store.put(k, new byte[] {1}));
    assertRefused(bad, k -> store.putText(k, "x"));
    assertRefused(bad, k -> store.putIfAbsent(k, new byte[] {1}));
    assertRefused(bad, store::read);
    assertRefused(bad, store::readText);
    assertRefused(bad, store::readTextIfExists);
    assertRefused(bad, store::delete);
    assertRefused(bad, store::exists);
    assertRefused(bad, store::readVersioned);
    assertRefused(bad, k -> store.putIfMatch(k, new byte[] {1}, "t"));
    assertRefused(bad, k -> store.deleteIfMatch(k, "t"));
    if (!bad.equals("a/")) {
      // A trailing slash is fine on a prefix.
      assertRefused(bad, store::list);
      assertRefused(bad, store::deletePrefix);
    }
  }

  @Test
  void emptyAndNullKeysArePermanent() {
    for (String bad : new String[] {"", null}) {
      assertRefused(bad, k -> store.put(k, new byte[] {1}));
      assertRefused(bad, k -> store.putIfAbsent(k, new byte[] {1}));
      assertRefused(bad, store::read);
      assertRefused(bad, store::readTextIfExists);
      assertRefused(bad, store::delete);
      assertRefused(bad, store::exists);
    }
    assertRefused(null, store::list);
    assertRefused(null, store::deletePrefix);
  }

  private static void assertRefused(String key, Consumer<String> op) {
    StorageException e = catchThrowableOfType(StorageException.class, () -> op.accept(key));
    assertThat(e).as("operation on refused key %s", key).isNotNull();
    assertThat(e.kind()).as("kind for refused key %s", key).isEqualTo(Kind.PERMANENT);
  }

  /** The kind of the StorageException {@code call} throws; fails when it returns normally. */
  protected static Kind kindOf(ThrowingCallable call) {
    StorageException e = catchThrowableOfType(StorageException.class, call);
    assertThat(e).as("expected a StorageException").isNotNull();
    return e.kind();
  }
}
