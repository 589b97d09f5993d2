package dev.omnigraph;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * What a package owns and which of our other packages it may use, declared once in its
 * {@code package-info.java} and enforced by an ArchUnit test ({@code PackageContractTest}): a class
 * that reaches a package its own does not list fails the build, and the lists together must form
 * floors without a cycle. The root package ({@code dev.omnigraph}: this annotation and
 * {@link Versions}) may be used by all.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PACKAGE)
public @interface PackageContract {

  /** In a few words, what the package is the one place for. */
  String owns();

  /** The simple names of the sibling packages ({@code "api"}, {@code "storage"}) its classes may use. */
  String[] mayUse();
}
