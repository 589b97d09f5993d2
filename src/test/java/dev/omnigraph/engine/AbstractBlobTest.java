package dev.omnigraph.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.omnigraph.api.BlobRead;
import dev.omnigraph.api.InvalidRequest;
import dev.omnigraph.api.NotFound;
import dev.omnigraph.api.OpenMode;
import dev.omnigraph.query.QueryException;
import dev.omnigraph.api.SnapshotOutput;
import dev.omnigraph.schema.BlobValue;
import dev.omnigraph.schema.ExternalBlobRefused;
import dev.omnigraph.storage.StorageAdapter;
import dev.omnigraph.storage.StorageAdapters;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.api.LoadMode;
import dev.omnigraph.api.WriteResult;
import java.io.ByteArrayOutputStream;
import java.io.StringReader;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Blob properties end to end on one backend: {@code base64:} input through load and
 * mutate, lazy ranged reads of a cell at a branch head and at an older snapshot, the 32 MiB refusal
 * before the sidecar, and the refusals of external URIs and of Blob values in queries (T24).
 * Subclasses only name a fresh root.
 */
abstract class AbstractBlobTest {

  protected abstract StorageConfig newRoot() throws Exception;

  static final String SCHEMA = """
      node Doc {
        slug: String @key
        body: Blob?
        note: String?
      }
      node Tag {
        name: String @key
      }
      """;

  static final String GQ = """
      query add_doc($slug: String, $body: Blob?) {
        insert Doc { slug: $slug, body: $body }
      }
      query add_two($x: Blob, $y: Blob) {
        insert Doc { slug: "x", body: $x }
        insert Doc { slug: "y", body: $y }
      }
      query set_note($slug: String, $note: String?) {
        update Doc set { note: $note } where slug = $slug
      }
      query note_two($note: String) {
        update Doc set { note: $note } where slug = "x"
        update Doc set { note: $note } where slug = "y"
      }
      query bodies() {
        match { $d: Doc }
        return { $d.body }
      }
      query by_body() {
        match { $d: Doc }
        return { $d.slug }
        order { $d.body }
      }
      query max_body() {
        match { $d: Doc }
        return { max($d.body) as m }
      }
      query slugs() {
        match { $d: Doc }
        return { $d.slug }
      }
      """;

  static final ObjectMapper JSON = new ObjectMapper();

  StorageConfig config;
  Omnigraph graph;

  @BeforeEach
  void init() throws Exception {
    config = newRoot();
    Omnigraph.init(config, SCHEMA, Optional.of("blob-test")).close();
    graph = Omnigraph.open(config, OpenMode.READ_WRITE);
  }

  @AfterEach
  void close() {
    graph.close();
  }

  static byte[] pattern(int size, int seed) {
    byte[] b = new byte[size];
    for (int i = 0; i < size; i++) {
      b[i] = (byte) (i * 31 + seed);
    }
    return b;
  }

  static String base64(byte[] bytes) {
    return BlobValue.MANAGED_PREFIX + Base64.getEncoder().encodeToString(bytes);
  }

  WriteResult load(LoadMode mode, String... lines) {
    return graph.load("main", new StringReader(String.join("\n", lines)), mode, Optional.of("blob-test"));
  }

  static String doc(String slug, String body) {
    return "{\"type\":\"Doc\",\"data\":{\"slug\":\"" + slug + "\"" + (body == null ? "" : ",\"body\":\"" + body + "\"")
        + "}}";
  }

  WriteResult addDoc(String slug, String body) {
    ObjectNode params = JSON.createObjectNode().put("slug", slug).put("body", body);
    return graph.mutate("main", GQ, "add_doc", params, Optional.of("blob-test"), Optional.empty());
  }

  BlobRead read(String id, Optional<String> snapshot) {
    return graph.readBlob("node", "Doc", id, "body", snapshot.isPresent() ? Optional.empty() : Optional.of(dev.omnigraph.api.BranchName.MAIN),
        snapshot.map(dev.omnigraph.api.CommitId::existing), Optional.empty());
  }

  static byte[] bytes(BlobRead cell, long offset, long length) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    cell.copyTo(offset, length, out);
    return out.toByteArray();
  }

  List<String> sidecars() {
    try (StorageAdapter s = StorageAdapters.open(config)) {
      GraphRoots.shared().awaitSidecarRetirements(s.rootUri());
      return s.list("__recovery");
    }
  }

  List<String> dataFiles() {
    try (StorageAdapter s = StorageAdapters.open(config)) {
      String location = graph.snapshot("main").datasets().stream().filter(d -> d.typeName().equals("Doc"))
          .findFirst().orElseThrow().datasetPath();
      return s.list(location + "/data").stream().sorted().toList();
    }
  }

  @Test
  void managedBytesFromLoadAndMutateReadBackLazilyInRanges() {
    byte[] small = "hello, blob".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    // Over one 4 MiB read: the copy takes two ranged reads.
    byte[] large = pattern(5 * 1024 * 1024 + 3, 7);
    load(LoadMode.APPEND, doc("small", base64(small)), doc("none", null));
    WriteResult added = addDoc("large", base64(large));

    try (BlobRead cell = read("small", Optional.empty())) {
      assertThat(cell.size()).isEqualTo(small.length);
      assertThat(bytes(cell, 0, small.length)).isEqualTo(small);
      assertThat(bytes(cell, 7, 4)).isEqualTo("blob".getBytes(java.nio.charset.StandardCharsets.UTF_8));
      assertThat(cell.snapshotId()).isEqualTo(added.commitId().orElseThrow());
    }
    try (BlobRead cell = read("large", Optional.empty())) {
      assertThat(cell.size()).isEqualTo(large.length);
      assertThat(bytes(cell, 0, large.length)).isEqualTo(large);
      assertThat(bytes(cell, 4 * 1024 * 1024 - 2, 9))
          .isEqualTo(Arrays.copyOfRange(large, 4 * 1024 * 1024 - 2, 4 * 1024 * 1024 + 7));
      assertThat(cell.etag()).matches("\"\\d+\\.\\d+\\.\\d+\\.\\d+\"");
      assertThatThrownBy(() -> cell.copyTo(large.length - 1, 2, new ByteArrayOutputStream()))
          .isInstanceOf(IndexOutOfBoundsException.class);
    }
    assertThatThrownBy(() -> read("none", Optional.empty())).isInstanceOf(NotFound.class).hasMessageContaining("null");
    assertThatThrownBy(() -> read("nobody", Optional.empty())).isInstanceOf(NotFound.class);
    assertThatThrownBy(() -> graph.readBlob("node", "Doc", "small", "note", Optional.empty(), Optional.empty(),
        Optional.empty())).isInstanceOf(InvalidRequest.class).hasMessageContaining("not a Blob");
  }

  /**
   * An overwrite load carries a Blob value longer than the 4 MiB NDJSON line bound: the reader
   * decodes it into a file as it streams (docs/schema-language.md, "Blob"). Keyed loads keep the
   * line bound, and a streamed value that is not base64 is refused naming its line, with nothing
   * written.
   */
  @Test
  void anOverwriteLoadCarriesABlobOverTheLineBoundAndKeyedLoadsDoNot() throws Exception {
    byte[] large = pattern(9 * 1024 * 1024 + 1, 3);
    String line = doc("big", base64(large));
    WriteResult loaded = load(LoadMode.OVERWRITE, doc("small", base64(new byte[] {1, 2})), line, doc("after", null));
    try (BlobRead cell = read("big", Optional.empty())) {
      assertThat(cell.size()).isEqualTo(large.length);
      assertThat(sha256(bytes(cell, 0, cell.size()))).isEqualTo(sha256(large));
      assertThat(cell.snapshotId()).isEqualTo(loaded.commitId().orElseThrow());
    }
    try (BlobRead cell = read("small", Optional.empty())) {
      assertThat(bytes(cell, 0, cell.size())).containsExactly(1, 2);
    }
    assertThat(graph.query(Optional.of(dev.omnigraph.api.BranchName.existing("main")), Optional.empty(), GQ, "slugs", JSON.createObjectNode()).rows())
        .hasSize(3);

    var before = graph.snapshot("main");
    for (LoadMode keyed : List.of(LoadMode.APPEND, LoadMode.MERGE)) {
      assertThatThrownBy(() -> load(keyed, doc("k", base64(new byte[] {9})), line))
          .isInstanceOfSatisfying(dev.omnigraph.api.ResourceLimitExceeded.class, e -> {
            assertThat(e.resource()).isEqualTo(dev.omnigraph.write.WriteLimits.NDJSON_LINE_RESOURCE);
            assertThat(e.getMessage()).contains("refused at line 2");
          });
    }
    String bad = base64(large).substring(0, 5 * 1024 * 1024) + "*" + base64(large).substring(5 * 1024 * 1024);
    assertThatThrownBy(() -> load(LoadMode.OVERWRITE, doc("ok", null), doc("bad", bad)))
        .isInstanceOf(dev.omnigraph.write.LoadInputError.class)
        .hasMessage("line 2: a Blob value 'base64:…' must carry standard base64: illegal base64 character '*'");
    // The rest of the line keeps the bound: a long note after a streamed value is refused.
    String longNote = line.replace("}}", ",\"note\":\"" + "n".repeat(5 * 1024 * 1024) + "\"}}");
    assertThatThrownBy(() -> load(LoadMode.OVERWRITE, longNote))
        .isInstanceOfSatisfying(dev.omnigraph.api.ResourceLimitExceeded.class,
            e -> assertThat(e.resource()).isEqualTo(dev.omnigraph.write.WriteLimits.NDJSON_LINE_RESOURCE));
    assertThat(graph.snapshot("main")).isEqualTo(before);
  }

  @Test
  void aSnapshotReadsTheOlderValueAfterAMerge() {
    byte[] before = pattern(1000, 1);
    byte[] after = pattern(2000, 2);
    String first = load(LoadMode.APPEND, doc("a", base64(before))).commitId().orElseThrow();
    String etagBefore;
    try (BlobRead cell = read("a", Optional.empty())) {
      etagBefore = cell.etag();
    }
    String second = load(LoadMode.MERGE, doc("a", base64(after))).commitId().orElseThrow();

    try (BlobRead old = read("a", Optional.of(first)); BlobRead now = read("a", Optional.empty())) {
      assertThat(bytes(old, 0, old.size())).isEqualTo(before);
      assertThat(old.etag()).isEqualTo(etagBefore);
      assertThat(old.snapshotId()).isEqualTo(first);
      assertThat(bytes(now, 0, now.size())).isEqualTo(after);
      assertThat(now.snapshotId()).isEqualTo(second);
      assertThat(now.etag()).isNotEqualTo(etagBefore);
    }
  }

  @Test
  void schemaApplyAddsABlobPropertyAndRewritesATableWithItsBytes() throws Exception {
    load(LoadMode.APPEND, "{\"type\":\"Tag\",\"data\":{\"name\":\"t1\"}}", doc("a", base64(new byte[] {9})));
    String withIcon = SCHEMA.replace("  name: String @key\n", "  name: String @key\n  icon: Blob?\n");
    graph.schemaApply(withIcon, false, Optional.of("blob-test"));
    graph.load("main", new StringReader("{\"type\":\"Tag\",\"data\":{\"name\":\"t2\",\"icon\":\""
        + base64(new byte[] {4, 2}) + "\"}}"), LoadMode.APPEND, Optional.of("blob-test"));
    try (BlobRead icon = graph.readBlob("node", "Tag", "t2", "icon", Optional.empty(), Optional.empty(),
        Optional.empty())) {
      assertThat(bytes(icon, 0, icon.size())).containsExactly(4, 2);
    }
    assertThatThrownBy(() -> graph.readBlob("node", "Tag", "t1", "icon", Optional.empty(), Optional.empty(),
        Optional.empty())).isInstanceOf(NotFound.class);

    // A table holding Blob bytes is rewritten with them: each committed cell is read at the pin
    // and written again, byte for byte, and no sidecar is left.
    byte[] big = pattern(700_000, 3);
    load(LoadMode.APPEND, doc("b", base64(big)));
    String withExtra = withIcon.replace("  note: String?\n", "  note: String?\n  extra: String?\n");
    graph.schemaApply(withExtra, false, Optional.of("blob-test"));
    assertThat(sha256(content("main", "a"))).isEqualTo(sha256(new byte[] {9}));
    assertThat(sha256(content("main", "b"))).isEqualTo(sha256(big));
    try (BlobRead icon = graph.readBlob("node", "Tag", "t2", "icon", Optional.empty(), Optional.empty(),
        Optional.empty())) {
      assertThat(bytes(icon, 0, icon.size())).containsExactly(4, 2);
    }
    assertThat(sidecars()).isEmpty();
  }

  WriteResult loadOn(String branch, LoadMode mode, String... lines) {
    return graph.load(branch, new StringReader(String.join("\n", lines)), mode, Optional.of("blob-test"));
  }

  byte[] contentOrNull(String branch, String type, String id, String property) {
    try (BlobRead cell = graph.readBlob("node", type, id, property, Optional.of(dev.omnigraph.api.BranchName.existing(branch)), Optional.empty(),
        Optional.empty())) {
      return bytes(cell, 0, cell.size());
    } catch (NotFound absent) {
      return null;
    }
  }

  /**
   * A merge copies Blob rows with their bytes: a fast forward into main (the branch's rows are
   * copied onto main's ref), a real three-way merge, and a merge into a branch that first touches
   * the table after the arm. Each cell rewritten on the source has the same size as before, so only
   * its bytes tell the versions apart.
   */
  @Test
  void aMergeCarriesBlobRowsByteExact() throws Exception {
    byte[] a1 = pattern(1000, 1);
    byte[] b1 = pattern(600_000, 2);
    load(LoadMode.APPEND, doc("a", base64(a1)), doc("b", base64(b1)), doc("n", null));

    // Fast forward: only the branch wrote.
    graph.branchCreate("ff", "main", Optional.of("blob-test"));
    byte[] a2 = pattern(1000, 11);
    byte[] c1 = pattern(2 * 1024 * 1024 + 3, 12);
    put("ff", "a", a2, Optional.empty(), Optional.empty());
    loadOn("ff", LoadMode.APPEND, doc("c", base64(c1)));
    assertThat(graph.branchMerge("ff", "main", false, Optional.of("blob-test")).outcome())
        .isEqualTo(dev.omnigraph.api.MergeOutcome.FAST_FORWARD);
    assertThat(sha256(content("main", "a"))).isEqualTo(sha256(a2));
    assertThat(sha256(content("main", "b"))).isEqualTo(sha256(b1));
    assertThat(sha256(content("main", "c"))).isEqualTo(sha256(c1));
    assertThat(contentOrNull("main", "Doc", "n", "body")).isNull();

    // Three-way: both sides changed the table, different rows.
    graph.branchCreate("tw", "main", Optional.of("blob-test"));
    graph.mutate("main", GQ, "set_note", JSON.createObjectNode().put("slug", "b").put("note", "main"),
        Optional.of("blob-test"), Optional.empty());
    byte[] a3 = pattern(1000, 21);
    put("tw", "a", a3, Optional.empty(), Optional.empty());
    byte[] d1 = pattern(3000, 22);
    loadOn("tw", LoadMode.APPEND, doc("d", base64(d1)));
    assertThat(graph.branchMerge("tw", "main", false, Optional.of("blob-test")).outcome())
        .isEqualTo(dev.omnigraph.api.MergeOutcome.MERGED);
    assertThat(sha256(content("main", "a"))).isEqualTo(sha256(a3));
    assertThat(sha256(content("main", "b"))).isEqualTo(sha256(b1));
    assertThat(sha256(content("main", "c"))).isEqualTo(sha256(c1));
    assertThat(sha256(content("main", "d"))).isEqualTo(sha256(d1));

    // Into a branch that has no ref on the table yet: its ref is forked after the arm, then the
    // chunk copies the rows (this answered RecoveryRequired while chunks refused Blob rows).
    graph.branchCreate("into", "main", Optional.of("blob-test"));
    graph.branchCreate("from", "main", Optional.of("blob-test"));
    byte[] a4 = pattern(1000, 31);
    put("from", "a", a4, Optional.empty(), Optional.empty());
    graph.branchMerge("from", "into", false, Optional.of("blob-test"));
    assertThat(sha256(content("into", "a"))).isEqualTo(sha256(a4));
    assertThat(sha256(content("main", "a"))).isEqualTo(sha256(a3));
    assertThat(sidecars()).isEmpty();
  }

  @Test
  void anExportLoadsBackIntoAFreshGraphWithEqualBytes() throws Exception {
    byte[] one = pattern(700_000, 5);
    byte[] two = pattern(3, 6);
    load(LoadMode.APPEND, doc("one", base64(one)), doc("two", base64(two)), doc("none", null));
    java.io.ByteArrayOutputStream exported = new java.io.ByteArrayOutputStream();
    graph.export(Optional.empty(), List.of()).writeTo(exported);

    StorageConfig copyRoot = newRoot();
    Omnigraph.init(copyRoot, SCHEMA, Optional.of("blob-test")).close();
    try (Omnigraph copy = Omnigraph.open(copyRoot, OpenMode.READ_WRITE)) {
      // An overwrite: the streamed path (write/StreamedOverwrite) spills Blob cells like any column.
      copy.load("main", new StringReader(exported.toString(java.nio.charset.StandardCharsets.UTF_8)),
          LoadMode.OVERWRITE, Optional.of("blob-test"));
      for (var expected : java.util.Map.of("one", one, "two", two).entrySet()) {
        try (BlobRead cell = copy.readBlob("node", "Doc", expected.getKey(), "body", Optional.empty(), Optional.empty(),
            Optional.empty())) {
          assertThat(sha256(bytes(cell, 0, cell.size()))).isEqualTo(sha256(expected.getValue()));
        }
      }
      assertThatThrownBy(() -> copy.readBlob("node", "Doc", "none", "body", Optional.empty(), Optional.empty(),
          Optional.empty())).isInstanceOf(NotFound.class);
    }
  }

  static String sha256(byte[] bytes) throws Exception {
    return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(bytes));
  }

  @Test
  void externalUrisAreRefusedUnlessAllowedAndBlobQueriesAreRefused() {
    addDoc("a", base64(new byte[] {1, 2, 3}));
    SnapshotOutput before = graph.snapshot("main");
    // No blob.allow: every external URI is refused, typed, naming the URI and the cell or line.
    assertThatThrownBy(() -> load(LoadMode.APPEND, doc("b", "s3://bucket/key")))
        .isInstanceOfSatisfying(ExternalBlobRefused.class, e -> {
          assertThat(e.uri()).isEqualTo("s3://bucket/key");
          assertThat(e.where()).isEqualTo("Doc 'b'.body");
        });
    assertThatThrownBy(() -> load(LoadMode.OVERWRITE, doc("b", "s3://bucket/key")))
        .isInstanceOfSatisfying(ExternalBlobRefused.class, e -> assertThat(e.where()).isEqualTo("line 1 (body)"));
    assertThatThrownBy(() -> addDoc("c", "https://example.com/x")).isInstanceOf(ExternalBlobRefused.class);
    for (String q : List.of("bodies", "by_body", "max_body")) {
      assertThatThrownBy(() -> graph.query(Optional.empty(), Optional.empty(), GQ, q, JSON.createObjectNode()))
          .as(q).isInstanceOf(QueryException.class).hasMessageContaining("Blob");
    }
    assertThat(graph.snapshot("main")).isEqualTo(before);
    assertThat(graph.query(Optional.empty(), Optional.empty(), GQ, "slugs", JSON.createObjectNode()).rows())
        .hasSize(1);
  }

  // Blob cell writes (PUT|DELETE /graphs/{id}/blob through the engine; docs/write-path.md, "Blob cell writes").

  dev.omnigraph.api.BlobWriteOutput put(String branch, String id, byte[] bytes, Optional<String> ifMatch,
      Optional<String> ifCommit) {
    return graph.writeBlob(branch, "node", "Doc", id, "body", Optional.of(new java.io.ByteArrayInputStream(bytes)),
        ifMatch, ifCommit.map(dev.omnigraph.api.CommitId::of), Optional.of("blob-test"));
  }

  byte[] content(String branch, String id) {
    try (BlobRead cell = graph.readBlob("node", "Doc", id, "body", Optional.of(dev.omnigraph.api.BranchName.existing(branch)), Optional.empty(),
        Optional.empty())) {
      return bytes(cell, 0, cell.size());
    }
  }

  String etag(String id) {
    try (BlobRead cell = read(id, Optional.empty())) {
      return cell.etag();
    }
  }

  int commitCount(String branch) {
    return graph.commits(branch, dev.omnigraph.api.CommitPage.first(dev.omnigraph.api.CommitPage.MAX_LIMIT))
        .commits().size();
  }

  @Test
  void aCellWriteIsOneCommitWithItsPreconditionsAndTypedRefusals() throws Exception {
    byte[] v1 = pattern(1000, 1);
    byte[] v2 = pattern(5 * 1024 * 1024 + 3, 2); // over one 4 MiB read
    String first = addDoc("a", base64(v1)).commitId().orElseThrow();
    int commits = commitCount("main");
    String tag1 = etag("a");

    dev.omnigraph.api.BlobWriteOutput out = put("main", "a", v2, Optional.of(tag1), Optional.of(first));
    assertThat(out.graphCommitId()).isEqualTo(graph.commits("main", dev.omnigraph.api.CommitPage.first(1)).commits()
        .get(0).graphCommitId());
    assertThat(out.size()).isEqualTo(v2.length);
    assertThat(commitCount("main")).isEqualTo(commits + 1);
    assertThat(sha256(content("main", "a"))).isEqualTo(sha256(v2));
    assertThat(out.etag()).isEqualTo(etag("a")).isNotEqualTo(tag1);
    assertThat(sidecars()).isEmpty();
    try (BlobRead old = read("a", Optional.of(first))) {
      assertThat(bytes(old, 0, old.size())).isEqualTo(v1);
    }
    assertThat(graph.recoveryAudit()).isEmpty();

    // Preconditions and refusals: typed, and nothing moves.
    SnapshotOutput before = graph.snapshot("main");
    List<String> files = dataFiles();
    assertThatThrownBy(() -> put("main", "a", v1, Optional.of(tag1), Optional.empty()))
        .isInstanceOf(dev.omnigraph.api.BlobTagMismatch.class).hasMessageContaining(out.etag());
    assertThatThrownBy(() -> put("main", "a", v1, Optional.empty(), Optional.of(first)))
        .isExactlyInstanceOf(dev.omnigraph.api.PreconditionFailed.class);
    assertThatThrownBy(() -> put("main", "nobody", v1, Optional.empty(), Optional.empty()))
        .isInstanceOf(NotFound.class);
    assertThatThrownBy(() -> graph.writeBlob("main", "node", "Doc", "a", "note", Optional.of(
        new java.io.ByteArrayInputStream(v1)), Optional.empty(), Optional.empty(), Optional.empty()))
        .isInstanceOf(InvalidRequest.class).hasMessageContaining("not a Blob");
    // One byte over 32 MiB, undeclared: cut off at the first byte past the limit, before any staging.
    java.io.InputStream over = new java.io.InputStream() {
      long left = BlobValue.MAX_OPERATION_BYTES + 1;

      @Override
      public int read() {
        return left-- > 0 ? 7 : -1;
      }

      @Override
      public int read(byte[] b, int off, int len) {
        if (left <= 0) {
          return -1;
        }
        int n = (int) Math.min(len, left);
        left -= n;
        return n;
      }
    };
    assertThatThrownBy(() -> graph.writeBlob("main", "node", "Doc", "a", "body", Optional.of(over), Optional.empty(),
        Optional.empty(), Optional.empty())).isInstanceOf(dev.omnigraph.api.ResourceLimitExceeded.class)
        .satisfies(e -> assertThat(((dev.omnigraph.api.ResourceLimitExceeded) e).resource())
            .isEqualTo(BlobValue.PAYLOAD_RESOURCE));
    assertThat(graph.snapshot("main")).isEqualTo(before);
    assertThat(dataFiles()).isEqualTo(files);
    assertThat(sidecars()).isEmpty();

    // A clear: the cell is null (a read is NotFound), the row stays; If-Match * needs a non-null cell.
    dev.omnigraph.api.BlobWriteOutput cleared = graph.writeBlob("main", "node", "Doc", "a", "body", Optional.empty(),
        Optional.of("*"), Optional.empty(), Optional.of("blob-test"));
    assertThat(cleared.etag()).isNull();
    assertThat(commitCount("main")).isEqualTo(commits + 2);
    assertThatThrownBy(() -> read("a", Optional.empty())).isInstanceOf(NotFound.class).hasMessageContaining("null");
    assertThatThrownBy(() -> put("main", "a", v1, Optional.of("*"), Optional.empty()))
        .isInstanceOf(dev.omnigraph.api.BlobTagMismatch.class);
    assertThat(graph.query(Optional.empty(), Optional.empty(), GQ, "slugs", JSON.createObjectNode()).rows())
        .hasSize(1);
  }

  @Test
  void aRequiredBlobCannotBeClearedAndABranchWriteForksOnlyThatBranch() throws Exception {
    graph.schemaApply(SCHEMA + "node Pic {\n  name: String @key\n  img: Blob\n  thumb: Blob?\n}\n", false,
        Optional.of("blob-test"));
    graph.load("main", new StringReader("{\"type\":\"Pic\",\"data\":{\"name\":\"p\",\"img\":\""
        + base64(new byte[] {1}) + "\"}}"), LoadMode.APPEND, Optional.of("blob-test"));
    assertThatThrownBy(() -> graph.writeBlob("main", "node", "Pic", "p", "img", Optional.empty(), Optional.empty(),
        Optional.empty(), Optional.empty())).isInstanceOf(InvalidRequest.class).hasMessageContaining("required Blob");

    // Another non-null Blob cell of the row is carried over with its bytes, on a branch whose
    // first touch stages after the arm: the cell is read and charged in prepare.
    graph.branchCreate("pics", "main", Optional.of("blob-test"));
    byte[] img = pattern(300_000, 4);
    graph.writeBlob("main", "node", "Pic", "p", "img", Optional.of(new java.io.ByteArrayInputStream(img)),
        Optional.empty(), Optional.empty(), Optional.empty());
    graph.branchCreate("pics2", "main", Optional.of("blob-test"));
    byte[] thumb = pattern(2000, 5);
    graph.writeBlob("pics2", "node", "Pic", "p", "thumb", Optional.of(new java.io.ByteArrayInputStream(thumb)),
        Optional.empty(), Optional.empty(), Optional.empty());
    assertThat(sha256(contentOrNull("pics2", "Pic", "p", "img"))).isEqualTo(sha256(img));
    assertThat(sha256(contentOrNull("pics2", "Pic", "p", "thumb"))).isEqualTo(sha256(thumb));
    assertThat(contentOrNull("main", "Pic", "p", "thumb")).isNull();
    assertThat(contentOrNull("pics", "Pic", "p", "img")).containsExactly(1);
    assertThat(sidecars()).isEmpty();

    addDoc("b", base64(new byte[] {1, 1}));
    graph.branchCreate("side", "main", Optional.of("blob-test"));
    put("side", "b", new byte[] {2, 2, 2}, Optional.empty(), Optional.empty()); // first touch of Doc on side
    assertThat(content("side", "b")).containsExactly(2, 2, 2);
    assertThat(content("main", "b")).containsExactly(1, 1);
    assertThat(sidecars()).isEmpty();
  }

  /**
   * A branch that has its own copy of a table still shares the fragments it forked with: their
   * Blob payloads live in the parent's data folder, and a read or a carrying write through the
   * branch must find them there (one and two branch levels down).
   */
  @Test
  void aCellABranchStillSharesWithMainReadsThroughTheBranch() throws Exception {
    byte[] a = pattern(200_000, 1);
    addDoc("a", base64(a));
    addDoc("b", base64(new byte[] {1}));
    graph.branchCreate("side", "main", Optional.of("blob-test"));
    put("side", "b", new byte[] {2}, Optional.empty(), Optional.empty()); // side forks its own Doc table
    assertThat(sha256(content("side", "a"))).isEqualTo(sha256(a));
    try (BlobRead cell = graph.readBlob("node", "Doc", "a", "body", Optional.of(dev.omnigraph.api.BranchName.existing("side")), Optional.empty(),
        Optional.empty())) {
      assertThat(bytes(cell, 100_000, 10)).isEqualTo(Arrays.copyOfRange(a, 100_000, 100_010));
    }

    graph.branchCreate("side2", "side", Optional.of("blob-test"));
    put("side2", "b", new byte[] {3}, Optional.empty(), Optional.empty());
    assertThat(sha256(content("side2", "a"))).isEqualTo(sha256(a));
    // Export reads the shared cell through the branch too, as load reads it back.
    java.io.ByteArrayOutputStream exported = new java.io.ByteArrayOutputStream();
    graph.export(Optional.of(dev.omnigraph.api.BranchName.existing("side2")), List.of()).writeTo(exported);
    assertThat(exported.toString(java.nio.charset.StandardCharsets.UTF_8)).contains("\"body\":\"" + base64(a) + "\"");

    // Writers that carry the shared cell read it through the branch too: an update of another
    // property rewrites the row with its bytes, and a merge carries it back.
    graph.mutate("side2", GQ, "set_note", JSON.createObjectNode().put("slug", "a").put("note", "n"),
        Optional.of("blob-test"), Optional.empty());
    assertThat(sha256(content("side2", "a"))).isEqualTo(sha256(a));
    addDoc("c", base64(new byte[] {4})); // main moves on: the merge is three-way and carries rows
    graph.branchMerge("side2", "main", false, Optional.of("blob-test"));
    assertThat(sha256(content("main", "a"))).isEqualTo(sha256(a));
    assertThat(content("main", "b")).containsExactly(3);
    assertThat(sidecars()).isEmpty();
  }

  /**
   * A same-size PUT can land at the very description (position, size) the old cell had, in a new
   * file: the commit's change list compares the bytes, not the descriptions, and lists the update.
   * A write that leaves the cell alone lists nothing for it.
   */
  @Test
  void aCommitsChangesListASameSizeBlobRewriteAndNotAnUntouchedCell() throws Exception {
    addDoc("a", base64(new byte[] {1, 2, 3}));
    addDoc("b", base64(new byte[] {7, 7, 7}));
    dev.omnigraph.api.BlobWriteOutput rewrite = put("main", "a", new byte[] {4, 5, 6}, Optional.empty(),
        Optional.empty());
    List<dev.omnigraph.api.CommitChangesOutput.EntityChange> changes = graph.commitChanges(rewrite.graphCommitId(),
        dev.omnigraph.api.ChangesPage.FIRST).changes();
    assertThat(changes).extracting(c -> c.id() + ":" + c.op()).containsExactly("a:" + dev.omnigraph.api.ChangeOp.UPDATE);
    // An image shows a managed cell's size, never its bytes.
    assertThat(changes.get(0).after().properties().get("body").toString()).isEqualTo("{\"size\":3}");

    WriteResult note = graph.mutate("main", GQ, "set_note", JSON.createObjectNode().put("slug", "b")
        .put("note", "n"), Optional.of("blob-test"), Optional.empty());
    assertThat(graph.commitChanges(note.commitId().orElseThrow(), dev.omnigraph.api.ChangesPage.FIRST).changes())
        .extracting(c -> c.id() + ":" + c.op()).containsExactly("b:" + dev.omnigraph.api.ChangeOp.UPDATE);

    dev.omnigraph.api.BlobWriteOutput same = put("main", "a", new byte[] {4, 5, 6}, Optional.empty(),
        Optional.empty());
    assertThat(graph.commitChanges(same.graphCommitId(), dev.omnigraph.api.ChangesPage.FIRST).changes()).isEmpty();
  }

  /**
   * Two branches that each rewrite one cell at the same size fork their own copies of the table, and
   * each puts the new row at the same row address (the first new fragment id after the fork, offset
   * 0) in a different file. The merge must compare their bytes, not their addresses: different bytes
   * on both sides are a conflict, equal bytes are not.
   */
  @Test
  void sameSizeRewritesOnTwoBranchesAreComparedByBytesNotByAddress() throws Exception {
    addDoc("a", base64(new byte[] {1, 2, 3}));
    graph.branchCreate("x", "main", Optional.of("blob-test"));
    graph.branchCreate("y", "main", Optional.of("blob-test"));
    graph.branchCreate("z", "main", Optional.of("blob-test"));
    put("x", "a", new byte[] {4, 5, 6}, Optional.empty(), Optional.empty());
    put("y", "a", new byte[] {7, 8, 9}, Optional.empty(), Optional.empty());
    put("z", "a", new byte[] {4, 5, 6}, Optional.empty(), Optional.empty());
    graph.branchMerge("x", "main", false, Optional.of("blob-test"));
    assertThat(content("main", "a")).containsExactly(4, 5, 6);
    assertThatThrownBy(() -> graph.branchMerge("y", "main", false, Optional.of("blob-test")))
        .isInstanceOf(dev.omnigraph.api.MergeConflicts.class);
    assertThat(content("main", "a")).containsExactly(4, 5, 6);
    // The same new bytes on both sides: no conflict, nothing to change.
    graph.branchMerge("z", "main", false, Optional.of("blob-test"));
    assertThat(content("main", "a")).containsExactly(4, 5, 6);
    assertThat(sidecars()).isEmpty();
  }

  @Test
  void aHeadThatMovesBeforeTheEffectIsReadSetChanged() throws Exception {
    addDoc("a", base64(new byte[] {1}));
    String tag = etag("a");
    java.util.concurrent.atomic.AtomicBoolean once = new java.util.concurrent.atomic.AtomicBoolean();
    // Another writer commits between the cell write's plan and its gates.
    try (AutoCloseable fp = dev.omnigraph.util.FailpointControl.enable(dev.omnigraph.util.Failpoint.WRITE_AFTER_PREPARE,
        () -> {
          if (once.compareAndSet(false, true)) {
            addDoc("other", base64(new byte[] {5}));
          }
        })) {
      assertThatThrownBy(() -> put("main", "a", new byte[] {2}, Optional.of(tag), Optional.empty()))
          .isInstanceOf(dev.omnigraph.api.ReadSetChanged.class);
    }
    assertThat(content("main", "a")).containsExactly(1);
    assertThat(sidecars()).isEmpty();
    // The other write gave the table a new version, so the cell a new tag (a tag names a table version).
    String now = etag("a");
    assertThat(now).isNotEqualTo(tag);

    // Two writers of one cell version at once: one lands, the other is a typed conflict.
    java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(2);
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
    try {
      List<java.util.concurrent.Future<dev.omnigraph.api.BlobWriteOutput>> runs = new java.util.ArrayList<>();
      for (byte b : new byte[] {3, 4}) {
        runs.add(pool.submit(() -> {
          start.await();
          return put("main", "a", new byte[] {b}, Optional.of(now), Optional.empty());
        }));
      }
      List<byte[]> landed = new java.util.ArrayList<>();
      int refused = 0;
      for (int i = 0; i < 2; i++) {
        try {
          runs.get(i).get();
          landed.add(new byte[] {(byte) (3 + i)});
        } catch (java.util.concurrent.ExecutionException e) {
          assertThat(e.getCause()).isInstanceOfAny(dev.omnigraph.api.ReadSetChanged.class,
              dev.omnigraph.api.BlobTagMismatch.class);
          refused++;
        }
      }
      assertThat(refused).isEqualTo(1);
      assertThat(content("main", "a")).isEqualTo(landed.get(0));
    } finally {
      pool.shutdownNow();
    }
    assertThat(sidecars()).isEmpty();
  }

  /** The materialising rewrite: an update of another property reads the committed bytes and writes them back. */
  @Test
  void anUpdateOfAnotherPropertyKeepsTheBlobBytes() throws Exception {
    byte[] body = pattern(300_000, 9);
    addDoc("a", base64(body));
    addDoc("empty", null);
    WriteResult updated = graph.mutate("main", GQ, "set_note", JSON.createObjectNode().put("slug", "a")
        .put("note", "n"), Optional.of("blob-test"), Optional.empty());
    graph.mutate("main", GQ, "set_note", JSON.createObjectNode().put("slug", "empty").put("note", "m"),
        Optional.of("blob-test"), Optional.empty());
    try (BlobRead cell = read("a", Optional.empty())) {
      assertThat(cell.size()).isEqualTo(body.length);
      assertThat(sha256(bytes(cell, 0, cell.size()))).isEqualTo(sha256(body));
    }
    try (BlobRead cell = read("a", Optional.of(updated.commitId().orElseThrow()))) {
      assertThat(sha256(bytes(cell, 0, cell.size()))).isEqualTo(sha256(body));
    }
    assertThatThrownBy(() -> read("empty", Optional.empty())).isInstanceOf(NotFound.class);
    assertThat(graph.query(Optional.empty(), Optional.empty(), GQ, "slugs", JSON.createObjectNode()).rows())
        .hasSize(2);
  }

  @Test
  void allowedUrisAreProbedThenMaterialisedByKeyedWritesAndKeptAsReferencesByOverwrite() throws Exception {
    try (ExternalSourceServer source = new ExternalSourceServer()) {
      graph.allowExternalBlobs(dev.omnigraph.api.ExternalBlobPolicy.parse(source.base() + "/ok/"));
      byte[] one = pattern(5000, 3);
      String uri = source.put("/ok/one.bin", one);
      load(LoadMode.APPEND, doc("loaded", uri));
      addDoc("mutated", uri);
      assertThat(source.heads.get()).isEqualTo(2);
      assertThat(source.gets.get()).isEqualTo(2);
      for (String id : List.of("loaded", "mutated")) {
        try (BlobRead cell = read(id, Optional.empty())) {
          assertThat(cell.externalUri()).isEmpty(); // materialised: managed bytes with an entity tag
          assertThat(sha256(bytes(cell, 0, cell.size()))).isEqualTo(sha256(one));
        }
      }
      SnapshotOutput before = graph.snapshot("main");
      // Refused spellings: outside the base, climbing out of it, user info, file://; nothing probed.
      for (String bad : List.of(source.base() + "/other/x", source.base() + "/ok/../secret",
          source.base() + "/ok/%2e%2e/secret", "http://user@127.0.0.1:" + source.base().split(":")[2] + "/ok/one.bin",
          source.base() + "/okay/x", "file:///etc/passwd")) {
        assertThatThrownBy(() -> addDoc("bad", bad)).as(bad).isInstanceOf(ExternalBlobRefused.class);
      }
      // Allowed but missing: 424's typed failure, before anything is staged.
      assertThatThrownBy(() -> addDoc("missing", source.base() + "/ok/missing"))
          .isInstanceOfSatisfying(dev.omnigraph.api.ExternalBlobUnreadable.class, e -> {
            assertThat(e.uri()).isEqualTo(source.base() + "/ok/missing");
            assertThat(e.reason()).contains("404");
          });
      // Sizes over 32 MiB together: refused after the HEADs, before any payload GET.
      int getsBefore = source.gets.get();
      String big1 = source.claim("/ok/big1", 17L * 1024 * 1024);
      String big2 = source.claim("/ok/big2", 17L * 1024 * 1024);
      assertThatThrownBy(() -> graph.mutate("main", GQ, "add_two", JSON.createObjectNode().put("x", big1)
          .put("y", big2), Optional.of("blob-test"), Optional.empty()))
          .isInstanceOfSatisfying(dev.omnigraph.api.ResourceLimitExceeded.class, e -> {
            assertThat(e.resource()).isEqualTo(BlobValue.PAYLOAD_RESOURCE);
            assertThat(e.actual()).isEqualTo(34L * 1024 * 1024);
          });
      assertThat(source.gets.get()).isEqualTo(getsBefore);
      assertThat(graph.snapshot("main")).isEqualTo(before);
      assertThat(sidecars()).isEmpty();

      // Overwrite keeps the reference: no HEAD, no GET; a read redirects; export spells the URI.
      int headsBefore = source.heads.get();
      getsBefore = source.gets.get();
      WriteResult over = load(LoadMode.OVERWRITE, doc("ref", source.base() + "/ok/never-read"),
          doc("own", base64(one)));
      assertThat(source.heads.get()).isEqualTo(headsBefore);
      assertThat(source.gets.get()).isEqualTo(getsBefore);
      try (BlobRead cell = read("ref", Optional.empty())) {
        assertThat(cell.externalUri()).contains(source.base() + "/ok/never-read");
        assertThat(cell.snapshotId()).isEqualTo(over.commitId().orElseThrow());
      }
      // An update of the row carries the reference as it is: no read of the source.
      graph.mutate("main", GQ, "set_note", JSON.createObjectNode().put("slug", "ref").put("note", "n"),
          Optional.of("blob-test"), Optional.empty());
      try (BlobRead cell = read("ref", Optional.empty())) {
        assertThat(cell.externalUri()).contains(source.base() + "/ok/never-read");
      }
      assertThat(source.heads.get() + source.gets.get()).isEqualTo(headsBefore + getsBefore);

      java.io.ByteArrayOutputStream exported = new java.io.ByteArrayOutputStream();
      graph.export(Optional.empty(), List.of()).writeTo(exported);
      assertThat(exported.toString(java.nio.charset.StandardCharsets.UTF_8))
          .contains("\"body\":\"" + source.base() + "/ok/never-read\"");
      StorageConfig copyRoot = newRoot();
      Omnigraph.init(copyRoot, SCHEMA, Optional.of("blob-test")).close();
      try (Omnigraph copy = Omnigraph.open(copyRoot, OpenMode.READ_WRITE)) {
        copy.allowExternalBlobs(dev.omnigraph.api.ExternalBlobPolicy.parse(source.base() + "/ok/"));
        copy.load("main", new StringReader(exported.toString(java.nio.charset.StandardCharsets.UTF_8)),
            LoadMode.OVERWRITE, Optional.of("blob-test"));
        try (BlobRead ref = copy.readBlob("node", "Doc", "ref", "body", Optional.empty(), Optional.empty(),
            Optional.empty()); BlobRead own = copy.readBlob("node", "Doc", "own", "body", Optional.empty(),
            Optional.empty(), Optional.empty())) {
          assertThat(ref.externalUri()).contains(source.base() + "/ok/never-read");
          assertThat(sha256(bytes(own, 0, own.size()))).isEqualTo(sha256(one));
        }
      }
    }
  }

  @Test
  void probesRunAtMostEightInFlight() throws Exception {
    try (ExternalSourceServer source = new ExternalSourceServer()) {
      graph.allowExternalBlobs(dev.omnigraph.api.ExternalBlobPolicy.parse(source.base() + "/ok/"));
      source.headMillis = 150;
      StringBuilder lines = new StringBuilder();
      for (int i = 0; i < 20; i++) {
        lines.append(doc("d" + i, source.put("/ok/" + i, new byte[] {(byte) i}))).append('\n');
      }
      graph.load("main", new StringReader(lines.toString()), LoadMode.MERGE, Optional.of("blob-test"));
      assertThat(source.heads.get()).isEqualTo(20);
      assertThat(source.maxInFlight.get()).isEqualTo(8);
      try (BlobRead cell = read("d13", Optional.empty())) {
        assertThat(bytes(cell, 0, cell.size())).containsExactly(13);
      }
    }
  }
}
