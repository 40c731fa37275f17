package io.rmq.cli;

import java.io.PrintWriter;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import io.rmq.engine.admin.RmqAdmin;
import io.rmq.engine.schedule.ScheduleInfo;

/** Changes one schedule: {@code schedules pause}, {@code resume} and {@code remove}. */
abstract class ScheduleChangeCommand extends AdminCommand {

    @Parameters(index = "0", paramLabel = "<name>", description = "The schedule's name.")
    String name;

    @Override
    Report run(RmqAdmin admin, String keyPrefix) {
        return new ScheduleChangeReport(done(), Schedule.of(change(admin, keyPrefix)));
    }

    abstract ScheduleInfo change(RmqAdmin admin, String keyPrefix);

    /** What the command did, in the past tense. */
    abstract String done();

    /**
     * What a change did, and the schedule after it.
     *
     * @param action   {@code paused}, {@code resumed} or {@code removed}
     * @param schedule the schedule
     */
    public record ScheduleChangeReport(String action, Schedule schedule) implements Report {

        @Override
        public void printText(PrintWriter out) {
            out.println(action + " schedule '" + schedule.name() + "' of topic '" + schedule.topic() + "'"
                    + switch (action) {
                        case "paused" -> ": no instance sends its ticks until it is resumed";
                        case "resumed" -> ": the ticks of the pause are not sent, the next is at " + schedule.nextTick();
                        default -> ": the instances running it stop; an application that declares it records it again"
                                + " when it starts";
                    });
        }
    }

    /** {@code rmq schedules pause <name>}. */
    @Command(name = "pause", header = "Pauses a schedule: no instance sends its ticks until it is resumed.")
    static final class Pause extends ScheduleChangeCommand {
        @Override
        ScheduleInfo change(RmqAdmin admin, String keyPrefix) {
            return admin.pauseSchedule(keyPrefix, name);
        }

        @Override
        String done() {
            return "paused";
        }
    }

    /** {@code rmq schedules resume <name>}. */
    @Command(name = "resume", header = "Resumes a paused schedule: the ticks of the pause are not sent, the next one is.")
    static final class Resume extends ScheduleChangeCommand {
        @Override
        ScheduleInfo change(RmqAdmin admin, String keyPrefix) {
            return admin.resumeSchedule(keyPrefix, name);
        }

        @Override
        String done() {
            return "resumed";
        }
    }

    /** {@code rmq schedules remove <name>}. */
    @Command(name = "remove", header = "Removes a schedule, its definition and state; the instances running it stop.")
    static final class Remove extends ScheduleChangeCommand {
        @Override
        ScheduleInfo change(RmqAdmin admin, String keyPrefix) {
            return admin.removeSchedule(keyPrefix, name);
        }

        @Override
        String done() {
            return "removed";
        }
    }
}
