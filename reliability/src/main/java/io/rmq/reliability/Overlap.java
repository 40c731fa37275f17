package io.rmq.reliability;

/**
 * Two deliveries of one key that processed at the same time.
 *
 * @param key    the key
 * @param first  the delivery that started first
 * @param second the one that started before {@code first} ended
 */
public record Overlap(String key, History.Delivery first, History.Delivery second) {
    @Override
    public String toString() {
        return "key " + key + ": " + first.id() + " by " + first.process() + " [" + first.startMicros() + ".."
                + first.endMicros() + "] and " + second.id() + " by " + second.process() + " ["
                + second.startMicros() + ".." + second.endMicros() + "]";
    }
}
