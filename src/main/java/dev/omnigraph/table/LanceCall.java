package dev.omnigraph.table;

import java.io.IOException;
import java.io.UncheckedIOException;

/** A Lance call that may throw anything, checked exceptions included. */
@FunctionalInterface
interface LanceCall<T> {

  T call() throws Exception;

  /**
   * Runs {@code call}, rethrowing a checked exception unchecked. lance-java throws checked
   * {@code java.io.IOException}s from native code without declaring them (seen from commit, open
   * and scan), which would otherwise escape every {@code catch (RuntimeException)} of our callers.
   * This only wraps; nothing here decides anything from the exception's type.
   */
  static <T> T lance(LanceCall<T> call) {
    try {
      return call.call();
    } catch (RuntimeException e) {
      throw e;
    } catch (IOException e) {
      throw new UncheckedIOException(e.getMessage(), e);
    } catch (Exception e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }
}
