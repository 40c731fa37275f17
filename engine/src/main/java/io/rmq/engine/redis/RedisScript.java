package io.rmq.engine.redis;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.lettuce.core.ScriptOutputType;
import io.rmq.engine.i18n.EngineExceptions;

/**
 * The Lua scripts of the engine, one resource file per atomic operation under
 * {@code io/rmq/engine/scripts/}. Each file's header documents its KEYS, ARGV and results.
 *
 * <p>Each script also exists with a {@code #!lua} shebang line in front ({@link #source(boolean)}): Redis 7
 * then enforces, in a cluster, that the script touches only keys of the hash slot of the keys it declares, so
 * a cross-slot access fails at once instead of working on one node and failing on another. Redis 6 does not
 * accept a shebang, so the engine uses those variants only on a Redis 7 cluster.
 */
public enum RedisScript {
    /** Stores or merges one message. */
    SEND("send.lua", ScriptOutputType.MULTI),
    /** Moves due members from the store queue to the prepare queue. */
    POP("pop.lua", ScriptOutputType.MULTI),
    /** {@link #POP} for a consumer with limits per key: holds back (parks) members of keys at their limit. */
    POP_FLOW("pop_flow.lua", ScriptOutputType.MULTI),
    /** Brings members parked by limits per key back to the store queue, once consumers no longer limit keys. */
    UNPARK("unpark.lua", ScriptOutputType.MULTI),
    /** Removes consumed members from the prepare queue. */
    COMMIT("commit.lua", ScriptOutputType.INTEGER),
    /** The rest of a plain commit (a {@code ZREM} from the prepare queue): counts, wake notices, what needs members. */
    COMMITTED("committed.lua", ScriptOutputType.INTEGER),
    /** What a plain commit asked to be done with its members: blocked, attempts and trace entries forgotten. */
    COMMIT_FORGET("commit_forget.lua", ScriptOutputType.INTEGER),
    /** Returns members to the store queue, or to the dead queue. */
    ROLLBACK("rollback.lua", ScriptOutputType.MULTI),
    /** Returns prefetched, never delivered members to the store queue without counting an attempt. */
    RELEASE("release.lua", ScriptOutputType.INTEGER),
    /** Pushes back the prepare deadline of held members. */
    EXTEND("extend.lua", ScriptOutputType.INTEGER),
    /** Records a topic's definition on first use. */
    REGISTER_TOPIC("register_topic.lua", ScriptOutputType.VALUE),
    /** Keeps a dead queue within its retention. */
    TRIM_DEAD("trim_dead.lua", ScriptOutputType.MULTI),
    /** Removes a slot's expired pending messages (the periodic cleanup). */
    EXPIRE("expire.lua", ScriptOutputType.MULTI),
    /** Reads one slot's state (admin). */
    STATS("stats.lua", ScriptOutputType.MULTI),
    /** Reads a page of a dead queue (admin). */
    DEAD_PAGE("dead_page.lua", ScriptOutputType.MULTI),
    /** Requeues, purges or counts dead messages (admin). */
    ACT_ON_DEAD("act_on_dead.lua", ScriptOutputType.MULTI),
    /** Removes one pending message, and says whether a copy is in flight (applications and admin). */
    CANCEL("cancel.lua", ScriptOutputType.MULTI),
    /** Reads what a slot holds about one message. */
    FIND("find.lua", ScriptOutputType.MULTI),
    /** Sets the due time or priority of one pending message. */
    RESCHEDULE("reschedule.lua", ScriptOutputType.MULTI),
    /** Makes one pending message due now (admin). */
    DUE_NOW("due_now.lua", ScriptOutputType.INTEGER),
    /** Pauses or resumes a slot (admin). */
    PAUSE("pause.lua", ScriptOutputType.INTEGER),
    /** Reads or moves a topic's growth state in the registry. */
    GROW_TOPIC("grow_topic.lua", ScriptOutputType.MULTI),
    /** Splits an old slot of a growing topic. */
    SPLIT_SLOT("split_slot.lua", ScriptOutputType.MULTI),
    /** Forgets the pre-split members that have left an old slot. */
    SPLIT_PROGRESS("split_progress.lua", ScriptOutputType.MULTI),
    /** Holds or releases a new slot of a growing topic. */
    GROWTH_HOLD("growth_hold.lua", ScriptOutputType.INTEGER),
    /** Merges a message into its pending pre-split copy in the old slot. */
    MERGE_PENDING("merge_pending.lua", ScriptOutputType.MULTI),
    /** Sends or records one tick of a recurring schedule, once cluster-wide. */
    TICK("tick.lua", ScriptOutputType.MULTI),
    /** Creates, reads, pauses, resumes or removes a recurring schedule's state. */
    SCHEDULE_STATE("schedule_state.lua", ScriptOutputType.MULTI),
    /** Reserves permits of a topic's rate limit. */
    FLOW_ACQUIRE("flow_acquire.lua", ScriptOutputType.MULTI),
    /** Sets a topic's rate limit, from configuration or live. */
    FLOW_SET("flow_set.lua", ScriptOutputType.MULTI),
    /** Fixes a topic's priority aging epoch once. */
    AGING_EPOCH("aging_epoch.lua", ScriptOutputType.INTEGER);

    private final String file;
    private final ScriptOutputType output;
    private final byte[] source;
    private final String sha;
    private final byte[] shebangSource;
    private final String shebangSha;

    RedisScript(String file, ScriptOutputType output) {
        this.file = file;
        this.output = output;
        this.source = load(file);
        this.sha = sha1(source);
        byte[] shebang = "#!lua\n".getBytes(StandardCharsets.US_ASCII);
        this.shebangSource = new byte[shebang.length + source.length];
        System.arraycopy(shebang, 0, shebangSource, 0, shebang.length);
        System.arraycopy(source, 0, shebangSource, shebang.length, source.length);
        this.shebangSha = sha1(shebangSource);
    }

    public String file() {
        return file;
    }

    ScriptOutputType output() {
        return output;
    }

    public byte[] source() {
        return source;
    }

    /** The SHA1 digest by which Redis knows the script. */
    public String sha() {
        return sha;
    }

    /** The script's source, with a {@code #!lua} shebang line in front when {@code shebang}. */
    public byte[] source(boolean shebang) {
        return shebang ? shebangSource : source;
    }

    /** The SHA1 digest of {@link #source(boolean)}. */
    public String sha(boolean shebang) {
        return shebang ? shebangSha : sha;
    }

    /** Where the script resources lie; the directories given to {@link #expand} are relative to it. */
    private static final String SCRIPTS_ROOT = "/io/rmq/engine/";

    private static byte[] load(String file) {
        return expand("scripts/", file).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The source of the script {@code directory + file}, each line {@code -- #include <path>[: comment]} replaced
     * by the file at {@code directory + path} (shared helpers, written once; an included file includes nothing).
     */
    public static String expand(String directory, String file) {
        return expandSource(directory, read(directory + file));
    }

    /**
     * {@code source} with each line {@code -- #include <path>[: comment]} replaced by the file at
     * {@code directory + path}, as {@link #expand} does for a script of this build (for example another version of
     * one, measured against this build's).
     */
    public static String expandSource(String directory, String source) {
        return expandSource(source, path -> read(directory + path));
    }

    /**
     * {@code source} with each line {@code -- #include <path>[: comment]} replaced by {@code included.apply(path)}
     * (for example files of another version of the scripts, read from a folder).
     */
    public static String expandSource(String source, Function<String, String> included) {
        // compiled here: an enum's static fields are not yet set while its constants are built
        Matcher include = Pattern.compile("(?m)^-- #include (\\S+?)(?::.*)?$").matcher(source);
        StringBuilder expanded = new StringBuilder(source.length() + 1024);
        while (include.find()) {
            include.appendReplacement(expanded, Matcher.quoteReplacement(included.apply(include.group(1))));
        }
        return include.appendTail(expanded).toString();
    }

    private static String read(String path) {
        try (InputStream in = RedisScript.class.getResourceAsStream(SCRIPTS_ROOT + path)) {
            if (in == null) {
                throw EngineExceptions.ex.scriptMissing("io/rmq/engine/" + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw EngineExceptions.ex.scriptUnreadable("io/rmq/engine/" + path, e);
        }
    }

    private static String sha1(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw EngineExceptions.ex.sha1Unavailable(e);
        }
    }

    @Override
    public String toString() {
        return file + " (" + sha.substring(0, 8) + ")";
    }
}
