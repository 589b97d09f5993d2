package dev.omnigraph.bench;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;

/**
 * Issue 46's generated graph, written once as the input every system loads: {@code persons}
 * {@code Person} nodes (name {@code p<i>}, age 0–89, a city out of 50) and {@code edges} random
 * {@code Knows} edges, fixed seed; no self-loop and no pair twice, so every system's answers agree
 * (see {@link PeerQueries}). CSV for Kuzu's and DuckDB's {@code COPY}, one NDJSON file (nodes, then
 * edges) for our {@code load --mode overwrite}.
 */
record PeerGraph(Path dir, int persons, int edges) {

  static final int CITIES = 50;
  static final long SEED = 46;
  static final String SCHEMA = """
      node Person {
        name: String @key
        age: I32 @index
        city: String
      }
      edge Knows: Person -> Person
      """;

  static String name(int i) {
    return "p" + i;
  }

  static String city(int i) {
    return "c" + i;
  }

  Path personsCsv() {
    return dir.resolve("persons.csv");
  }

  Path knowsCsv() {
    return dir.resolve("knows.csv");
  }

  Path ndjson() {
    return dir.resolve("graph.ndjson");
  }

  /** Writes the three input files; the same seed gives the same graph in every run. */
  void write() throws IOException {
    Files.createDirectories(dir);
    Random random = new Random(SEED);
    try (BufferedWriter csv = Files.newBufferedWriter(personsCsv());
        BufferedWriter nd = Files.newBufferedWriter(ndjson())) {
      csv.write("name,age,city\n");
      for (int i = 0; i < persons; i++) {
        int age = random.nextInt(90);
        String city = city(random.nextInt(CITIES));
        csv.write(name(i) + "," + age + "," + city + "\n");
        nd.write("{\"type\":\"Person\",\"data\":{\"name\":\"" + name(i) + "\",\"age\":" + age + ",\"city\":\"" + city
            + "\"}}\n");
      }
      Set<Long> seen = new HashSet<>(edges * 2);
      try (BufferedWriter k = Files.newBufferedWriter(knowsCsv())) {
        k.write("from,to\n");
        int written = 0;
        while (written < edges) {
          int from = random.nextInt(persons);
          int to = random.nextInt(persons);
          if (from == to || !seen.add((long) from * persons + to)) {
            continue;
          }
          k.write(name(from) + "," + name(to) + "\n");
          nd.write("{\"edge\":\"Knows\",\"from\":\"" + name(from) + "\",\"to\":\"" + name(to) + "\"}\n");
          written++;
        }
      }
    }
  }
}
