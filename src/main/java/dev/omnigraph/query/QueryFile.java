package dev.omnigraph.query;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A parsed {@code .gq} file: its declarations in file order, names unique. A request names the one
 * declaration it runs ({@link #declaration(String)}).
 */
public final class QueryFile {

  private final Map<String, Declaration> byName;

  QueryFile(List<Declaration> declarations) {
    Map<String, Declaration> map = new LinkedHashMap<>();
    declarations.forEach(d -> map.put(d.name(), d));
    this.byName = map;
  }

  /** Every declaration, in file order. */
  public List<Declaration> declarations() {
    return List.copyOf(byName.values());
  }

  /** The declared query names, in file order. */
  public List<String> names() {
    return List.copyOf(byName.keySet());
  }

  /** The declaration with this exact name, if the file has one. */
  public Optional<Declaration> find(String name) {
    return Optional.ofNullable(byName.get(name));
  }

  /**
   * The declaration with this exact name.
   *
   * @throws UnknownQueryException when the file declares no such query; its message lists the names it does
   */
  public Declaration declaration(String name) {
    Declaration d = byName.get(name);
    if (d == null) {
      throw new UnknownQueryException(name, names());
    }
    return d;
  }
}
