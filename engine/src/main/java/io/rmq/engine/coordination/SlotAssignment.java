package io.rmq.engine.coordination;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

import io.rmq.engine.i18n.EngineArguments;

/**
 * Who owns each slot of a topic, as the leader wrote it to ZooKeeper: per slot the owning worker
 * and the epoch since which it owns it. Immutable.
 *
 * <p>The {@linkplain #generation() generation} grows with every write; a slot's epoch is the
 * generation in which its current owner got it, so a slot that changes hands always gets a higher
 * epoch. The pop script compares epochs to fence a previous owner (see {@code pop.lua}).
 *
 * <p>Stored as text, one line per worker, so {@code zkCli.sh get <root>/topics/<topic>/assignment}
 * is readable:
 * <pre>
 * rmq-slot-assignment 1
 * generation 7
 * slot-amount 8
 * leader prices$1@host-a:4711#3f2a1c
 * updated-at 1718000000000
 * worker prices$1@host-a:4711#3f2a1c 0@3 1@3 2@3 3@7
 * worker prices$1@host-b:815#a01b22 4@5 5@5 6@5 7@5
 * </pre>
 */
public final class SlotAssignment {

    private static final String MAGIC = "rmq-slot-assignment 1";

    private final long generation;
    private final String leader;
    private final Instant updatedAt;
    private final String[] owners;
    private final long[] epochs;

    SlotAssignment(long generation, String leader, Instant updatedAt, String[] owners, long[] epochs) {
        if (owners.length != epochs.length) {
            throw EngineArguments.arg.ownersAndEpochsDiffer();
        }
        this.generation = generation;
        this.leader = Objects.requireNonNull(leader, "leader");
        this.updatedAt = Objects.requireNonNull(updatedAt, "updatedAt");
        this.owners = owners.clone();
        this.epochs = epochs.clone();
    }

    /** Grows by one with each write of the assignment. */
    public long generation() {
        return generation;
    }

    /** The worker that wrote it, as leader. */
    public String leader() {
        return leader;
    }

    /** When the leader wrote it (the leader's clock). */
    public Instant updatedAt() {
        return updatedAt;
    }

    public int slotAmount() {
        return owners.length;
    }

    /** The worker owning the slot; empty when no worker was live. */
    public Optional<String> ownerOf(int slot) {
        return Optional.ofNullable(owners[slot]);
    }

    /** The epoch since which the slot's owner owns it; 0 when it has no owner. */
    public long epochOf(int slot) {
        return owners[slot] == null ? 0 : epochs[slot];
    }

    /** The slots a worker owns, each with its epoch, in slot order. */
    public SortedMap<Integer, Long> slotsOf(String workerId) {
        SortedMap<Integer, Long> out = new TreeMap<>();
        for (int s = 0; s < owners.length; s++) {
            if (workerId.equals(owners[s])) {
                out.put(s, epochs[s]);
            }
        }
        return Collections.unmodifiableSortedMap(out);
    }

    /** Every owning worker with its slots, in the order of their first slot. */
    public Map<String, List<Integer>> slotsByWorker() {
        Map<String, List<Integer>> out = new LinkedHashMap<>();
        for (int s = 0; s < owners.length; s++) {
            if (owners[s] != null) {
                out.computeIfAbsent(owners[s], w -> new ArrayList<>()).add(s);
            }
        }
        out.replaceAll((w, slots) -> List.copyOf(slots));
        return Collections.unmodifiableMap(out);
    }

    /** Whether both give every slot the same owner and epoch (generation and writer aside). */
    public boolean sameOwnership(SlotAssignment other) {
        return Arrays.equals(owners, other.owners) && Arrays.equals(epochs, other.epochs);
    }

    /** A few lines for logs and operators: who owns which slots. */
    public String describe() {
        StringBuilder out = new StringBuilder("generation ").append(generation).append(" of ").append(owners.length)
                .append(" slots, written by ").append(leader).append(" at ").append(updatedAt);
        slotsByWorker().forEach((worker, slots) -> out.append("\n  ").append(worker).append(": ")
                .append(slots.size()).append(slots.size() == 1 ? " slot " : " slots ").append(ranges(slots)));
        long unowned = Arrays.stream(owners).filter(Objects::isNull).count();
        if (unowned > 0) {
            out.append("\n  (no owner: ").append(unowned).append(unowned == 1 ? " slot)" : " slots)");
        }
        return out.toString();
    }

    @Override
    public String toString() {
        return "SlotAssignment[generation " + generation + ", " + slotsByWorker().size() + " owner(s) of "
                + owners.length + " slots]";
    }

    /** Slot numbers as ranges: {@code 0-3, 8, 12-13}. */
    static String ranges(List<Integer> sorted) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < sorted.size(); i++) {
            int start = sorted.get(i);
            int end = start;
            while (i + 1 < sorted.size() && sorted.get(i + 1) == end + 1) {
                end = sorted.get(++i);
            }
            if (out.length() > 0) {
                out.append(", ");
            }
            out.append(start);
            if (end > start) {
                out.append('-').append(end);
            }
        }
        return out.toString();
    }

    byte[] encode() {
        StringBuilder out = new StringBuilder(MAGIC).append('\n')
                .append("generation ").append(generation).append('\n')
                .append("slot-amount ").append(owners.length).append('\n')
                .append("leader ").append(leader).append('\n')
                .append("updated-at ").append(updatedAt.toEpochMilli()).append('\n');
        slotsByWorker().forEach((worker, slots) -> {
            out.append("worker ").append(worker);
            for (int s : slots) {
                out.append(' ').append(s).append('@').append(epochs[s]);
            }
            out.append('\n');
        });
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Reads what {@link #encode()} wrote.
     *
     * @throws IllegalArgumentException when the data is not an assignment of this format
     */
    static SlotAssignment decode(byte[] data) {
        String[] lines = new String(data, StandardCharsets.UTF_8).split("\n");
        if (lines.length < 5 || !lines[0].equals(MAGIC)) {
            throw EngineArguments.arg.notASlotAssignment(MAGIC);
        }
        try {
            long generation = Long.parseLong(value(lines[1], "generation"));
            int slotAmount = Integer.parseInt(value(lines[2], "slot-amount"));
            String leader = value(lines[3], "leader");
            Instant updatedAt = Instant.ofEpochMilli(Long.parseLong(value(lines[4], "updated-at")));
            String[] owners = new String[slotAmount];
            long[] epochs = new long[slotAmount];
            for (int i = 5; i < lines.length; i++) {
                if (lines[i].isEmpty()) {
                    continue;
                }
                String[] parts = value(lines[i], "worker").split(" ");
                for (int p = 1; p < parts.length; p++) {
                    int at = parts[p].indexOf('@');
                    int slot = Integer.parseInt(parts[p].substring(0, at));
                    owners[slot] = parts[0];
                    epochs[slot] = Long.parseLong(parts[p].substring(at + 1));
                }
            }
            return new SlotAssignment(generation, leader, updatedAt, owners, epochs);
        } catch (RuntimeException e) {
            throw EngineArguments.arg.malformedSlotAssignment(e);
        }
    }

    private static String value(String line, String key) {
        if (!line.startsWith(key + " ")) {
            throw EngineArguments.arg.unexpectedAssignmentLine(key, line);
        }
        return line.substring(key.length() + 1);
    }

    String[] owners() {
        return owners.clone();
    }

    long[] epochs() {
        return epochs.clone();
    }
}
