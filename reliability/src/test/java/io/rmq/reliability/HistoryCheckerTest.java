package io.rmq.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HistoryCheckerTest {

    private static History.Delivery delivery(String id, String key, int attempt, String process, long start, long end) {
        return new History.Delivery(id, key, attempt, process, start, end);
    }

    @Test
    void aCleanRunHasNothingToReport() {
        History h = new History();
        h.acked("1", "a", 0);
        h.acked("2", "b", 1);
        h.add(delivery("1", "a", 1, "p1", 10, 20));
        h.add(delivery("2", "b", 1, "p1", 15, 25));

        Verdict v = HistoryChecker.check(h, true);

        assertThat(v.holds()).isTrue();
        assertThat(v.lost()).isEmpty();
        assertThat(v.duplicates()).isEmpty();
        assertThat(v.maxDeliveries()).isEqualTo(1);
        assertThat(v.summary()).isEqualTo("acked=2 nacked=0 delivered=2 (2 deliveries) lost=0 duplicates=0"
                + " (max 1 deliveries) dead-lettered=0 delivered-in-doubt=0 overlaps=0");
    }

    @Test
    void anAckedSendNeverDeliveredIsLostUnlessDeadLettered() {
        History h = new History();
        h.acked("1", "a", 0);
        h.acked("2", "a", 0);
        h.acked("3", "a", 0);
        h.add(delivery("1", "a", 1, "p", 1, 2));
        h.deadLettered("3");

        Verdict v = HistoryChecker.check(h, false);

        assertThat(v.holds()).isFalse();
        assertThat(v.lost()).extracting(History.Send::id).containsExactly("2");
        assertThat(v.deadLettered()).containsExactly("3");
        assertThat(v.problems()).contains("lost: Send[id=2");
    }

    @Test
    void aMessageDeliveredTwiceIsADuplicateWithItsCount() {
        History h = new History();
        h.acked("1", "a", 0);
        h.acked("2", "a", 0);
        h.add(delivery("1", "a", 1, "killed", 1, 2));
        h.add(delivery("1", "a", 2, "p", 10, 11));
        h.add(delivery("1", "a", 3, "p", 20, 21));
        h.add(delivery("2", "a", 1, "p", 30, 31));

        Verdict v = HistoryChecker.check(h, true);

        assertThat(v.holds()).as("duplicates are allowed by at-least-once").isTrue();
        assertThat(v.duplicates()).containsExactly(java.util.Map.entry("1", 3));
        assertThat(v.extraDeliveries()).isEqualTo(2);
        assertThat(v.maxDeliveries()).isEqualTo(3);
        assertThat(v.deliveries()).isEqualTo(4);
        assertThat(v.deliveredMessages()).isEqualTo(2);
    }

    @Test
    void nackedSendsAreReportedAndTheirDeliveriesAreInDoubtNotErrors() {
        History h = new History();
        h.nacked("1", "a");
        h.nacked("2", "a");
        h.nacked("3", "a");
        h.acked("3", "a", 0); // retried, then acknowledged
        h.add(delivery("2", "a", 1, "p", 1, 2));
        h.add(delivery("3", "a", 1, "p", 3, 4));

        Verdict v = HistoryChecker.check(h, false);

        assertThat(v.nacked()).isEqualTo(2);
        assertThat(v.acked()).isEqualTo(1);
        assertThat(v.deliveredInDoubt()).isEqualTo(1);
        assertThat(v.lost()).isEmpty();
    }

    @Test
    void twoDeliveriesOfOneKeyProcessingAtOnceOverlap() {
        History h = new History();
        h.acked("1", "a", 0);
        h.acked("2", "a", 0);
        h.acked("3", "a", 0);
        h.acked("4", "b", 1);
        h.add(delivery("1", "a", 1, "p1", 100, 200));
        h.add(delivery("2", "a", 1, "p2", 150, 160)); // inside 1
        h.add(delivery("3", "a", 1, "p1", 200, 300)); // starts as 1 ends: serial
        h.add(delivery("4", "b", 1, "p2", 100, 200)); // another key

        Verdict v = HistoryChecker.check(h, true);

        assertThat(v.holds()).isFalse();
        assertThat(v.overlaps()).singleElement().satisfies(o -> {
            assertThat(o.key()).isEqualTo("a");
            assertThat(o.first().id()).isEqualTo("1");
            assertThat(o.second().id()).isEqualTo("2");
        });
        assertThat(HistoryChecker.check(h, false).overlaps()).isEmpty();
        assertThat(HistoryChecker.check(h, false).summary()).endsWith("overlaps=not checked");
    }

    @Test
    void anOverlapWithALongDeliveryThatStartedEarlierIsFound() {
        History h = new History();
        h.add(delivery("1", "a", 1, "p1", 0, 1_000));
        h.add(delivery("2", "a", 1, "p1", 10, 20));
        h.add(delivery("3", "a", 1, "p2", 500, 600)); // after 2 ended, but inside 1

        assertThat(HistoryChecker.check(h, true).overlaps()).extracting(o -> o.second().id()).containsExactly("2", "3");
    }

    @Test
    void maxConcurrentPerKeyIsTheMostIntervalsOfOneKeyOpenAtOnce() {
        History h = new History();
        assertThat(HistoryChecker.maxConcurrentPerKey(h)).isZero();
        h.add(delivery("1", "a", 1, "p1", 0, 100));
        h.add(delivery("2", "a", 1, "p2", 100, 200)); // touches 1: serial
        h.add(delivery("3", "b", 1, "p1", 0, 1_000));
        assertThat(HistoryChecker.maxConcurrentPerKey(h)).isEqualTo(1);

        h.add(delivery("4", "b", 1, "p2", 10, 500));
        h.add(delivery("5", "b", 1, "p3", 400, 450));
        h.add(delivery("6", "a", 1, "p3", 150, 160));
        assertThat(HistoryChecker.maxConcurrentPerKey(h)).as("b: 3, 4 and 5 at 400").isEqualTo(3);
    }

    @Test
    void theTableRowMatchesTheHeader() {
        History h = new History();
        h.acked("1", "a", 0);
        h.add(delivery("1", "a", 1, "p", 1, 2));
        h.add(delivery("1", "a", 2, "p", 3, 4));

        String row = HistoryChecker.check(h, false).tableRow("kill -9", "3 kills", "2.1 s");

        assertThat(row).isEqualTo("| kill -9 | 1 | 3 kills | 0 | 1 | 0 | 0 | n/a | 2.1 s |");
        assertThat(row.chars().filter(c -> c == '|').count())
                .isEqualTo(Verdict.TABLE_HEADER.lines().findFirst().orElseThrow().chars().filter(c -> c == '|').count());
    }

    @Test
    void aFileWrittenByAnotherProcessIsLoadedAndALineCutShortIsSkipped(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("consumer-1.history");
        try (HistoryLog log = HistoryLog.append(file, "consumer-1")) {
            log.acked("1", "a", 3);
            log.nacked("2", "b");
            log.delivered("1", "a", 1, 42);
        }
        Files.writeString(file, "D\t9\ta\t1\tconsumer-1\t4", java.nio.file.StandardOpenOption.APPEND);

        History h = HistoryLog.load(file, new History());

        assertThat(h.sends()).extracting(History.Send::id, History.Send::slot, History.Send::acked)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("1", 3, true),
                        org.assertj.core.groups.Tuple.tuple("2", -1, false));
        assertThat(h.deliveries()).singleElement().satisfies(d -> {
            assertThat(d.process()).isEqualTo("consumer-1");
            assertThat(d.startMicros()).isEqualTo(42);
            assertThat(d.endMicros()).isGreaterThan(42);
        });
    }

    @Test
    void recordingFromManyThreadsKeepsEveryRecord() throws Exception {
        History h = new History();
        int threads = 8;
        int each = 10_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch done = new CountDownLatch(threads);
        List<Runnable> tasks = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int base = t * each;
            tasks.add(() -> {
                for (int i = base; i < base + each; i++) {
                    h.acked(Integer.toString(i), "k" + (i % 7), i % 4);
                    h.delivered(Integer.toString(i), "k" + (i % 7), 1, "p", Clocks.nowMicros());
                }
                done.countDown();
            });
        }
        tasks.forEach(pool::execute);
        assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
        pool.shutdown();

        Verdict v = HistoryChecker.check(h, false);
        assertThat(v.acked()).isEqualTo(threads * each);
        assertThat(v.deliveredMessages()).isEqualTo(threads * each);
        assertThat(v.lost()).isEmpty();
    }
}
