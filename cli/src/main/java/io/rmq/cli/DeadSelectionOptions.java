package io.rmq.cli;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

import io.rmq.cli.i18n.CliMessages;
import io.rmq.engine.admin.DeadSelection;

/** Which dead messages {@code dead requeue} and {@code dead purge} act on: exactly one of these options. */
final class DeadSelectionOptions {

    @Option(names = "--all", required = true, description = "Every dead message of the topic.")
    boolean all;

    @Option(names = "--member", paramLabel = "<text>", required = true,
            description = "The message with this content (UTF-8 text), in whichever slot; repeat for more.")
    List<String> members;

    @Option(names = "--member-base64", paramLabel = "<base64>", required = true, converter = Base64Converter.class,
            description = "The message with this content, in Base64 (binary contents; contentBase64 of 'dead list --json'); repeat for more.")
    List<byte[]> membersBase64;

    @Option(names = "--older-than", paramLabel = "<age|time>", required = true, converter = TimeBound.Converter.class,
            description = "Messages that died before a time (2025-01-31T12:00:00Z) or longer ago than an age (90s, 15m, 2h, 7d, "
            + "PT1H30M), counted back from this machine's clock (deaths are stamped with Redis's).")
    TimeBound olderThan;

    @Option(names = "--contains", paramLabel = "<text>", required = true,
            description = "Messages whose content contains this text (case-sensitive, as UTF-8 bytes).")
    String contains;

    /** The selection; {@code now} counts an age back. */
    DeadSelection selection(Instant now) {
        if (members != null) {
            return DeadSelection.members(members.stream().map(m -> m.getBytes(StandardCharsets.UTF_8)).toList());
        }
        if (membersBase64 != null) {
            return DeadSelection.members(new ArrayList<>(membersBase64));
        }
        if (olderThan != null) {
            return DeadSelection.diedBefore(olderThan.before(now));
        }
        if (contains != null) {
            return DeadSelection.contentContains(contains);
        }
        return DeadSelection.all();
    }


    /** Reads {@code --member-base64}; what is not Base64 is a usage error. */
    static final class Base64Converter implements ITypeConverter<byte[]> {
        @Override
        public byte[] convert(String value) {
            try {
                return Base64.getDecoder().decode(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(CliMessages.ex.badBase64(value));
            }
        }
    }
}
