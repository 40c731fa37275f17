package io.rmq.engine.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rmq.engine.RedisAcl;

/** The ACL printed in {@code docs/security.md} is the one {@link RedisAcl} builds and {@link RedisAclIT} tests. */
class RedisAclDocTest {

    private static final String DOC = "docs/security.md";

    @Test
    void theDocumentedAclIsTheTestedOne() throws IOException {
        String doc = Files.readString(find());
        int start = doc.indexOf("ACL SETUSER rmq-shop on >s3cret resetkeys resetchannels -@all");
        assertThat(start).as("the ACL example in " + DOC).isNotNegative();
        String block = doc.substring(start, doc.indexOf("```", start));
        List<String> documented = Arrays.stream(block.split("\\s+")).filter(t -> !t.isEmpty()).skip(8).toList();
        assertThat(documented).containsExactlyElementsOf(RedisAcl.rules("shop:", false));
        assertThat(RedisAcl.patterns("a*b?")).first().isEqualTo("~a\\*b\\?*");
    }

    private static Path find() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve(DOC))) {
                return dir.resolve(DOC);
            }
        }
        return fail("cannot find " + DOC);
    }
}
