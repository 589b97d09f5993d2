package dev.omnigraph.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The members render to the exact texts the wire (and older clients) always had, and parse back. */
class ReadSetMemberTest {

  @Test
  void eachMemberRendersToItsWireText() {
    assertThat(new ReadSetMember.GraphHead("main").wire()).isEqualTo("graph_head:main");
    assertThat(new ReadSetMember.BranchIdentity("feature/x").wire()).isEqualTo("branch_identity:feature/x");
    assertThat(new ReadSetMember.Schema().wire()).isEqualTo("schema");
    assertThat(new ReadSetMember.Table("edge:Knows").wire()).isEqualTo("table:edge:Knows");
    assertThat(new ReadSetChanged(new ReadSetMember.Table("node:Person"), Optional.of("3"), Optional.empty())
        .getMessage()).isEqualTo("read set changed: table:node:Person was 3 when prepared, now <absent>");
  }

  @Test
  void theWireTextParsesBackToTheSameMember() {
    for (ReadSetMember m : List.of(new ReadSetMember.GraphHead("main"), new ReadSetMember.BranchIdentity("a:b"),
        new ReadSetMember.Schema(), new ReadSetMember.Table("edge:Knows"), new ReadSetMember.Unrecognized("lease"),
        new ReadSetMember.Unrecognized("commit:abc"))) {
      assertThat(ReadSetMember.parse(m.wire())).isEqualTo(m);
    }
  }
}
