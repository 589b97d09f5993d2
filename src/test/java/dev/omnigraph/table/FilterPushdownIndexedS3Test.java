package dev.omnigraph.table;


/** The pushdown suite with a BTree index on every scalar column that covers half of the rows. */
class FilterPushdownIndexedS3Test extends FilterPushdownS3Test {
  @Override
  boolean indexed() {
    return true;
  }
}
