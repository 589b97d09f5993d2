package dev.omnigraph.api;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Which external Blob URIs a graph accepts (docs/schema-language.md, "Blob"): none unless
 * {@code omnigraph.graphs.<id>.blob.allow} lists bases ({@code s3://bucket/prefix/},
 * {@code https://host/path/}). A URI is admitted when its normalised scheme, host, port and path lie
 * under a normalised base, compared component by component at a {@code /} boundary, never as a
 * raw string prefix. {@code file://} is never allowed, nor user info, a fragment, or {@code .}/
 * {@code ..} segments (also percent-encoded), so a spelling cannot climb out of its base.
 */
public final class ExternalBlobPolicy {

  /** The policy of a graph that lists no bases: every external URI is refused. */
  public static final ExternalBlobPolicy DENY = new ExternalBlobPolicy(List.of());

  /** Bytes of one URI (input or base), refused above before it is parsed. */
  public static final int MAX_URI_BYTES = 64 * 1024;

  /** The {@code resource} of the refusal of a URI over {@link #MAX_URI_BYTES}. */
  public static final String URI_RESOURCE = "external_blob_uri_bytes";

  private static final List<String> SCHEMES = List.of("s3", "https", "http");

  private final List<Normal> bases;

  private ExternalBlobPolicy(List<Normal> bases) {
    this.bases = bases;
  }

  /**
   * The policy of a comma-separated list of bases; blank means {@link #DENY}.
   *
   * @throws IllegalArgumentException for a base that is not an absolute {@code s3://},
   *     {@code https://} or {@code http://} URI with a host and no user info, query or fragment
   */
  public static ExternalBlobPolicy parse(String commaSeparated) {
    List<Normal> bases = new ArrayList<>();
    for (String raw : commaSeparated.split(",")) {
      String base = raw.trim();
      if (base.isEmpty()) {
        continue;
      }
      Normal n;
      try {
        n = normalise(base);
      } catch (Refusal r) {
        throw new IllegalArgumentException("blob.allow base '" + base + "': " + r.getMessage());
      }
      if (n.query != null) {
        throw new IllegalArgumentException("blob.allow base '" + base + "': a base has no query");
      }
      bases.add(n.path.endsWith("/") ? n : new Normal(n.scheme, n.host, n.port, n.path + "/", null));
    }
    return bases.isEmpty() ? DENY : new ExternalBlobPolicy(List.copyOf(bases));
  }

  /** Whether no base is allowed. */
  public boolean deniesAll() {
    return bases.isEmpty();
  }

  /**
   * The normalised spelling of {@code uri} when a base contains it: what the cell stores and what a
   * read redirects to. Empty with the reason in {@code refusal} otherwise.
   *
   * @throws ResourceLimitExceeded when {@code uri} is over {@link #MAX_URI_BYTES}
   */
  public Admission admit(String uri) {
    if (uri.length() > MAX_URI_BYTES) {
      throw new ResourceLimitExceeded(URI_RESOURCE, MAX_URI_BYTES, uri.length());
    }
    Normal n;
    try {
      n = normalise(uri);
    } catch (Refusal r) {
      return new Admission(Optional.empty(), r.getMessage());
    }
    for (Normal base : bases) {
      if (base.scheme.equals(n.scheme) && base.host.equals(n.host) && base.port == n.port
          && n.path.startsWith(base.path) && n.path.length() > base.path.length()) {
        return new Admission(Optional.of(n.spelling()), "");
      }
    }
    return new Admission(Optional.empty(), bases.isEmpty()
        ? "this graph allows no external Blob URIs (omnigraph.graphs.<id>.blob.allow)"
        : "it is not under an allowed base of omnigraph.graphs.<id>.blob.allow");
  }

  /**
   * The outcome of {@link #admit}.
   *
   * @param normalised the spelling to store, when admitted
   * @param refusal why not, when refused
   */
  public record Admission(Optional<String> normalised, String refusal) {}

  /** A URI's compared parts: lower-case scheme and host, explicit port or -1, the raw path. */
  private record Normal(String scheme, String host, int port, String path, String query) {
    String spelling() {
      return scheme + "://" + host + (port == -1 ? "" : ":" + port) + path + (query == null ? "" : "?" + query);
    }
  }

  private static final class Refusal extends Exception {
    Refusal(String message) {
      super(message, null, false, false);
    }
  }

  private static Normal normalise(String text) throws Refusal {
    URI u;
    try {
      u = new URI(text);
    } catch (URISyntaxException e) {
      throw new Refusal("not a well-formed URI (" + e.getReason() + ")");
    }
    if (!u.isAbsolute() || u.isOpaque()) {
      throw new Refusal("not an absolute URI");
    }
    String scheme = u.getScheme().toLowerCase(Locale.ROOT);
    if (scheme.equals("file")) {
      throw new Refusal("file:// URIs are never allowed");
    }
    if (!SCHEMES.contains(scheme)) {
      throw new Refusal("scheme '" + scheme + "' is not supported (s3, https, http)");
    }
    // Raw parts: a '@' in an authority the parser could not split is user info, refused too.
    if (u.getRawUserInfo() != null || (u.getRawAuthority() != null && u.getRawAuthority().contains("@"))) {
      throw new Refusal("user info is not allowed in a Blob URI");
    }
    if (u.getRawFragment() != null) {
      throw new Refusal("a fragment is not allowed in a Blob URI");
    }
    if (u.getHost() == null) {
      throw new Refusal("no host (or bucket)");
    }
    if (scheme.equals("s3") && u.getRawQuery() != null) {
      throw new Refusal("an s3:// URI has no query");
    }
    String path = u.getRawPath() == null || u.getRawPath().isEmpty() ? "/" : u.getRawPath();
    for (String segment : path.split("/", -1)) {
      String decoded = decode(segment);
      if (decoded.equals(".") || decoded.equals("..") || decoded.contains("/") || decoded.contains("\\")) {
        throw new Refusal("'.' and '..' segments and encoded separators are not allowed");
      }
    }
    if (path.contains("//")) {
      throw new Refusal("empty path segments are not allowed");
    }
    int port = u.getPort();
    if ((scheme.equals("https") && port == 443) || (scheme.equals("http") && port == 80)) {
      port = -1;
    }
    return new Normal(scheme, u.getHost().toLowerCase(Locale.ROOT), port, path, u.getRawQuery());
  }

  private static String decode(String segment) throws Refusal {
    try {
      return java.net.URLDecoder.decode(segment.replace("+", "%2B"), java.nio.charset.StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw new Refusal("a malformed percent escape");
    }
  }
}
