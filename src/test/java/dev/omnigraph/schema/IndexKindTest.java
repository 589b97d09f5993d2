package dev.omnigraph.schema;

import dev.omnigraph.api.TableKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The one place a property type decides its index, and the per-table list built from it. */
class IndexKindTest {

  @Test
  void everyTypeHasExactlyOneKind() {
    for (ScalarKind kind : ScalarKind.values()) {
      PropertyType type = switch (kind) {
        case ENUM -> new PropertyType(kind, false, false, List.of("a", "b"), 0);
        case VECTOR -> new PropertyType(kind, false, true, List.of(), 8);
        default -> PropertyType.scalar(kind, true);
      };
      IndexKind expected = switch (kind) {
        case STRING -> IndexKind.INVERTED;
        case VECTOR -> IndexKind.VECTOR;
        case BLOB -> IndexKind.NONE;
        default -> IndexKind.BTREE;
      };
      assertThat(IndexKind.of(type)).as(type.display()).isEqualTo(expected);
    }
    // Nullability does not matter; lists are never indexed.
    assertThat(IndexKind.of(PropertyType.scalar(ScalarKind.I64, false))).isEqualTo(IndexKind.BTREE);
    assertThat(IndexKind.of(new PropertyType(ScalarKind.STRING, true, true, List.of(), 0))).isEqualTo(IndexKind.NONE);
    assertThat(IndexKind.of(new PropertyType(ScalarKind.I64, true, false, List.of(), 0))).isEqualTo(IndexKind.NONE);
  }

  static final String SCHEMA = """
      node Doc {
        slug: String @key
        title: String @index
        status: enum(draft, live) @index
        rank: I64? @index
        at: DateTime?
        score: F64?
        emb: Vector(4)? @index
        tags: [String]?
        @index(at)
        @index(rank, score)
      }
      node Pair {
        a: I32
        b: I32 @index
        @key(a, b)
      }
      edge Cites: Doc -> Doc {
        weight: F32? @index
        note: String?
        @index(src)
        @index(dst, weight)
      }
      """;

  @Test
  void declaredListsKeyColumnsThenSinglePropertyDeclarationsOnce() {
    Catalog catalog = SchemaParser.parse(SCHEMA);
    Map<String, IndexKind> doc = IndexKind.declared(catalog, TableKey.node("Doc"));
    assertThat(doc.keySet()).startsWith("id", "slug");
    assertThat(doc).containsExactlyInAnyOrderEntriesOf(Map.of("id", IndexKind.BTREE, "slug", IndexKind.INVERTED,
        "title", IndexKind.INVERTED, "status", IndexKind.BTREE, "rank", IndexKind.BTREE, "at", IndexKind.BTREE,
        "emb", IndexKind.VECTOR));
    // A composite key gets no index of its own (its ids are derived from it: the id index serves it).
    assertThat(IndexKind.declared(catalog, TableKey.node("Pair"))).containsExactly(Map.entry("id", IndexKind.BTREE),
        Map.entry("b", IndexKind.BTREE));
    assertThat(IndexKind.declared(catalog, TableKey.edge("Cites"))).containsExactly(Map.entry("id", IndexKind.BTREE),
        Map.entry("src", IndexKind.BTREE), Map.entry("dst", IndexKind.BTREE), Map.entry("weight", IndexKind.BTREE));
    assertThatThrownBy(() -> IndexKind.declared(catalog, TableKey.node("Nope"))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> TableKey.parse("Doc")).isInstanceOf(IllegalArgumentException.class);
  }
}
