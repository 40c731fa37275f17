package io.rmq.engine.coordination;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

import org.apache.curator.utils.ZKPaths;


/**
 * The ZooKeeper layout of one topic under the root:
 * <pre>
 * &lt;root&gt;/topics/&lt;prefix+topic&gt;/workers/&lt;worker id&gt;   ephemeral, one per live worker ({@link WorkerInfo})
 * &lt;root&gt;/topics/&lt;prefix+topic&gt;/leader/...              leader election (Curator LeaderLatch)
 * &lt;root&gt;/topics/&lt;prefix+topic&gt;/assignment             the slot assignment ({@link SlotAssignment})
 * </pre>
 * The topic's node is named after its Redis key base ({@code <prefix><topic>}), URL-encoded, so two
 * definitions that share Redis keys share coordination too. Immutable.
 */
record CoordinationPaths(String topic, String workers, String leader, String assignment) {

    static CoordinationPaths of(String root, CoordinatedTopic topic) {
        return of(root, topic.keyPrefix(), topic.name());
    }

    static CoordinationPaths of(String root, String keyPrefix, String topicName) {
        String name = URLEncoder.encode(keyPrefix + topicName, StandardCharsets.UTF_8);
        if (name.startsWith(".")) {
            name = "%2E" + name.substring(1); // "." and ".." are not allowed as node names
        }
        String base = ZKPaths.makePath(root, "topics", name);
        return new CoordinationPaths(base, ZKPaths.makePath(base, "workers"), ZKPaths.makePath(base, "leader"),
                ZKPaths.makePath(base, "assignment"));
    }

    String worker(String workerId) {
        return ZKPaths.makePath(workers, workerId);
    }
}
