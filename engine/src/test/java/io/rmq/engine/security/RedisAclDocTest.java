package io.rmq.engine.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rmq.engine.redis.RedisAcl;

/**
 * The ACLs printed in {@code docs/security.md} are the ones {@link RedisAcl} builds and {@link RedisAclIT} (one
 * server) and {@link RedisAclClusterIT} (a cluster) test.
 */
class RedisAclDocTest {

    private static final String DOC = "docs/security.md";

    @Test
    void theDocumentedAclIsTheTestedOne() throws IOException {
        assertThat(documented(0)).containsExactlyElementsOf(RedisAcl.rules("shop:", false));
        assertThat(RedisAcl.patterns("a*b?")).first().isEqualTo("~a\\*b\\?*");
    }

    @Test
    void theDocumentedClusterAclIsTheTestedOne() throws IOException {
        assertThat(documented(1)).containsExactlyElementsOf(RedisAcl.clusterRules("shop:", false));
        assertThat(RedisAcl.clusterRules("a*b?", false)).contains("&rmq:wake{a\\*b\\?*")
                .containsAll(RedisAcl.rules("a*b?", false));
    }

    /** The rules of the {@code index}-th {@code ACL SETUSER rmq-shop ...} example of the document. */
    private static List<String> documented(int index) throws IOException {
        String doc = Files.readString(find());
        String head = "ACL SETUSER rmq-shop on >s3cret resetkeys resetchannels -@all";
        int start = doc.indexOf(head);
        for (int i = 0; i < index && start >= 0; i++) {
            start = doc.indexOf(head, start + 1);
        }
        assertThat(start).as("ACL example %d in %s", index, DOC).isNotNegative();
        String block = doc.substring(start, doc.indexOf("```", start));
        return Arrays.stream(block.split("\\s+")).filter(t -> !t.isEmpty()).skip(8).toList();
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
