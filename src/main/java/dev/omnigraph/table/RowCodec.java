package dev.omnigraph.table;

import dev.omnigraph.schema.BlobValue;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.TimeStampMilliTZVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Converts between the engine's row maps and Arrow batches for the column types
 * {@link TableSchemas} produces. The Java side of each type is fixed, so that pending rows (in
 * memory) and committed rows (read back from Lance) look identical to {@link Filter#test}:
 *
 * <table>
 *   <caption>Java value per Arrow type</caption>
 *   <tr><th>Arrow</th><th>Java</th></tr>
 *   <tr><td>Utf8</td><td>{@link String}</td></tr>
 *   <tr><td>Bool</td><td>{@link Boolean}</td></tr>
 *   <tr><td>Int(32, signed)</td><td>{@link Integer}</td></tr>
 *   <tr><td>Int(64, signed)</td><td>{@link Long}</td></tr>
 *   <tr><td>Int(32, unsigned)</td><td>{@link Long} in [0, 2^32)</td></tr>
 *   <tr><td>Int(64, unsigned)</td><td>{@link Long} holding the unsigned bits (values at or above
 *       2^63 read as negative; use {@link Long#toUnsignedString})</td></tr>
 *   <tr><td>Float32 / Float64</td><td>{@link Float} / {@link Double}</td></tr>
 *   <tr><td>Date(DAY)</td><td>{@link LocalDate}</td></tr>
 *   <tr><td>Timestamp(ms, any zone)</td><td>{@link Instant} (whole milliseconds)</td></tr>
 *   <tr><td>FixedSizeList&lt;Float32&gt;</td><td>{@code float[]} of exactly the list size</td></tr>
 *   <tr><td>List&lt;T&gt;</td><td>{@link List} of T's Java type (unmodifiable when decoded)</td></tr>
 *   <tr><td>LargeBinary with the blob encoding</td><td>{@link BlobValue} when encoded; a scan
 *       decodes Lance's (position, size) description as {@link StoredBlob}</td></tr>
 * </table>
 *
 * <p>{@code null} is allowed exactly where the field is nullable. Encoding is strict: no widening
 * (an {@code Integer} for an I64 column is rejected), no truncation (an {@code Instant} with a
 * sub-millisecond part is rejected), no unknown columns; every rejection is an
 * {@link IllegalArgumentException} naming the column and the row index, because silently changing a
 * value would change a key-derived id or a stored fact.
 */
final class RowCodec {

  private RowCodec() {}

  /**
   * Builds a batch of {@code rows} in {@code schema}'s column order, allocated from
   * {@code allocator}. The caller owns (and must close) the returned root.
   *
   * @throws IllegalArgumentException when a row has an unknown column, misses a non-nullable
   *     column, or carries a value of the wrong Java type or out of the column's range
   */
  static VectorSchemaRoot encode(
      Schema schema, List<Map<String, Object>> rows, BufferAllocator allocator) {
    VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
    try {
      // A set, not a scan of the fields per key: a bulk load encodes a million rows here.
      java.util.Set<String> columns = new java.util.HashSet<>();
      schema.getFields().forEach(f -> columns.add(f.getName()));
      for (int r = 0; r < rows.size(); r++) {
        Map<String, Object> row = rows.get(r);
        for (String key : row.keySet()) {
          if (!columns.contains(key)) {
            throw new IllegalArgumentException("row " + r + ": unknown column '" + key + "'");
          }
        }
      }
      for (FieldVector vector : root.getFieldVectors()) {
        vector.setInitialCapacity(rows.size());
        vector.allocateNew();
        String column = vector.getName();
        // A Blob's URI companion is derived from the Blob's own value, never given by a row.
        String blob = column.startsWith(TableSchemas.BLOB_URI_PREFIX)
            ? column.substring(TableSchemas.BLOB_URI_PREFIX.length()) : null;
        for (int r = 0; r < rows.size(); r++) {
          Object value = blob == null ? rows.get(r).get(column) : externalUri(rows.get(r).get(blob));
          try {
            set(vector, r, value);
          } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                "row " + r + ", column '" + column + "': " + e.getMessage(), e);
          }
        }
        vector.setValueCount(rows.size());
      }
      root.setRowCount(rows.size());
      return root;
    } catch (RuntimeException e) {
      root.close();
      throw e;
    }
  }

  /**
   * Every column of row {@code index} of {@code batch}, in batch column order. A Blob whose URI
   * companion was read with it is folded: an external cell decodes as {@link BlobValue#storedExternal}
   * under the property, and the companion column is not a key of the row.
   */
  static Map<String, Object> decode(VectorSchemaRoot batch, int index) {
    Map<String, Object> row = new LinkedHashMap<>();
    List<String> companions = null;
    for (FieldVector vector : batch.getFieldVectors()) {
      row.put(vector.getName(), get(vector, index));
      if (vector.getName().startsWith(TableSchemas.BLOB_URI_PREFIX)) {
        companions = companions == null ? new ArrayList<>() : companions;
        companions.add(vector.getName());
      }
    }
    if (companions != null) {
      for (String companion : companions) {
        Object uri = row.remove(companion);
        String blob = companion.substring(TableSchemas.BLOB_URI_PREFIX.length());
        if (uri != null && row.containsKey(blob)) {
          row.put(blob, BlobValue.storedExternal((String) uri));
        }
      }
    }
    return row;
  }

  /** The companion value of a Blob cell: its URI when external, else null. */
  private static String externalUri(Object blob) {
    if (blob instanceof BlobValue b && b.isExternal() && !b.isAdmitted()) {
      // The write path admits (and for keyed writes materialises) every input URI before staging.
      throw new IllegalStateException("an external Blob URI reached a table without admission");
    }
    return blob instanceof BlobValue b ? b.uri().orElse(null) : null;
  }

  /**
   * The Arrow bytes the batch's buffers hold for its current rows, summed over every vector and its
   * children (validity, offsets and data). It counts the bytes in use, not the allocator's rounded
   * capacity, so the same rows always weigh the same: the 32 MiB staging limit must not depend on
   * allocation history.
   */
  static long arrowBytes(VectorSchemaRoot batch) {
    long total = 0;
    for (FieldVector vector : batch.getFieldVectors()) {
      // ListVector / FixedSizeListVector include their child vector's buffers in getBufferSize.
      total += vector.getBufferSize();
    }
    return total;
  }

  private static void set(ValueVector vector, int index, Object value) {
    Field field = vector.getField();
    if (value == null) {
      if (!field.isNullable()) {
        throw new IllegalArgumentException("null or missing value for a non-nullable column");
      }
      // Freshly allocated vectors start all-null; a list child needs no entry for a null list.
      if (vector instanceof FixedSizeListVector fixed) {
        fixed.setNull(index);
        // The element field is non-nullable: a null vector still owns listSize element slots, and
        // they are written as zeros so no null element reaches Lance under a non-null field.
        if (fixed.getDataVector() instanceof Float4Vector data) {
          int size = fixed.getListSize();
          for (int i = 0; i < size; i++) {
            data.setSafe(index * size + i, 0f);
          }
          data.setValueCount(Math.max(data.getValueCount(), (index + 1) * size));
        }
      } else if (vector instanceof ListVector list) {
        list.setNull(index);
      }
      return;
    }
    if (vector instanceof VarCharVector v) {
      v.setSafe(index, as(value, String.class, field).getBytes(StandardCharsets.UTF_8));
    } else if (vector instanceof LargeVarBinaryVector v) {
      if (value instanceof StoredBlob) {
        // A committed cell read back as its description: a writer that carries committed rows
        // materialises them first (write/BlobAdmission); one that did not must not drop the bytes.
        throw new BlobRewriteUnsupported(field.getName());
      }
      // An external cell stores no bytes (empty, so a non-nullable Blob stays non-null); its URI
      // goes to the companion column.
      SpilledBlobs.set(v, index, as(value, BlobValue.class, field));
    } else if (vector instanceof BitVector v) {
      v.setSafe(index, as(value, Boolean.class, field) ? 1 : 0);
    } else if (vector instanceof IntVector v) {
      v.setSafe(index, as(value, Integer.class, field));
    } else if (vector instanceof BigIntVector v) {
      v.setSafe(index, as(value, Long.class, field));
    } else if (vector instanceof UInt4Vector v) {
      long l = as(value, Long.class, field);
      if (l < 0 || l > 0xFFFF_FFFFL) {
        throw new IllegalArgumentException("value " + l + " is outside the U32 range [0, 4294967295]");
      }
      v.setSafe(index, (int) l);
    } else if (vector instanceof UInt8Vector v) {
      // A Long is already the unsigned bits (load's spelling); a query's U64 above 2^63-1 arrives
      // as a BigInteger (the reference's logic tests) and is stored as its low 64 bits.
      if (value instanceof BigInteger big) {
        if (big.signum() < 0 || big.bitLength() > 64) {
          throw new IllegalArgumentException("value " + big + " is outside the U64 range [0, 18446744073709551615]");
        }
        v.setSafe(index, big.longValue());
      } else {
        v.setSafe(index, as(value, Long.class, field));
      }
    } else if (vector instanceof Float4Vector v) {
      v.setSafe(index, as(value, Float.class, field));
    } else if (vector instanceof Float8Vector v) {
      v.setSafe(index, as(value, Double.class, field));
    } else if (vector instanceof DateDayVector v) {
      long days = as(value, LocalDate.class, field).toEpochDay();
      if (days < Integer.MIN_VALUE || days > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("date " + value + " is outside the Date32 range");
      }
      v.setSafe(index, (int) days);
    } else if (vector instanceof TimeStampMilliTZVector v) {
      v.setSafe(index, epochMillis(as(value, Instant.class, field)));
    } else if (vector instanceof TimeStampMilliVector v) {
      v.setSafe(index, epochMillis(as(value, Instant.class, field)));
    } else if (vector instanceof FixedSizeListVector v) {
      setVector(v, index, value);
    } else if (vector instanceof ListVector v) {
      setList(v, index, value);
    } else {
      throw new IllegalArgumentException("unsupported Arrow type " + field.getType());
    }
  }

  private static void setVector(FixedSizeListVector vector, int index, Object value) {
    if (!(value instanceof float[] floats)) {
      throw new IllegalArgumentException("expected float[] but got " + value.getClass().getName());
    }
    int size = vector.getListSize();
    if (floats.length != size) {
      throw new IllegalArgumentException("expected a vector of " + size + " floats but got " + floats.length);
    }
    if (!(vector.getDataVector() instanceof Float4Vector data)) {
      throw new IllegalArgumentException("unsupported vector element type " + vector.getField().getChildren());
    }
    vector.setNotNull(index);
    int start = index * size;
    for (int i = 0; i < size; i++) {
      data.setSafe(start + i, floats[i]);
    }
    data.setValueCount(Math.max(data.getValueCount(), start + size));
  }

  private static void setList(ListVector vector, int index, Object value) {
    if (!(value instanceof List<?> items)) {
      throw new IllegalArgumentException("expected a java.util.List but got " + value.getClass().getName());
    }
    FieldVector data = vector.getDataVector();
    int start = vector.startNewValue(index);
    for (int i = 0; i < items.size(); i++) {
      try {
        set(data, start + i, items.get(i));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("list element " + i + ": " + e.getMessage(), e);
      }
    }
    data.setValueCount(start + items.size());
    vector.endValue(index, items.size());
  }

  private static <T> T as(Object value, Class<T> type, Field field) {
    if (!type.isInstance(value)) {
      throw new IllegalArgumentException("expected " + type.getSimpleName() + " for Arrow type "
          + field.getType() + " but got " + value.getClass().getName());
    }
    return type.cast(value);
  }

  private static long epochMillis(Instant instant) {
    if (instant.getNano() % 1_000_000 != 0) {
      throw new IllegalArgumentException("timestamp " + instant
          + " has a sub-millisecond part; the column stores whole milliseconds");
    }
    try {
      return instant.toEpochMilli();
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("timestamp " + instant + " does not fit in epoch milliseconds", e);
    }
  }

  static Object get(ValueVector vector, int index) {
    if (vector.isNull(index)) {
      return null;
    }
    if (vector instanceof VarCharVector v) {
      return new String(v.get(index), StandardCharsets.UTF_8);
    } else if (vector instanceof LargeVarCharVector v) {
      return new String(v.get(index), StandardCharsets.UTF_8);
    } else if (vector instanceof BitVector v) {
      return v.get(index) != 0;
    } else if (vector instanceof IntVector v) {
      return v.get(index);
    } else if (vector instanceof BigIntVector v) {
      return v.get(index);
    } else if (vector instanceof UInt4Vector v) {
      return v.getValueAsLong(index);
    } else if (vector instanceof UInt8Vector v) {
      return v.get(index);
    } else if (vector instanceof Float4Vector v) {
      return v.get(index);
    } else if (vector instanceof Float8Vector v) {
      return v.get(index);
    } else if (vector instanceof DateDayVector v) {
      return LocalDate.ofEpochDay(v.get(index));
    } else if (vector instanceof TimeStampMilliTZVector v) {
      return Instant.ofEpochMilli(v.get(index));
    } else if (vector instanceof TimeStampMilliVector v) {
      return Instant.ofEpochMilli(v.get(index));
    } else if (vector instanceof FixedSizeListVector v) {
      return floats(v, index);
    } else if (vector instanceof ListVector v) {
      return list(v, index);
    } else if (vector instanceof StructVector v && StoredBlob.isDescription(v)) {
      return StoredBlob.of(v, index);
    }
    throw new IllegalArgumentException(
        "column '" + vector.getName() + "': unsupported Arrow type " + vector.getField().getType());
  }

  private static float[] floats(FixedSizeListVector vector, int index) {
    if (!(vector.getDataVector() instanceof Float4Vector data)) {
      throw new IllegalArgumentException("column '" + vector.getName()
          + "': unsupported vector element type " + vector.getField().getChildren());
    }
    int size = vector.getListSize();
    float[] out = new float[size];
    for (int i = 0; i < size; i++) {
      out[i] = data.get(index * size + i);
    }
    return out;
  }

  private static List<Object> list(ListVector vector, int index) {
    FieldVector data = vector.getDataVector();
    int start = vector.getElementStartIndex(index);
    int end = vector.getElementEndIndex(index);
    List<Object> out = new ArrayList<>(end - start);
    for (int i = start; i < end; i++) {
      out.add(get(data, i));
    }
    return Collections.unmodifiableList(out);
  }

  /** Whether {@code type} is one of the unsigned integer types (whose Java value is a Long). */
  static boolean isUnsigned64(ArrowType type) {
    return type instanceof ArrowType.Int i && !i.getIsSigned() && i.getBitWidth() == 64;
  }
}
