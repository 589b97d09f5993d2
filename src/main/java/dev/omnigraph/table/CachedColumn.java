package dev.omnigraph.table;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMilliTZVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * One column of one exact table version held by the {@link ColumnCache}: every live row's value, in
 * the order of the scan that loaded it, in primitive arrays only, so that what it holds is known to
 * the byte ({@link #bytes()}: each array's header and elements). The values it hands out are the
 * Java values {@link RowCodec#decode} gives for the same cell, so a row answered from here and a row
 * read from Lance are equal.
 *
 * <p>Strings are dictionary-encoded: each distinct value once as UTF-8, a code per row, and an
 * open-addressing table from value to code, so an equality is one probe and the rest is a compare of
 * ints. Codes are given in order of first appearance, so a column whose values are all distinct (an
 * {@code id}, a lone String {@code @key}) has code = row and keeps no code array at all.
 */
final class CachedColumn {

  /** The value kinds held, one per Arrow type of {@link TableSchemas} that has a fixed Java value. */
  enum Kind {
    STRING, BOOL, I32, I64, U32, U64, F32, F64, DATE, DATETIME
  }

  final Kind kind;
  final int rows;
  /** Per row: I32, DATE (epoch day), BOOL (0/1), or a STRING's code (-1: null) when not unique. */
  private final int[] ints;
  /** Per row: I64, U32, U64 (the bits), DATETIME (epoch ms). */
  private final long[] longs;
  private final float[] floats;
  private final double[] doubles;
  /** Set bits are null rows; null when the column has none (STRING nulls are code -1). */
  private final long[] nulls;
  /** STRING: the distinct values' UTF-8, their offsets (one more than values), the probe table. */
  private final byte[] utf8;
  private final int[] offsets;
  private final int[] slots;

  private CachedColumn(Kind kind, int rows, int[] ints, long[] longs, float[] floats, double[] doubles, long[] nulls,
      byte[] utf8, int[] offsets, int[] slots) {
    this.kind = kind;
    this.rows = rows;
    this.ints = ints;
    this.longs = longs;
    this.floats = floats;
    this.doubles = doubles;
    this.nulls = nulls;
    this.utf8 = utf8;
    this.offsets = offsets;
    this.slots = slots;
  }

  /** The kind of an Arrow type, or null when its values are not held here (lists, vectors, Blobs, …). */
  static Kind kindOf(ArrowType type) {
    if (type instanceof ArrowType.Utf8) {
      return Kind.STRING;
    } else if (type instanceof ArrowType.Bool) {
      return Kind.BOOL;
    } else if (type instanceof ArrowType.Int i && (i.getBitWidth() == 32 || i.getBitWidth() == 64)) {
      return i.getBitWidth() == 32 ? (i.getIsSigned() ? Kind.I32 : Kind.U32) : (i.getIsSigned() ? Kind.I64 : Kind.U64);
    } else if (type instanceof ArrowType.FloatingPoint f) {
      return f.getPrecision() == FloatingPointPrecision.SINGLE ? Kind.F32
          : f.getPrecision() == FloatingPointPrecision.DOUBLE ? Kind.F64 : null;
    } else if (type instanceof ArrowType.Date d && d.getUnit() == DateUnit.DAY) {
      return Kind.DATE;
    } else if (type instanceof ArrowType.Timestamp t && t.getUnit() == TimeUnit.MILLISECOND) {
      return Kind.DATETIME;
    }
    return null;
  }

  /** The heap this column holds, exactly: every array's 16-byte header and its elements, 8-byte aligned. */
  long bytes() {
    return array(ints, 4) + array(longs, 8) + array(floats, 4) + array(doubles, 8) + array(nulls, 8)
        + array(utf8, 1) + array(offsets, 4) + array(slots, 4);
  }

  private static long array(Object a, int element) {
    if (a == null) {
      return 0;
    }
    return arrayBytes(java.lang.reflect.Array.getLength(a), element);
  }

  /** The heap of an array of {@code length} elements of {@code element} bytes (header included). */
  static long arrayBytes(long length, int element) {
    return (16 + length * element + 7) & ~7L;
  }

  boolean isNull(int row) {
    if (kind == Kind.STRING) {
      return code(row) < 0;
    }
    return nulls != null && (nulls[row >>> 6] & (1L << row)) != 0;
  }

  /** The value of {@code row} as {@link RowCodec#decode} gives it; null for a null cell. */
  Object value(int row) {
    if (isNull(row)) {
      return null;
    }
    return switch (kind) {
      case STRING -> string(code(row));
      case BOOL -> ints[row] != 0;
      case I32 -> ints[row];
      case DATE -> LocalDate.ofEpochDay(ints[row]);
      case I64, U32, U64 -> longs[row];
      case DATETIME -> Instant.ofEpochMilli(longs[row]);
      case F32 -> floats[row];
      case F64 -> doubles[row];
    };
  }

  /** The int of a row of an I32, DATE or BOOL column (undefined for a null cell). */
  int intAt(int row) {
    return ints[row];
  }

  /** The long of a row of an I64, U32, U64 or DATETIME column (undefined for a null cell). */
  long longAt(int row) {
    return longs[row];
  }

  float floatAt(int row) {
    return floats[row];
  }

  double doubleAt(int row) {
    return doubles[row];
  }

  /** A STRING row's code: -1 for null; the row itself when every value is distinct. */
  int code(int row) {
    return ints == null ? row : ints[row];
  }

  /** The rows of a STRING column whose code is one of {@code codes} (sorted), ascending. */
  int[] rowsWith(int[] codes) {
    int[] out = new int[16];
    int n = 0;
    int only = codes.length == 1 ? codes[0] : -1;
    for (int r = 0; r < rows && codes.length > 0; r++) {
      int code = code(r);
      if (only >= 0 ? code == only : code >= 0 && Arrays.binarySearch(codes, code) >= 0) {
        if (n == out.length) {
          out = Arrays.copyOf(out, n * 2);
        }
        out[n++] = r;
      }
    }
    return Arrays.copyOf(out, n);
  }

  /** Whether every row holds a distinct value (then code = row). */
  boolean unique() {
    return kind == Kind.STRING && ints == null;
  }

  /** Distinct values of a STRING column. */
  int distinct() {
    return offsets.length - 1;
  }

  /** The distinct value {@code code} of a STRING column. */
  String string(int code) {
    return new String(utf8, offsets[code], offsets[code + 1] - offsets[code], StandardCharsets.UTF_8);
  }

  /** The code of {@code value} in a STRING column, or -1 when no row holds it. */
  int codeOf(String value) {
    byte[] b = value.getBytes(StandardCharsets.UTF_8);
    return find(utf8, offsets, slots, b, 0, b.length, hash(b, 0, b.length));
  }

  private static int find(byte[] utf8, int[] offsets, int[] slots, byte[] b, int from, int len, int hash) {
    int mask = slots.length - 1;
    for (int i = hash & mask; ; i = (i + 1) & mask) {
      int code = slots[i] - 1;
      if (code < 0) {
        return -1;
      }
      int start = offsets[code];
      if (offsets[code + 1] - start == len && Arrays.equals(utf8, start, start + len, b, from, from + len)) {
        return code;
      }
    }
  }

  private static int hash(byte[] b, int from, int len) {
    int h = 0x9747b28c;
    for (int i = from; i < from + len; i++) {
      h = (h ^ b[i]) * 0x01000193;
    }
    return h ^ (h >>> 15);
  }

  /**
   * Builds one column batch by batch from a scan, knowing at each batch what the built column would
   * hold ({@link #size()}), so that a load can stop as soon as it cannot fit the cache's budget.
   */
  static final class Builder {
    final Kind kind;
    private int rows;
    private int[] ints = new int[1024];
    private long[] longs;
    private float[] floats;
    private double[] doubles;
    private long[] nulls;
    // STRING: the dictionary being built.
    private byte[] utf8;
    private int[] offsets;
    private int[] slots;
    private int distinct;
    private byte[] scratch;

    /** A builder for about {@code expectedRows} rows (the version's row count: arrays start at it). */
    Builder(Kind kind, int expectedRows) {
      this.kind = kind;
      int n = Math.max(16, expectedRows);
      switch (kind) {
        case I64, U32, U64, DATETIME -> longs = new long[n];
        case F32 -> floats = new float[n];
        case F64 -> doubles = new double[n];
        default -> ints = new int[n];
      }
      if (kind == Kind.STRING) {
        utf8 = new byte[1024];
        offsets = new int[65];
        slots = new int[128];
        scratch = new byte[64];
      }
    }

    /**
     * The bytes the column would hold if built now ({@link CachedColumn#bytes()} of {@link #build()}):
     * what a load compares with the budget as it goes, so that it stops once the column cannot fit.
     */
    long size() {
      long n = rows;
      long out = kind == Kind.STRING ? 0 : arrayBytes(n, kind == Kind.I64 || kind == Kind.U32 || kind == Kind.U64
          || kind == Kind.DATETIME || kind == Kind.F64 ? 8 : 4);
      if (nulls != null) {
        out += arrayBytes((n + 63) >>> 6, 8);
      }
      if (kind == Kind.STRING) {
        out += (distinct == rows ? 0 : arrayBytes(n, 4)) + arrayBytes(offsets[distinct], 1)
            + arrayBytes(distinct + 1, 4) + arrayBytes(tableSize(distinct), 4);
      }
      return out;
    }

    /**
     * Appends every row of {@code vector}.
     *
     * @throws IllegalStateException when the vector is not of this builder's kind (the caller then
     *     leaves the scan to Lance)
     */
    void append(FieldVector vector) {
      int n = vector.getValueCount();
      grow(rows + n);
      for (int i = 0; i < n; i++) {
        int row = rows + i;
        if (vector.isNull(i)) {
          if (kind == Kind.STRING) {
            ints[row] = -1;
          } else {
            if (nulls == null) {
              nulls = new long[(capacity() + 63) >>> 6];
            }
            nulls[row >>> 6] |= 1L << row;
          }
          continue;
        }
        switch (kind) {
          case STRING -> ints[row] = intern(cast(vector, VarCharVector.class), i);
          case BOOL -> ints[row] = cast(vector, BitVector.class).get(i);
          case I32 -> ints[row] = cast(vector, IntVector.class).get(i);
          case DATE -> ints[row] = cast(vector, DateDayVector.class).get(i);
          case I64 -> longs[row] = cast(vector, BigIntVector.class).get(i);
          case U32 -> longs[row] = cast(vector, UInt4Vector.class).getValueAsLong(i);
          case U64 -> longs[row] = cast(vector, UInt8Vector.class).get(i);
          case DATETIME -> longs[row] = vector instanceof TimeStampMilliTZVector tz ? tz.get(i)
              : cast(vector, TimeStampMilliVector.class).get(i);
          case F32 -> floats[row] = cast(vector, Float4Vector.class).get(i);
          case F64 -> doubles[row] = cast(vector, Float8Vector.class).get(i);
        }
      }
      rows += n;
    }

    private static <T> T cast(FieldVector vector, Class<T> type) {
      if (!type.isInstance(vector)) {
        throw new IllegalStateException("column '" + vector.getName() + "' is a " + vector.getClass().getSimpleName());
      }
      return type.cast(vector);
    }

    private int capacity() {
      return ints != null ? ints.length : longs != null ? longs.length : floats != null ? floats.length : doubles.length;
    }

    private void grow(int needed) {
      int cap = capacity();
      if (needed <= cap) {
        return;
      }
      int next = Math.max(needed, cap * 2);
      if (ints != null) {
        ints = Arrays.copyOf(ints, next);
      }
      if (longs != null) {
        longs = Arrays.copyOf(longs, next);
      }
      if (floats != null) {
        floats = Arrays.copyOf(floats, next);
      }
      if (doubles != null) {
        doubles = Arrays.copyOf(doubles, next);
      }
      if (nulls != null) {
        nulls = Arrays.copyOf(nulls, (next + 63) >>> 6);
      }
    }

    /** The code of row {@code i}'s string, adding it to the dictionary when new. */
    private int intern(VarCharVector v, int i) {
      ArrowBuf offsetBuffer = v.getOffsetBuffer();
      int start = offsetBuffer.getInt((long) i * VarCharVector.OFFSET_WIDTH);
      int len = offsetBuffer.getInt((long) (i + 1) * VarCharVector.OFFSET_WIDTH) - start;
      if (scratch.length < len) {
        scratch = new byte[Math.max(len, scratch.length * 2)];
      }
      v.getDataBuffer().getBytes(start, scratch, 0, len);
      int h = hash(scratch, 0, len);
      int found = find(utf8, offsets, slots, scratch, 0, len, h);
      if (found >= 0) {
        return found;
      }
      int code = distinct++;
      if (offsets.length < distinct + 1) {
        offsets = Arrays.copyOf(offsets, offsets.length * 2);
      }
      int at = offsets[code];
      if (utf8.length < at + len) {
        utf8 = Arrays.copyOf(utf8, Math.max(at + len, utf8.length * 2));
      }
      System.arraycopy(scratch, 0, utf8, at, len);
      offsets[code + 1] = at + len;
      if (distinct * 2 > slots.length) {
        rehash(slots.length * 2);
      }
      place(slots, h, code);
      return code;
    }

    private void rehash(int size) {
      int[] next = new int[size];
      for (int c = 0; c < distinct - 1; c++) { // the code being added is placed by the caller
        place(next, hash(utf8, offsets[c], offsets[c + 1] - offsets[c]), c);
      }
      slots = next;
    }

    /** The probe table's size for {@code distinct} values: the least power of two at least twice it. */
    private static int tableSize(int distinct) {
      return Math.max(2, Integer.highestOneBit(Math.max(1, distinct * 2 - 1)) << 1);
    }

    private static void place(int[] slots, int hash, int code) {
      int mask = slots.length - 1;
      int i = hash & mask;
      while (slots[i] != 0) {
        i = (i + 1) & mask;
      }
      slots[i] = code + 1;
    }

    /** The column, every array cut to its length (so {@link CachedColumn#bytes()} is what stays). */
    CachedColumn build() {
      long[] n = nulls == null ? null : Arrays.copyOf(nulls, (rows + 63) >>> 6);
      return switch (kind) {
        case STRING -> {
          boolean unique = distinct == rows;
          // A table with no row still has a probe table, so a lookup ends at its first empty slot.
          int[] table = new int[tableSize(distinct)];
          for (int c = 0; c < distinct; c++) {
            place(table, hash(utf8, offsets[c], offsets[c + 1] - offsets[c]), c);
          }
          yield new CachedColumn(kind, rows, unique ? null : Arrays.copyOf(ints, rows), null, null, null, null,
              Arrays.copyOf(utf8, offsets[distinct]), Arrays.copyOf(offsets, distinct + 1), table);
        }
        case BOOL, I32, DATE -> new CachedColumn(kind, rows, Arrays.copyOf(ints, rows), null, null, null, n, null, null, null);
        case I64, U32, U64, DATETIME ->
            new CachedColumn(kind, rows, null, Arrays.copyOf(longs, rows), null, null, n, null, null, null);
        case F32 -> new CachedColumn(kind, rows, null, null, Arrays.copyOf(floats, rows), null, n, null, null, null);
        case F64 -> new CachedColumn(kind, rows, null, null, null, Arrays.copyOf(doubles, rows), n, null, null, null);
      };
    }
  }
}
