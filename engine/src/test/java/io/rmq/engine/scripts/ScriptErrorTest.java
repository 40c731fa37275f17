package io.rmq.engine.scripts;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import io.rmq.engine.redis.RedisScript;

/** {@link ScriptError} mirrors the table {@code ERRORS} of {@code scripts/lib/errors.lua}, and the scripts use only it. */
class ScriptErrorTest {

    private static final Pattern ENTRY = Pattern.compile("(?m)^\\s*(\\w+)\\s*=\\s*'([^']*)',");

    @Test
    void theEnumListsTheCodesOfTheLuaTableInItsOrder() {
        String table = RedisScript.expand("scripts/lib/", "errors.lua");
        Map<String, String> lua = new LinkedHashMap<>();
        Matcher entry = ENTRY.matcher(table.substring(table.indexOf("local ERRORS = {"), table.indexOf('}')));
        while (entry.find()) {
            lua.put(entry.group(1), entry.group(2));
        }
        Map<String, String> java = Arrays.stream(ScriptError.values()).collect(
                Collectors.toMap(Enum::name, ScriptError::code, (a, b) -> a, LinkedHashMap::new));

        assertThat(lua).isNotEmpty().containsExactlyEntriesOf(java);
    }

    @Test
    void everyScriptRepliesItsErrorsThroughTheTable() {
        for (RedisScript script : RedisScript.values()) {
            String source = new String(script.source(), StandardCharsets.UTF_8);
            int replies = source.split("redis\\.error_reply\\(", -1).length - 1;
            assertThat(replies).as(script.file() + ": error replies besides lib/errors.lua's fail")
                    .isEqualTo(source.contains("local ERRORS = {") ? 1 : 0);
            Matcher used = Pattern.compile("ERRORS\\.(\\w+)").matcher(source);
            while (used.find()) {
                assertThat(ScriptError.valueOf(used.group(1))).as(script.file()).isNotNull();
            }
        }
    }

    @Test
    void aFailureIsRecognisedByItsCodeAndASpaceInItselfOrACause() {
        Throwable split = new CompletionException(new IllegalStateException("RMQ_SPLIT split:4{t_1}"));

        assertThat(ScriptError.of(split)).contains(ScriptError.SPLIT);
        assertThat(ScriptError.SPLIT.reportedIn(split)).isTrue();
        assertThat(ScriptError.BAD_TYPE.reportedIn(split)).isFalse();
        assertThat(ScriptError.of(new IllegalStateException("RMQ_BAD_TYPE LIFO"))).contains(ScriptError.BAD_TYPE);
        assertThat(ScriptError.of(new IllegalStateException("RMQ_SPLITS x"))).isEmpty();
        assertThat(ScriptError.of(new IllegalStateException("ERR RMQ_SPLIT x"))).isEmpty();
        assertThat(ScriptError.of(new IllegalStateException((String) null))).isEmpty();
    }
}
