package io.rmq.reliability;

import java.io.BufferedReader;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the deliveries (and sends) of one process to a file that the checking process then
 * loads ({@link #load}): one tab-separated line per record.
 *
 * <p>Each record is written with one {@code write} call before the method returns, so it is in the
 * operating system's hands even if the process is killed ({@code kill -9}) right after: record a
 * delivery <em>before</em> committing it, and a killed consumer never leaves a committed message
 * unrecorded. Thread-safe.
 *
 * <p>Line formats: {@code D id key attempt process startMicros endMicros} and
 * {@code S id key slot A|N atMicros}. Ids, keys and process names must not contain tabs or line breaks.
 */
public final class HistoryLog implements AutoCloseable {

    private final OutputStream out;
    private final String process;

    private HistoryLog(OutputStream out, String process) {
        this.out = out;
        this.process = process;
    }

    /** Appends to {@code file} (created if missing), recording deliveries under the name {@code process}. */
    public static HistoryLog append(Path file, String process) {
        try {
            return new HistoryLog(new FileOutputStream(file.toFile(), true), process);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the history file " + file, e);
        }
    }

    /** Records a delivery whose processing ran from {@code startMicros} to now. */
    public void delivered(String id, String key, int attempt, long startMicros) {
        write("D\t" + id + "\t" + key + "\t" + attempt + "\t" + process + "\t" + startMicros + "\t"
                + Clocks.nowMicros() + "\n");
    }

    /** Records a send the queue acknowledged. */
    public void acked(String id, String key, int slot) {
        write("S\t" + id + "\t" + key + "\t" + slot + "\tA\t" + Clocks.nowMicros() + "\n");
    }

    /** Records a send the queue refused or failed to confirm. */
    public void nacked(String id, String key) {
        write("S\t" + id + "\t" + key + "\t-1\tN\t" + Clocks.nowMicros() + "\n");
    }

    private void write(String line) {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        try {
            synchronized (out) {
                out.write(bytes);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the history", e);
        }
    }

    /**
     * Adds the records of a file written by a {@code HistoryLog} to {@code history}. A last line cut short (its
     * writer was killed while writing it) is skipped: its message was not committed, so it is delivered again.
     *
     * @return {@code history}
     */
    public static History load(Path file, History history) {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                parse(line, history);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the history file " + file, e);
        }
        return history;
    }

    /** Adds the record of {@code line} to {@code history}; ignores a line that is cut short. */
    static void parse(String line, History history) {
        String[] f = line.split("\t", -1);
        try {
            if (f.length == 7 && f[0].equals("D")) {
                history.add(new History.Delivery(f[1], f[2], Integer.parseInt(f[3]), f[4], Long.parseLong(f[5]),
                        Long.parseLong(f[6])));
            } else if (f.length == 6 && f[0].equals("S")) {
                history.add(new History.Send(f[1], f[2], Integer.parseInt(f[3]), f[4].equals("A"),
                        Long.parseLong(f[5])));
            }
        } catch (NumberFormatException e) {
            // a line cut short by a kill: its message was not committed
        }
    }

    @Override
    public void close() {
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close the history", e);
        }
    }
}
